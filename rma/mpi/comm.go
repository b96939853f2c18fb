//go:build mpi

package mpi

/*
#include "shim.h"
#cgo noescape gdi_check
#cgo nocallback gdi_check
*/
import "C"

import (
	"errors"
	"fmt"
	"sync/atomic"
	"unsafe"

	"github.com/gdi-go/gdi/rma"
)

// comm is one process's rank in a Run: an MPI communicator of its own,
// split from MPI_COMM_WORLD, freed when Run returns.
type comm struct {
	c      C.MPI_Comm
	rank   int
	size   int
	closed atomic.Bool // Run has returned; the MPI communicator is gone

	// The node layout (node.go): node is the communicator of the ranks on
	// this rank's node, nodeSize its size, nodeRank each rank's place in
	// it or -1, and layout one of GDI_WHOLE, GDI_SINGLES, GDI_NODES.
	node     C.MPI_Comm
	nodeSize int
	nodeRank []int
	layout   C.int

	chk     []int64   // receive buffer of agree, reused: collectives are serial
	wins    []*window // windows allocated and not yet released, in creation order
	nextWin int64     // id of the next window, the same on every rank
}

func (c *comm) Rank() int { return c.rank }
func (c *comm) Size() int { return c.size }

// Every collective starts with the same MPI operation, an allgather of a
// fixed-size record per rank (agree), and moves data only if every rank's
// record says it can. The records carry the collective's kind, the rank's
// verdict on its own arguments, and the arguments that must match. This gives
// the ranks one decision: a bad argument on one rank fails the collective
// with the same sentinel on all of them, mismatched collectives fail instead
// of corrupting memory or hanging in MPI, and a rank whose fn has returned
// keeps answering agree with kindExit (see finish), so its peers' collectives
// fail with rma.ErrAborted instead of hanging.

type kind int64

const (
	kindExit kind = iota + 1
	kindBarrier
	kindBcast
	kindAllreduceInt64
	kindAllreduceUint64
	kindAllreduceFloat64
	kindAllgather
	kindAllgatherv
	kindAlltoall
	kindAlltoallv
	kindNewWindow
	kindFree
)

var kindNames = [...]string{
	kindExit:             "return from Run",
	kindBarrier:          "Barrier",
	kindBcast:            "Bcast",
	kindAllreduceInt64:   "AllreduceInt64",
	kindAllreduceUint64:  "AllreduceUint64",
	kindAllreduceFloat64: "AllreduceFloat64",
	kindAllgather:        "Allgather",
	kindAllgatherv:       "Allgatherv",
	kindAlltoall:         "Alltoall",
	kindAlltoallv:        "Alltoallv",
	kindNewWindow:        "NewWindow",
	kindFree:             "Window.Free",
}

func (k kind) String() string {
	if k > 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("collective(%d)", int64(k))
}

// Fields of an agree record.
const (
	fKind = iota
	fCode // 0, or the index in codeErrs of the sentinel this rank's arguments fail with
	fA    // arguments that must match on all ranks, or per-rank values
	fB
	nFields
)

// codeErrs are the sentinels a rank's argument check can report; code i+1
// stands for codeErrs[i]. A failed fn is reported on exit with codeFailed.
var codeErrs = []error{rma.ErrRank, rma.ErrArgument, rma.ErrRange, rma.ErrAlignment, rma.ErrFreed}

const codeFailed = 100

func codeOf(err error) int64 {
	if err == nil {
		return 0
	}
	for i, s := range codeErrs {
		if errors.Is(err, s) {
			return int64(i + 1)
		}
	}
	return 2 // ErrArgument, for a check without a sentinel
}

// exchange allgathers one record per rank. It is the first MPI call of
// every collective.
func (c *comm) exchange(send *[nFields]int64) ([]int64, error) {
	if c.chk == nil {
		c.chk = make([]int64, nFields*c.size)
	}
	recv := c.chk
	if rc := C.gdi_check(c.c, (*C.int64_t)(unsafe.Pointer(&send[0])), nFields,
		(*C.int64_t)(unsafe.Pointer(&recv[0]))); rc != C.MPI_SUCCESS {
		return nil, fmt.Errorf("mpi: %v: MPI_Allgather: %w", kind(send[fKind]), mpiError(rc))
	}
	return recv, nil
}

// agree runs the agreement step of a collective of kind k. bad is this
// rank's verdict on its own arguments. If same, a and b must be equal on all
// ranks. It returns the records of all ranks, nFields per rank, valid until
// the next collective.
func (c *comm) agree(k kind, bad error, a, b int64, same bool) ([]int64, error) {
	if c.closed.Load() {
		return nil, fmt.Errorf("%w: %v on a communicator whose Run has returned", rma.ErrAborted, k)
	}
	send := [nFields]int64{int64(k), codeOf(bad), a, b}
	recv, err := c.exchange(&send)
	if err != nil {
		return nil, err
	}
	rec := func(r int) []int64 { return recv[r*nFields : (r+1)*nFields] }
	for r := range c.size {
		if kind(rec(r)[fKind]) == kindExit {
			if rec(r)[fCode] == codeFailed {
				return nil, fmt.Errorf("%w: %v: rank %d failed", rma.ErrAborted, k, r)
			}
			return nil, fmt.Errorf("%w: rank %d returned without calling %v", rma.ErrAborted, r, k)
		}
	}
	for r := range c.size {
		if other := kind(rec(r)[fKind]); other != k {
			return nil, fmt.Errorf("%w: collective is %v here and %v on rank %d", rma.ErrArgument, k, other, r)
		}
	}
	for r := range c.size {
		code := rec(r)[fCode]
		if code == 0 {
			continue
		}
		if r == c.rank && bad != nil {
			return nil, fmt.Errorf("%v failed on rank %d: %w", k, r, bad)
		}
		sentinel := rma.ErrArgument
		if code >= 1 && int(code) <= len(codeErrs) {
			sentinel = codeErrs[code-1]
		}
		return nil, fmt.Errorf("%v failed on rank %d: %w", k, r, sentinel)
	}
	if same {
		for r := range c.size {
			if rec(r)[fA] != a || rec(r)[fB] != b {
				return nil, fmt.Errorf("%w: %v(%s) here, (%s) on rank %d", rma.ErrArgument, k,
					describe(k, a, b), describe(k, rec(r)[fA], rec(r)[fB]), r)
			}
		}
	}
	return recv, nil
}

func describe(k kind, a, b int64) string {
	switch k {
	case kindBcast:
		return fmt.Sprintf("%d bytes, root %d", a, b)
	case kindAllreduceInt64, kindAllreduceUint64, kindAllreduceFloat64:
		return fmt.Sprintf("%d elements, %v", a, rma.Op(b))
	case kindNewWindow:
		return fmt.Sprintf("%d bytes", a)
	case kindFree:
		return fmt.Sprintf("window #%d", a)
	}
	return fmt.Sprintf("%d bytes", a)
}

// finish ends a rank's part of a Run once fn has returned with err. It keeps
// answering the agreement step of its peers' collectives with kindExit until
// every rank has returned, then releases the windows nobody freed and the
// communicator. The last round tells every rank whose fn failed.
func (c *comm) finish(err error) error {
	send := [nFields]int64{int64(kindExit), 0, 0, 0}
	if err != nil {
		send[fCode] = codeFailed
	}
	failed := -1
	for {
		recv, xerr := c.exchange(&send)
		if xerr != nil {
			// MPI itself failed; the ranks cannot be kept in step.
			c.closed.Store(true)
			return errors.Join(err, xerr)
		}
		done := true
		for r := range c.size {
			if kind(recv[r*nFields+fKind]) != kindExit {
				done = false
			} else if recv[r*nFields+fCode] != 0 && failed < 0 {
				failed = r
			}
		}
		if done {
			break
		}
		failed = -1
	}
	c.closed.Store(true)
	var errs []error
	if err != nil {
		errs = append(errs, err)
	} else if failed >= 0 {
		errs = append(errs, fmt.Errorf("rank %d: %w: rank %d failed", c.rank, rma.ErrAborted, failed))
	}
	for _, w := range c.wins {
		w.freed.Store(true)
		if rc := C.gdi_win_free(&w.win, &w.nodeWin, w.mem); rc != C.MPI_SUCCESS {
			errs = append(errs, fmt.Errorf("mpi: releasing a window at the end of Run: %w", mpiError(rc)))
		}
	}
	c.wins = nil
	if c.node != C.MPI_COMM_NULL {
		if rc := C.gdi_comm_free(&c.node); rc != C.MPI_SUCCESS {
			errs = append(errs, fmt.Errorf("mpi: MPI_Comm_free of the node: %w", mpiError(rc)))
		}
	}
	if rc := C.gdi_comm_free(&c.c); rc != C.MPI_SUCCESS {
		errs = append(errs, fmt.Errorf("mpi: MPI_Comm_free: %w", mpiError(rc)))
	}
	return errors.Join(errs...)
}
