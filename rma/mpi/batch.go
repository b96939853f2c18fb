//go:build mpi

package mpi

/*
#include "shim.h"
#cgo noescape gdi_atomics
#cgo nocallback gdi_atomics
*/
import "C"

import (
	"fmt"
	"slices"
	"sync"
	"unsafe"

	"github.com/gdi-go/gdi/rma"
)

// batchOp is C's gdi_atomic.
type batchOp struct {
	old, arg, prev uint64
	offset         int64
	target, kind   int32
}

// The layout of batchOp is C's.
var _ [unsafe.Sizeof(batchOp{})]byte = [unsafe.Sizeof(C.gdi_atomic{})]byte{}

// batchKinds are the GDI_ATOMIC_* of each rma.AtomicKind.
var batchKinds = [...]int32{
	rma.CompareAndSwap: C.GDI_ATOMIC_CAS,
	rma.FetchAndAdd:    C.GDI_ATOMIC_FAA,
	rma.AtomicGet:      C.GDI_ATOMIC_GET,
	rma.AtomicPut:      C.GDI_ATOMIC_PUT,
}

// batches holds the C-shaped copies of batches.
var batches = sync.Pool{New: func() any { return new([]batchOp) }}

// Atomics (rma.AtomicBatcher) performs the atomics of ops on mapped parts
// as the single calls do, with the CPU's atomics where those are, and the
// others in one call across cgo: MPI starts them all, then completes them
// with a flush per target (gdi_atomics).
func (w *window) Atomics(ops []rma.Atomic) error {
	bp := batches.Get().(*[]batchOp)
	defer batches.Put(bp)
	remote, at := (*bp)[:0], make([]int, 0, 16) // at: the index in ops of each remote op
	for i := range ops {
		op := &ops[i]
		if op.Kind == 0 || int(op.Kind) >= len(batchKinds) {
			return fmt.Errorf("%w: atomic of kind %v", rma.ErrArgument, op.Kind)
		}
		if err := w.word(op.Target, op.Offset); err != nil {
			return err
		}
		if w.directWord(op.Target) != nil {
			if err := op.Do(w); err != nil {
				return err
			}
			continue
		}
		remote = append(remote, batchOp{old: op.Old, arg: op.Arg, offset: int64(op.Offset), target: int32(op.Target), kind: batchKinds[op.Kind]})
		at = append(at, i)
	}
	*bp = remote
	if len(remote) == 0 {
		return nil
	}
	// The batch's flushes complete what is staged for its targets: their
	// stages are held meanwhile, in the order of their ranks.
	var room [16]int
	targets := rma.Targets(ops, room[:0])
	slices.Sort(targets)
	for _, r := range targets {
		w.stages[r].mu.Lock()
	}
	t := callStart()
	rc := C.gdi_atomics(w.win, (*C.gdi_atomic)(unsafe.Pointer(&remote[0])), C.int(len(remote)))
	callDone(callAtomics, t)
	for _, r := range targets {
		if s := &w.stages[r]; rc == C.MPI_SUCCESS && s.pending {
			s.complete(&w.chunks)
		}
		w.stages[r].mu.Unlock()
	}
	if rc != C.MPI_SUCCESS {
		return fmt.Errorf("mpi: batch of %d atomics: %w", len(remote), mpiError(rc))
	}
	for j, i := range at {
		if ops[i].Kind != rma.AtomicPut {
			ops[i].Prev = remote[j].prev
		}
	}
	return nil
}
