//go:build mpi

package mpi

/*
#include <stdlib.h>
#include "shim.h"
*/
import "C"

import (
	"fmt"
	"os"
	"unsafe"

	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/internal/wordmem"
)

// Shared-memory windows. When every rank of a Run is a process on the
// same node, windows are allocated with MPI_Win_allocate_shared, and each
// process maps every rank's part. Gets and Puts are then copies, and the
// atomics are the CPU's, exactly as in rma/local, instead of a cgo call
// into MPI each: on one node, MPI's osc sm component does the same copies
// and atomics, behind a call that costs more than the copy. The memory is
// still MPI's, allocated and freed collectively, and every access still
// goes through rma.Window, so nothing above this package changes. Ranks
// on several nodes get MPI_Win_allocate and MPI's one-sided calls.
//
// As in rma/local, Put's whole words are plain stores, visible to other
// ranks in the order the CPU makes them so; the caller's locks (atomics,
// which are full barriers on the CPUs Go and Open MPI share here) order
// them against readers. GDI_MPI_SHM=0 in the environment of every process
// turns the shared path off, to run MPI's one-sided calls on one node.

// wantShared reports whether this process may use shared-memory windows.
func wantShared() bool { return os.Getenv("GDI_MPI_SHM") != "0" }

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// allocateShared makes w a shared-memory window of size bytes per rank.
func (w *window) allocateShared(size int) error {
	n := w.c.size
	cbases := (*unsafe.Pointer)(C.malloc(C.size_t(n) * C.size_t(unsafe.Sizeof(unsafe.Pointer(nil)))))
	defer C.free(unsafe.Pointer(cbases))
	if rc := C.gdi_win_allocate_shared(w.c.c, C.MPI_Aint(size), &w.win, cbases); rc != C.MPI_SUCCESS {
		return fmt.Errorf("mpi: MPI_Win_allocate_shared(%d bytes): %w", size, mpiError(rc))
	}
	w.mems = make([][]uint64, n)
	if size == 0 {
		return nil
	}
	for r, b := range unsafe.Slice(cbases, n) {
		if uintptr(b)%8 != 0 {
			_ = C.gdi_win_free(&w.win)
			return fmt.Errorf("mpi: shared window part of rank %d at %p is not 8-byte aligned", r, b)
		}
		w.mems[r] = unsafe.Slice((*uint64)(b), (size+7)/8)
	}
	return nil
}

// The operations of shared-memory windows, after the same checks as MPI's.

func (w *window) sharedGet(dst []byte, target, offset int) {
	wordmem.Load(w.mems[target], offset, dst)
}

var _ rma.Prefetcher = (*window)(nil)

// Prefetch implements rma.Prefetcher for shared-memory windows; on others,
// and for a range not wholly inside the window, it does nothing. (Were the
// window freed meanwhile, a prefetch of memory no longer mapped does not
// fault.)
func (w *window) Prefetch(target, offset, n int) {
	if w.mems == nil || w.freed.Load() || uint(target) >= uint(len(w.mems)) || offset < 0 || n < 0 || offset > w.size-n {
		return
	}
	wordmem.Prefetch(w.mems[target], offset, n)
}

func (w *window) sharedPut(src []byte, target, offset int) {
	wordmem.Store(w.mems[target], offset, src)
}

func (w *window) sharedWord(target, offset int) *uint64 {
	return &w.mems[target][offset>>3]
}

func (w *window) sharedCAS(target, offset int, old, new uint64) uint64 {
	return wordmem.CompareAndSwap(w.sharedWord(target, offset), old, new)
}
