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
	"slices"
	"strings"
	"unsafe"

	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/internal/wordmem"
)

// The node layout. The ranks of a Run are grouped into nodes: the ranks
// that share memory (MPI_COMM_TYPE_SHARED). A window's memory is
// allocated per node with MPI_Win_allocate_shared (osc sm), and each
// process maps the parts of every rank of its node. When every node is
// one rank, each maps its own part: from MPI_Win_allocate if osc ucx is
// the only component allowed (or the Run has one rank, and no MPI
// atomics), from MPI_Alloc_mem with MPI_Win_create otherwise, so that osc
// sm, whose atomics are not the CPU's, never serves a window some of whose
// words are also reached directly. A rank reaches its own part and
// its node's with copies and the CPU's atomics, exactly as in rma/local,
// and the ranks of other nodes through MPI's one-sided calls on a window
// made over the whole Run on the same memory (MPI_Win_create). When one
// node holds every rank, no call reaches MPI; when every rank is its own
// node, only a rank's own part is direct.
//
// The memory is MPI's, allocated and freed collectively, and every access
// still goes through rma.Window, so nothing above this package changes.
// As in rma/local, Put's whole words are plain stores, visible to other
// ranks in the order the CPU makes them so; the caller's locks (atomics,
// which are full barriers on the CPUs Go and Open MPI share here) order
// them against readers.
//
// Two kinds of atomics then act on one word: the CPU's, from the node,
// and MPI's, from other nodes. They are atomic with respect to each other
// only if the target's CPU carries out MPI's too, as it does for UCX over
// TCP and shared memory; a network card's atomics are not. So the package
// sets UCX_ATOMIC_MODE=cpu (ucxAtomics) before MPI starts, unless set.
// A user who sets it otherwise, to keep a card's atomics, gets MPI's
// atomics for every word other nodes reach, and direct copies only.
//
// Environment, the same in every process (mpirun -x):
//
//	GDI_MPI_SHM=0         every rank is its own node: only its own part
//	                      is direct, and every other access is an MPI call
//	GDI_MPI_NODE_SIZE=k   pretend nodes: the ranks that share memory are
//	                      cut into nodes of k consecutive ranks, to test
//	                      the layout of a cluster on one machine

// checkNodeComponents refuses, when MPI starts, a job whose nodes hold
// several ranks if mpirun allowed no osc sm, which alone makes the
// shared memory of a node: rather than failing at the first window. It
// is collective over MPI_COMM_WORLD, as MPI_Init is.
func checkNodeComponents() error {
	want, nodeSize, err := nodeSettings()
	if err != nil {
		return err
	}
	req := oscRequested()
	if req == nil || slices.Contains(req, "sm") {
		return nil
	}
	ranks := make([]C.int, worldSize)
	var node C.MPI_Comm
	var layout C.int
	if rc := C.gdi_node_split(C.gdi_comm_world(), C.int(boolInt(want)), C.int(nodeSize), &node, &ranks[0], &layout); rc != C.MPI_SUCCESS {
		return fmt.Errorf("mpi: finding the processes' nodes: %w", mpiError(rc))
	}
	C.gdi_comm_free(&node)
	if layout == C.GDI_SINGLES {
		return nil
	}
	return fmt.Errorf("mpi: --mca osc %s cannot serve rma/mpi: some node runs several processes, and only osc sm shares a node's memory; use --mca osc %s,sm, or GDI_MPI_SHM=0 to reach every other process through MPI",
		strings.Join(req, ","), strings.Join(req, ","))
}

// splitNodes finds c's node: c.node, c.nodeRank (each rank's place in
// it, or -1) and c.layout.
func (c *comm) splitNodes() error {
	want, nodeSize, err := nodeSettings()
	if err != nil {
		return err
	}
	ranks := make([]C.int, c.size)
	if rc := C.gdi_node_split(c.c, C.int(boolInt(want)), C.int(nodeSize), &c.node, &ranks[0], &c.layout); rc != C.MPI_SUCCESS {
		return fmt.Errorf("mpi: finding the ranks' node: %w", mpiError(rc))
	}
	var n C.int
	C.MPI_Comm_size(c.node, &n)
	c.nodeRank = make([]int, c.size)
	for r := range c.nodeRank {
		c.nodeRank[r] = -1
	}
	for i, r := range ranks[:n] {
		c.nodeRank[r] = i
	}
	c.nodeSize = int(n)
	return nil
}

// oscAtomicsAreCPU reports whether the MPI atomics that other nodes aim
// at this process's parts are done with the CPU's atomic instructions, so
// that they mix with direct ones: only osc ucx's, with UCX_ATOMIC_MODE=cpu
// (ucxAtomics sets it unless the user chose). osc pt2pt and osc rdma over
// some BTLs serve an atomic with a lock and a read-modify-write, like osc
// sm; Open MPI's own choice may be either.
func oscAtomicsAreCPU() bool {
	req := oscRequested()
	for _, c := range req {
		if c != "ucx" && c != "sm" {
			return false
		}
	}
	return len(req) > 0 && os.Getenv("UCX_ATOMIC_MODE") == "cpu"
}

// oscOnlyUCX reports whether mpirun allowed osc ucx alone.
func oscOnlyUCX() bool {
	req := oscRequested()
	return len(req) == 1 && req[0] == "ucx"
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// allocate makes w's memory: size bytes per rank, mapped for the ranks
// of this node.
func (w *window) allocate(size int) error {
	c := w.c
	cbases := (*unsafe.Pointer)(C.malloc(C.size_t(c.nodeSize) * C.size_t(unsafe.Sizeof(unsafe.Pointer(nil)))))
	defer C.free(unsafe.Pointer(cbases))
	if rc := C.gdi_win_allocate_node(c.c, c.node, c.layout, C.int(boolInt(oscOnlyUCX() || c.size == 1)), C.MPI_Aint(size), &w.win, &w.nodeWin, &w.mem, cbases); rc != C.MPI_SUCCESS {
		return windowHint(fmt.Errorf("mpi: allocating a window of %d bytes per rank: %w", size, mpiError(rc)))
	}
	w.mems = make([][]uint64, c.size)
	w.remote = c.nodeSize < c.size
	w.cpuAtomics = !w.remote || oscAtomicsAreCPU()
	if size == 0 {
		return nil
	}
	bases := unsafe.Slice(cbases, c.nodeSize)
	for r, i := range c.nodeRank {
		if i < 0 {
			continue
		}
		b := bases[i]
		if uintptr(b)%8 != 0 {
			_ = C.gdi_win_free(&w.win, &w.nodeWin, w.mem)
			return fmt.Errorf("mpi: window part of rank %d at %p is not 8-byte aligned", r, b)
		}
		w.mems[r] = unsafe.Slice((*uint64)(b), (size+7)/8)
	}
	return nil
}

// direct returns target's part of w if this process maps it, else nil.
// A zero-size window maps nothing, and needs nothing.
func (w *window) direct(target int) []uint64 { return w.mems[target] }

// directWord is direct for the atomics: nil also when other nodes' MPI
// atomics may reach the part and are not the CPU's (oscAtomicsAreCPU), so
// that every atomic on such a part, the owner's too, goes through MPI.
func (w *window) directWord(target int) []uint64 {
	if !w.cpuAtomics {
		return nil
	}
	return w.mems[target]
}

// The operations on mapped parts, after the same checks as MPI's.

var _ rma.Prefetcher = (*window)(nil)

// Prefetch implements rma.Prefetcher for the parts this process maps; for
// others, and for a range not wholly inside the window, it does nothing.
// (Were the window freed meanwhile, a prefetch of memory no longer mapped
// does not fault.)
func (w *window) Prefetch(target, offset, n int) {
	if w.freed.Load() || uint(target) >= uint(len(w.mems)) || offset < 0 || n < 0 || offset > w.size-n {
		return
	}
	if m := w.mems[target]; m != nil {
		wordmem.Prefetch(m, offset, n)
	}
}

func word(m []uint64, offset int) *uint64 { return &m[offset>>3] }
