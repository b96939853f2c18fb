package local

import (
	"fmt"

	"github.com/gdi-go/gdi/rma"
)

// Each collective deposits its arguments, and every rank checks all ranks'
// arguments in use, so a mismatch fails the collective on every rank.

func (c *comm) Barrier() error {
	return c.collective("Barrier", nil, nil, func([]any) error { return nil })
}

type bcastArg struct {
	buf  []byte
	root int
}

func (c *comm) Bcast(buf []byte, root int) error {
	var bad error
	if root < 0 || root >= c.w.n {
		bad = fmt.Errorf("%w: Bcast root %d of %d", rma.ErrRank, root, c.w.n)
	}
	return c.collective("Bcast", bcastArg{buf, root}, bad, func(vals []any) error {
		for r, v := range vals {
			a := v.(bcastArg)
			if a.root != root || len(a.buf) != len(buf) {
				return fmt.Errorf("%w: Bcast(%d bytes, root %d) here, (%d bytes, root %d) on rank %d",
					rma.ErrArgument, len(buf), root, len(a.buf), a.root, r)
			}
		}
		if c.rank != root {
			copy(buf, vals[root].(bcastArg).buf)
		}
		return nil
	})
}

func (c *comm) AllreduceInt64(buf []int64, op rma.Op) error {
	return allreduce(c, "AllreduceInt64", buf, op)
}

func (c *comm) AllreduceUint64(buf []uint64, op rma.Op) error {
	return allreduce(c, "AllreduceUint64", buf, op)
}

func (c *comm) AllreduceFloat64(buf []float64, op rma.Op) error {
	return allreduce(c, "AllreduceFloat64", buf, op)
}

type reduceArg[T rma.Number] struct {
	buf []T
	op  rma.Op
}

func allreduce[T rma.Number](c *comm, kind string, buf []T, op rma.Op) error {
	var bad error
	if op != rma.OpSum && op != rma.OpMin && op != rma.OpMax {
		bad = fmt.Errorf("%w: unknown reduction %d", rma.ErrArgument, int(op))
	}
	out := make([]T, len(buf))
	err := c.collective(kind, reduceArg[T]{buf, op}, bad, func(vals []any) error {
		for r, v := range vals {
			a := v.(reduceArg[T])
			if a.op != op || len(a.buf) != len(buf) {
				return fmt.Errorf("%w: %s(%d elements, %v) here, (%d, %v) on rank %d",
					rma.ErrArgument, kind, len(buf), op, len(a.buf), a.op, r)
			}
		}
		// Every rank folds in rank order, so all get bit-identical floats.
		copy(out, vals[0].(reduceArg[T]).buf)
		for _, v := range vals[1:] {
			if err := rma.Reduce(out, v.(reduceArg[T]).buf, op); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	copy(buf, out)
	return nil
}

func (c *comm) Allgather(send, recv []byte) error {
	n := len(send)
	var bad error
	if len(recv) != n*c.w.n {
		bad = fmt.Errorf("%w: Allgather receive buffer of %d bytes, want %d ranks × %d", rma.ErrArgument, len(recv), c.w.n, n)
	}
	return c.collective("Allgather", send, bad, func(vals []any) error {
		for r, v := range vals {
			if b := v.([]byte); len(b) != n {
				return fmt.Errorf("%w: Allgather of %d bytes here, %d on rank %d", rma.ErrArgument, n, len(b), r)
			}
		}
		for r, v := range vals {
			copy(recv[r*n:], v.([]byte))
		}
		return nil
	})
}

func (c *comm) Allgatherv(send []byte) ([][]byte, error) {
	out := make([][]byte, c.w.n)
	err := c.collective("Allgatherv", send, nil, func(vals []any) error {
		for r, v := range vals {
			out[r] = append([]byte(nil), v.([]byte)...)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (c *comm) Alltoall(send, recv []byte) error {
	size := c.w.n
	var bad error
	if len(send) != len(recv) || len(send)%size != 0 {
		bad = fmt.Errorf("%w: Alltoall buffers of %d and %d bytes for %d ranks", rma.ErrArgument, len(send), len(recv), size)
	}
	blk := len(send) / size
	return c.collective("Alltoall", send, bad, func(vals []any) error {
		for r, v := range vals {
			if b := v.([]byte); len(b) != len(send) {
				return fmt.Errorf("%w: Alltoall of %d bytes here, %d on rank %d", rma.ErrArgument, len(send), len(b), r)
			}
		}
		for r, v := range vals {
			copy(recv[r*blk:(r+1)*blk], v.([]byte)[c.rank*blk:])
		}
		return nil
	})
}

func (c *comm) Alltoallv(send [][]byte) ([][]byte, error) {
	var bad error
	if len(send) != c.w.n {
		bad = fmt.Errorf("%w: Alltoallv needs %d send buffers, got %d", rma.ErrArgument, c.w.n, len(send))
	}
	out := make([][]byte, c.w.n)
	err := c.collective("Alltoallv", send, bad, func(vals []any) error {
		for r, v := range vals {
			out[r] = append([]byte(nil), v.([][]byte)[c.rank]...)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
