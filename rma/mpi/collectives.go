//go:build mpi

package mpi

/*
#include "shim.h"
*/
import "C"

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/gdi-go/gdi/rma"
)

// MPI counts and displacements are C ints, so a collective moves at most
// math.MaxInt32 bytes per buffer (Bcast excepted: it is split into pieces),
// and Allgatherv and Alltoallv at most that many bytes in total over all
// ranks. Larger requests fail with rma.ErrArgument on every rank.

func tooBig(n int) bool { return n > math.MaxInt32 }

func (c *comm) Barrier() error {
	// The agreement step is an allgather, which no rank leaves before all
	// have entered it: it is the barrier.
	_, err := c.agree(kindBarrier, nil, 0, 0, true)
	return err
}

func (c *comm) Bcast(buf []byte, root int) error {
	var bad error
	if root < 0 || root >= c.size {
		bad = fmt.Errorf("%w: Bcast root %d of %d", rma.ErrRank, root, c.size)
	}
	if _, err := c.agree(kindBcast, bad, int64(len(buf)), int64(root), true); err != nil {
		return err
	}
	if len(buf) == 0 {
		return nil
	}
	if rc := C.gdi_bcast(c.c, cbytes(buf), C.size_t(len(buf)), C.int(root)); rc != C.MPI_SUCCESS {
		return fmt.Errorf("mpi: MPI_Bcast: %w", mpiError(rc))
	}
	return nil
}

func (c *comm) AllreduceInt64(buf []int64, op rma.Op) error {
	return allreduce(c, kindAllreduceInt64, C.GDI_INT64, buf, op)
}

func (c *comm) AllreduceUint64(buf []uint64, op rma.Op) error {
	return allreduce(c, kindAllreduceUint64, C.GDI_UINT64, buf, op)
}

func (c *comm) AllreduceFloat64(buf []float64, op rma.Op) error {
	return allreduce(c, kindAllreduceFloat64, C.GDI_DOUBLE, buf, op)
}

func allreduce[T rma.Number](c *comm, k kind, typ C.int, buf []T, op rma.Op) error {
	var bad error
	var mop C.int
	switch op {
	case rma.OpSum:
		mop = C.GDI_SUM
	case rma.OpMin:
		mop = C.GDI_MIN
	case rma.OpMax:
		mop = C.GDI_MAX
	default:
		bad = fmt.Errorf("%w: unknown reduction %d", rma.ErrArgument, int(op))
	}
	if bad == nil && tooBig(len(buf)) {
		bad = fmt.Errorf("%w: %v of %d elements, more than MPI counts hold", rma.ErrArgument, k, len(buf))
	}
	if _, err := c.agree(k, bad, int64(len(buf)), int64(op), true); err != nil {
		return err
	}
	if len(buf) == 0 {
		return nil
	}
	if rc := C.gdi_allreduce(c.c, (*C.char)(unsafe.Pointer(unsafe.SliceData(buf))), C.int(len(buf)), typ, mop); rc != C.MPI_SUCCESS {
		return fmt.Errorf("mpi: MPI_Allreduce: %w", mpiError(rc))
	}
	return nil
}

func (c *comm) Allgather(send, recv []byte) error {
	n := len(send)
	var bad error
	switch {
	case tooBig(n):
		bad = fmt.Errorf("%w: Allgather of %d bytes, more than MPI counts hold", rma.ErrArgument, n)
	case len(recv) != n*c.size:
		bad = fmt.Errorf("%w: Allgather receive buffer of %d bytes, want %d ranks × %d", rma.ErrArgument, len(recv), c.size, n)
	}
	if _, err := c.agree(kindAllgather, bad, int64(n), 0, true); err != nil {
		return err
	}
	if n == 0 {
		return nil
	}
	if rc := C.gdi_allgather(c.c, cbytes(send), C.int(n), cbytes(recv)); rc != C.MPI_SUCCESS {
		return fmt.Errorf("mpi: MPI_Allgather: %w", mpiError(rc))
	}
	return nil
}

func (c *comm) Allgatherv(send []byte) ([][]byte, error) {
	var bad error
	if tooBig(len(send)) {
		bad = fmt.Errorf("%w: Allgatherv of %d bytes, more than MPI counts hold", rma.ErrArgument, len(send))
	}
	// The agreement records carry every rank's length: no second round.
	recs, err := c.agree(kindAllgatherv, bad, int64(len(send)), 0, false)
	if err != nil {
		return nil, err
	}
	counts := make([]C.int, c.size)
	displs := make([]C.int, c.size)
	total := 0
	for r := range c.size {
		n := int(recs[r*nFields+fA])
		counts[r], displs[r] = C.int(n), C.int(total)
		total += n
		if tooBig(total) {
			return nil, fmt.Errorf("%w: Allgatherv of more than %d bytes in total, more than MPI displacements hold",
				rma.ErrArgument, math.MaxInt32)
		}
	}
	recv := make([]byte, total)
	if total > 0 {
		if rc := C.gdi_allgatherv(c.c, cbytes(send), C.int(len(send)), cbytes(recv), &counts[0], &displs[0]); rc != C.MPI_SUCCESS {
			return nil, fmt.Errorf("mpi: MPI_Allgatherv: %w", mpiError(rc))
		}
	}
	return split(recv, counts, displs), nil
}

// split cuts buf into the per-rank pieces given by counts and displs. Each
// piece has its own capacity, so appending to one never overwrites the next.
func split(buf []byte, counts, displs []C.int) [][]byte {
	out := make([][]byte, len(counts))
	for r := range counts {
		lo, hi := int(displs[r]), int(displs[r])+int(counts[r])
		out[r] = buf[lo:hi:hi]
	}
	return out
}

func (c *comm) Alltoall(send, recv []byte) error {
	var bad error
	switch {
	case len(send) != len(recv) || len(send)%c.size != 0:
		bad = fmt.Errorf("%w: Alltoall buffers of %d and %d bytes for %d ranks", rma.ErrArgument, len(send), len(recv), c.size)
	case tooBig(len(send) / c.size):
		bad = fmt.Errorf("%w: Alltoall blocks of %d bytes, more than MPI counts hold", rma.ErrArgument, len(send)/c.size)
	}
	if _, err := c.agree(kindAlltoall, bad, int64(len(send)), 0, true); err != nil {
		return err
	}
	blk := len(send) / c.size
	if blk == 0 {
		return nil
	}
	if rc := C.gdi_alltoall(c.c, cbytes(send), C.int(blk), cbytes(recv)); rc != C.MPI_SUCCESS {
		return fmt.Errorf("mpi: MPI_Alltoall: %w", mpiError(rc))
	}
	return nil
}

func (c *comm) Alltoallv(send [][]byte) ([][]byte, error) {
	var bad error
	total := 0
	if len(send) != c.size {
		bad = fmt.Errorf("%w: Alltoallv needs %d send buffers, got %d", rma.ErrArgument, c.size, len(send))
	} else {
		for _, b := range send {
			total += len(b)
		}
		if tooBig(total) {
			bad = fmt.Errorf("%w: Alltoallv of %d bytes, more than MPI displacements hold", rma.ErrArgument, total)
		}
	}
	recs, err := c.agree(kindAlltoallv, bad, int64(total), 0, false)
	if err != nil {
		return nil, err
	}
	// What any rank receives is part of what all ranks send: if that sum
	// fits, every receive buffer does, and all ranks decide this alike.
	all := 0
	for r := range c.size {
		all += int(recs[r*nFields+fA])
	}
	if tooBig(all) {
		return nil, fmt.Errorf("%w: Alltoallv of %d bytes in total over all ranks, more than MPI displacements hold",
			rma.ErrArgument, all)
	}
	if all == 0 {
		return make([][]byte, c.size), nil
	}
	slen := make([]int64, c.size)
	rlen := make([]int64, c.size)
	for r, b := range send {
		slen[r] = int64(len(b))
	}
	if rc := C.gdi_alltoall_i64(c.c, (*C.int64_t)(unsafe.Pointer(&slen[0])), (*C.int64_t)(unsafe.Pointer(&rlen[0]))); rc != C.MPI_SUCCESS {
		return nil, fmt.Errorf("mpi: Alltoallv lengths: MPI_Alltoall: %w", mpiError(rc))
	}
	scounts := make([]C.int, c.size)
	sdispls := make([]C.int, c.size)
	rcounts := make([]C.int, c.size)
	rdispls := make([]C.int, c.size)
	sbuf := make([]byte, 0, total)
	rtotal := 0
	for r := range c.size {
		scounts[r], sdispls[r] = C.int(len(send[r])), C.int(len(sbuf))
		sbuf = append(sbuf, send[r]...)
		rcounts[r], rdispls[r] = C.int(rlen[r]), C.int(rtotal)
		rtotal += int(rlen[r])
	}
	rbuf := make([]byte, rtotal)
	if rc := C.gdi_alltoallv(c.c, cbytes(sbuf), &scounts[0], &sdispls[0], cbytes(rbuf), &rcounts[0], &rdispls[0]); rc != C.MPI_SUCCESS {
		return nil, fmt.Errorf("mpi: MPI_Alltoallv: %w", mpiError(rc))
	}
	return split(rbuf, rcounts, rdispls), nil
}
