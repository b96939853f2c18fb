//go:build mpi

package mpi

/*
#include "shim.h"
#cgo noescape gdi_get
#cgo nocallback gdi_get
#cgo noescape gdi_put
#cgo nocallback gdi_put
#cgo nocallback gdi_flush
#cgo nocallback gdi_cas
#cgo nocallback gdi_fetch_op
*/
import "C"

import (
	"fmt"
	"sync/atomic"
	"unsafe"

	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/internal/wordmem"
)

// window is one rank's handle on a window: memory shared within its node
// (node.go), and the MPI window over the whole Run through which other
// nodes' ranks are reached, held in an MPI_Win_lock_all epoch from
// NewWindow until it is released.
type window struct {
	win     C.MPI_Win      // over the whole Run
	nodeWin C.MPI_Win      // over the node, or MPI_WIN_NULL
	mem     unsafe.Pointer // this rank's part, from MPI_Alloc_mem, or nil
	c       *comm
	id      int64 // creation index in c, the same on every rank
	size    int
	freed   atomic.Bool

	// stages hold the Gets and Puts to each rank reached through MPI
	// that no flush has completed yet, in C memory of chunks (stage.go).
	stages []stage
	chunks chunkPool

	// mems is every rank's part of the window, for the ranks whose part
	// this process maps (its own and its node's), nil for the others.
	// Not changed after allocate.
	mems [][]uint64
	// remote: some rank's part is reached through MPI.
	remote bool
	// cpuAtomics: the atomics on mapped parts may be the CPU's (see
	// directWord).
	cpuAtomics bool
	polls      atomic.Uint32 // atomics on mapped parts, for poll
}

func (c *comm) NewWindow(size int) (rma.Window, error) {
	var bad error
	if size < 0 {
		bad = fmt.Errorf("%w: window size %d", rma.ErrArgument, size)
	}
	if _, err := c.agree(kindNewWindow, bad, int64(size), 0, true); err != nil {
		return nil, err
	}
	w := &window{c: c, id: c.nextWin, size: size, stages: make([]stage, c.size)}
	c.nextWin++
	if err := w.allocate(size); err != nil {
		return nil, err
	}
	c.wins = append(c.wins, w)
	return w, nil
}

func (w *window) Size() int { return w.size }

func (w *window) Free() error {
	if w.freed.Swap(true) {
		return fmt.Errorf("%w: Free called twice", rma.ErrFreed)
	}
	if _, err := w.c.agree(kindFree, nil, w.id, 0, true); err != nil {
		// The ranks did not all free this window; the MPI window stays
		// allocated until the end of the Run.
		return err
	}
	for i, x := range w.c.wins {
		if x == w {
			w.c.wins = append(w.c.wins[:i], w.c.wins[i+1:]...)
			break
		}
	}
	if rc := C.gdi_win_free(&w.win, &w.nodeWin, w.mem); rc != C.MPI_SUCCESS {
		return fmt.Errorf("mpi: MPI_Win_free: %w", mpiError(rc))
	}
	for i := range w.stages { // MPI_Win_free completed what they held
		s := &w.stages[i]
		s.mu.Lock()
		s.complete(&w.chunks)
		s.mu.Unlock()
	}
	w.chunks.release()
	return nil
}

// check validates a byte range [offset, offset+n) of target.
func (w *window) check(target, offset, n int) error {
	if w.freed.Load() {
		return rma.ErrFreed
	}
	if uint(target) >= uint(len(w.stages)) {
		return fmt.Errorf("%w: rank %d of %d", rma.ErrRank, target, len(w.stages))
	}
	if offset < 0 || n < 0 || offset > w.size-n {
		return fmt.Errorf("%w: bytes [%d, %d) of a %d-byte window", rma.ErrRange, offset, offset+n, w.size)
	}
	return nil
}

// word validates an atomic on the word at offset of target.
func (w *window) word(target, offset int) error {
	if err := w.check(target, offset, 8); err != nil {
		return err
	}
	if offset&7 != 0 {
		return fmt.Errorf("%w: offset %d", rma.ErrAlignment, offset)
	}
	return nil
}

// Get of a rank reached through MPI is staged (stage.go) unless it is
// larger than maxStaged; then it completes before it returns (MPI_Get,
// then MPI_Win_flush_local), so MPI never holds on to dst, which is Go
// memory. See the package doc.
func (w *window) Get(dst []byte, target, offset int) error {
	if err := w.check(target, offset, len(dst)); err != nil {
		return err
	}
	if len(dst) == 0 {
		return nil
	}
	if m := w.direct(target); m != nil {
		wordmem.Load(m, offset, dst)
		return nil
	}
	t := callStart()
	var rc C.int
	if len(dst) <= maxStaged {
		rc = w.stagedGetOp(dst, target, offset)
	} else {
		rc = C.gdi_get(w.win, cbytes(dst), C.size_t(len(dst)), C.int(target), C.MPI_Aint(offset))
	}
	callDone(callGet, t)
	if rc != C.MPI_SUCCESS {
		return fmt.Errorf("mpi: MPI_Get: %w", mpiError(rc))
	}
	return nil
}

// Put of a rank reached through MPI copies src into the stage (stage.go),
// or, if larger than maxStaged, completes locally before it returns
// (MPI_Put, then MPI_Win_flush_local): src may be reused at once. The data
// is visible at the target after Flush or FlushAll.
func (w *window) Put(src []byte, target, offset int) error {
	if err := w.check(target, offset, len(src)); err != nil {
		return err
	}
	if len(src) == 0 {
		return nil
	}
	if m := w.direct(target); m != nil {
		wordmem.Store(m, offset, src)
		return nil
	}
	t := callStart()
	var rc C.int
	if len(src) <= maxStaged {
		rc = w.stagedPutOp(src, target, offset)
	} else {
		s := &w.stages[target]
		s.mu.Lock()
		rc = C.gdi_put(w.win, cbytes(src), C.size_t(len(src)), C.int(target), C.MPI_Aint(offset))
		s.pending = s.pending || rc == C.MPI_SUCCESS
		s.mu.Unlock()
	}
	callDone(callPut, t)
	if rc != C.MPI_SUCCESS {
		return fmt.Errorf("mpi: MPI_Put: %w", mpiError(rc))
	}
	return nil
}

// Flush completes the stage of target: one MPI_Win_flush if anything is
// pending there, none otherwise (after Gets of shared memory, or a batch
// of atomics that completed it).
func (w *window) Flush(target int) error {
	if err := w.check(target, 0, 0); err != nil {
		return err
	}
	s := &w.stages[target]
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.pending {
		return nil
	}
	t := callStart()
	rc := C.gdi_flush(w.win, C.int(target))
	callDone(callFlush, t)
	if rc != C.MPI_SUCCESS {
		return fmt.Errorf("mpi: MPI_Win_flush: %w", mpiError(rc))
	}
	s.complete(&w.chunks)
	return nil
}

// FlushAll completes every stage that has something pending, with an
// MPI_Win_flush each. (MPI_Win_flush_all would be one call, but under osc
// ucx of Open MPI 4.1 it left staged Puts incomplete when the ranks' parts
// were shared within pretend nodes: TestConcurrentPutsFlushedByOthers.)
func (w *window) FlushAll() error {
	if w.freed.Load() {
		return rma.ErrFreed
	}
	for i := range w.stages {
		if err := w.Flush(i); err != nil {
			return err
		}
	}
	return nil
}

func (w *window) CompareAndSwap(target, offset int, old, new uint64) (uint64, error) {
	if err := w.word(target, offset); err != nil {
		return 0, err
	}
	if m := w.directWord(target); m != nil {
		w.poll()
		return wordmem.CompareAndSwap(word(m, offset), old, new), nil
	}
	t := callStart()
	r := C.gdi_cas(w.win, C.int(target), C.MPI_Aint(offset), C.uint64_t(old), C.uint64_t(new))
	callDone(callCAS, t)
	if r.rc != C.MPI_SUCCESS {
		return 0, fmt.Errorf("mpi: MPI_Compare_and_swap: %w", mpiError(r.rc))
	}
	return uint64(r.v), nil
}

// fetchOp is an MPI_Fetch_and_op on a word already checked.
func (w *window) fetchOp(k callKind, target, offset int, v uint64, op C.int, name string) (uint64, error) {
	t := callStart()
	r := C.gdi_fetch_op(w.win, C.int(target), C.MPI_Aint(offset), C.uint64_t(v), op)
	callDone(k, t)
	if r.rc != C.MPI_SUCCESS {
		return 0, fmt.Errorf("mpi: %s: MPI_Fetch_and_op: %w", name, mpiError(r.rc))
	}
	return uint64(r.v), nil
}

func (w *window) FetchAndAdd(target, offset int, delta uint64) (uint64, error) {
	if err := w.word(target, offset); err != nil {
		return 0, err
	}
	if m := w.directWord(target); m != nil {
		w.poll()
		return atomic.AddUint64(word(m, offset), delta) - delta, nil
	}
	return w.fetchOp(callFetchAdd, target, offset, delta, C.GDI_FOP_SUM, "FetchAndAdd")
}

func (w *window) AtomicGet(target, offset int) (uint64, error) {
	if err := w.word(target, offset); err != nil {
		return 0, err
	}
	if m := w.directWord(target); m != nil {
		w.poll()
		return atomic.LoadUint64(word(m, offset)), nil
	}
	return w.fetchOp(callAtomicGet, target, offset, 0, C.GDI_FOP_NO_OP, "AtomicGet")
}

func (w *window) AtomicPut(target, offset int, v uint64) error {
	if err := w.word(target, offset); err != nil {
		return err
	}
	if m := w.directWord(target); m != nil {
		atomic.StoreUint64(word(m, offset), v)
		return nil
	}
	_, err := w.fetchOp(callAtomicPut, target, offset, v, C.GDI_FOP_REPLACE, "AtomicPut")
	return err
}
