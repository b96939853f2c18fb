package rmatest

import (
	"bytes"
	"fmt"
	"math"

	"github.com/gdi-go/gdi/rma"
)

var collectiveCases = []Case{
	{"Barrier/orders-atomics", barrierOrders},
	{"Bcast/every-root", bcastEveryRoot},
	{"Bcast/empty", bcastEmpty},
	{"Allreduce/int64", allreduceCase(func(r, i int) int64 { return int64((r+1)*(i+3)) * int64(1-2*(r%2)) })},
	{"Allreduce/uint64", allreduceCase(func(r, i int) uint64 { return uint64(r*7+i) + 1<<40 })},
	{"Allreduce/float64", allreduceCase(func(r, i int) float64 { return float64(r)*0.5 - float64(i)*1.25 })},
	{"Allreduce/generic-helper", allreduceGeneric},
	{"Allgather/blocks", allgatherBlocks(5)},
	{"Allgather/empty", allgatherBlocks(0)},
	{"Allgatherv/uneven-and-empty", allgathervUneven},
	{"Alltoall/blocks", alltoallBlocks(3)},
	{"Alltoall/empty", alltoallBlocks(0)},
	{"Alltoallv/uneven-and-empty", alltoallvUneven},
}

// barrierOrders: every rank adds to a counter, and after the barrier every
// rank sees all additions.
func barrierOrders(c rma.Comm) error {
	return withWindow(c, 8, func(w rma.Window) error {
		for round := 1; round <= 3; round++ {
			if _, err := w.FetchAndAdd(0, 0, 1); err != nil {
				return err
			}
			if err := c.Barrier(); err != nil {
				return err
			}
			got, err := w.AtomicGet(0, 0)
			if err != nil {
				return err
			}
			if want := uint64(round * c.Size()); got != want {
				return fmt.Errorf("round %d: counter %d after barrier, want %d", round, got, want)
			}
			// A second barrier keeps a fast rank from adding for the next
			// round before a slow one has read.
			if err := c.Barrier(); err != nil {
				return err
			}
		}
		return nil
	})
}

func pattern(seed, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(seed*31 + i*7 + 1)
	}
	return b
}

func bcastEveryRoot(c rma.Comm) error {
	for root := range c.Size() {
		buf := make([]byte, 37)
		if c.Rank() == root {
			copy(buf, pattern(root, len(buf)))
		}
		if err := c.Bcast(buf, root); err != nil {
			return fmt.Errorf("Bcast root %d: %w", root, err)
		}
		if want := pattern(root, len(buf)); !bytes.Equal(buf, want) {
			return fmt.Errorf("Bcast root %d: got %v, want %v", root, buf, want)
		}
	}
	return nil
}

func bcastEmpty(c rma.Comm) error {
	return c.Bcast(nil, c.Size()-1)
}

func allreduceCase[T rma.Number](val func(rank, i int) T) func(rma.Comm) error {
	return func(c rma.Comm) error {
		const n = 6
		for _, op := range []rma.Op{rma.OpSum, rma.OpMin, rma.OpMax} {
			buf := make([]T, n)
			for i := range buf {
				buf[i] = val(c.Rank(), i)
			}
			if err := rma.Allreduce(c, buf, op); err != nil {
				return fmt.Errorf("Allreduce %v: %w", op, err)
			}
			for i := range n {
				want := val(0, i)
				for r := 1; r < c.Size(); r++ {
					v := val(r, i)
					switch op {
					case rma.OpSum:
						want += v
					case rma.OpMin:
						want = min(want, v)
					case rma.OpMax:
						want = max(want, v)
					}
				}
				if buf[i] != want {
					return fmt.Errorf("Allreduce %v element %d: got %v, want %v", op, i, buf[i], want)
				}
			}
		}
		return nil
	}
}

// allreduceGeneric checks each typed method directly, with extreme values.
func allreduceGeneric(c rma.Comm) error {
	ints := []int64{math.MinInt64 + int64(c.Size()), int64(c.Rank())}
	if err := c.AllreduceInt64(ints, rma.OpMin); err != nil {
		return err
	}
	if ints[0] != math.MinInt64+int64(c.Size()) || ints[1] != 0 {
		return fmt.Errorf("AllreduceInt64 min: got %v", ints)
	}
	uints := []uint64{math.MaxUint64 - uint64(c.Rank())}
	if err := c.AllreduceUint64(uints, rma.OpMax); err != nil {
		return err
	}
	if uints[0] != math.MaxUint64 {
		return fmt.Errorf("AllreduceUint64 max: got %v", uints)
	}
	floats := []float64{1.5}
	if err := c.AllreduceFloat64(floats, rma.OpSum); err != nil {
		return err
	}
	if floats[0] != 1.5*float64(c.Size()) {
		return fmt.Errorf("AllreduceFloat64 sum: got %v", floats)
	}
	return nil
}

func allgatherBlocks(n int) func(rma.Comm) error {
	return func(c rma.Comm) error {
		recv := make([]byte, n*c.Size())
		if err := c.Allgather(pattern(c.Rank(), n), recv); err != nil {
			return err
		}
		for r := range c.Size() {
			if got, want := recv[r*n:(r+1)*n], pattern(r, n); !bytes.Equal(got, want) {
				return fmt.Errorf("block of rank %d: got %v, want %v", r, got, want)
			}
		}
		return nil
	}
}

func allgathervUneven(c rma.Comm) error {
	// Rank r sends r bytes, so rank 0 sends nothing.
	got, err := c.Allgatherv(pattern(c.Rank(), c.Rank()))
	if err != nil {
		return err
	}
	if len(got) != c.Size() {
		return fmt.Errorf("got %d buffers, want %d", len(got), c.Size())
	}
	for r, b := range got {
		if want := pattern(r, r); !bytes.Equal(b, want) {
			return fmt.Errorf("from rank %d: got %v, want %v", r, b, want)
		}
	}
	return nil
}

func alltoallBlocks(blk int) func(rma.Comm) error {
	return func(c rma.Comm) error {
		size := c.Size()
		send := make([]byte, 0, blk*size)
		for t := range size {
			send = append(send, pattern(c.Rank()*size+t, blk)...)
		}
		recv := make([]byte, blk*size)
		if err := c.Alltoall(send, recv); err != nil {
			return err
		}
		for s := range size {
			if got, want := recv[s*blk:(s+1)*blk], pattern(s*size+c.Rank(), blk); !bytes.Equal(got, want) {
				return fmt.Errorf("block from rank %d: got %v, want %v", s, got, want)
			}
		}
		return nil
	}
}

func alltoallvUneven(c rma.Comm) error {
	size := c.Size()
	length := func(from, to int) int { return (from*size + to) % 4 } // includes empty sends
	send := make([][]byte, size)
	for t := range send {
		send[t] = pattern(c.Rank()*size+t, length(c.Rank(), t))
	}
	got, err := c.Alltoallv(send)
	if err != nil {
		return err
	}
	if len(got) != size {
		return fmt.Errorf("got %d buffers, want %d", len(got), size)
	}
	for s, b := range got {
		if want := pattern(s*size+c.Rank(), length(s, c.Rank())); !bytes.Equal(b, want) {
			return fmt.Errorf("from rank %d: got %v, want %v", s, b, want)
		}
	}
	return nil
}
