package rmatest

import (
	"errors"
	"fmt"

	"github.com/gdi-go/gdi/rma"
)

var batchCases = []Case{
	{"Batch/semantics", batchSemantics},
	{"Batch/faa-counter-exact", hammer(batchIncrement)},
	{"Batch/completes-puts", batchCompletesPuts},
	{"Batch/bad-input", batchBadInput},
}

// batchSemantics: rank 0 runs one batch of every kind on words of every
// rank, prepared with single atomics, and each op reports the word it
// found and leaves the word its kind says.
func batchSemantics(c rma.Comm) error {
	return withWindow(c, 64, func(w rma.Window) error {
		if c.Rank() == 0 {
			var ops []rma.Atomic
			for t := range c.Size() {
				for i, v := range []uint64{10, 20, 30, 40, 50} {
					if err := w.AtomicPut(t, 8*i, v+uint64(t)); err != nil {
						return err
					}
				}
				x := uint64(t)
				ops = append(ops,
					rma.Atomic{Kind: rma.CompareAndSwap, Target: t, Offset: 0, Old: 10 + x, Arg: 11}, // swaps
					rma.Atomic{Kind: rma.CompareAndSwap, Target: t, Offset: 8, Old: 99, Arg: 21},     // does not
					rma.Atomic{Kind: rma.FetchAndAdd, Target: t, Offset: 16, Arg: ^uint64(0)},        // -1
					rma.Atomic{Kind: rma.AtomicGet, Target: t, Offset: 24},                           //
					rma.Atomic{Kind: rma.AtomicPut, Target: t, Offset: 32, Arg: 7, Prev: 12345})      // Prev unset
			}
			if err := rma.Atomics(w, ops); err != nil {
				return err
			}
			for t := range c.Size() {
				x := uint64(t)
				op := ops[5*t : 5*t+5]
				wantPrev := []uint64{10 + x, 20 + x, 30 + x, 40 + x, 12345}
				wantWord := []uint64{11, 20 + x, 29 + x, 40 + x, 7}
				for i := range op {
					if op[i].Kind != rma.AtomicPut && op[i].Prev != wantPrev[i] {
						return fmt.Errorf("batched %v on rank %d found %d, want %d", op[i].Kind, t, op[i].Prev, wantPrev[i])
					}
					if v, err := w.AtomicGet(t, 8*i); err != nil || v != wantWord[i] {
						return fmt.Errorf("batched %v on rank %d left %d (%v), want %d", op[i].Kind, t, v, err, wantWord[i])
					}
				}
				if v, _ := w.AtomicGet(t, 40); v != 0 {
					return fmt.Errorf("a batch touched the word after its words on rank %d: %d", t, v)
				}
			}
		}
		return c.Barrier()
	})
}

// batchIncrement increments the counter at offset of target in a batch
// with an atomic get of the word before it, which stays zero.
func batchIncrement(w rma.Window, target, offset int) error {
	ops := []rma.Atomic{
		{Kind: rma.FetchAndAdd, Target: target, Offset: offset, Arg: 1},
		{Kind: rma.AtomicGet, Target: target, Offset: offset - 8},
	}
	if err := rma.Atomics(w, ops); err != nil {
		return err
	}
	if ops[1].Prev != 0 {
		return fmt.Errorf("word before the counter read %d in a batch", ops[1].Prev)
	}
	return nil
}

// batchBadInput: a batch with a bad op fails with the op's error and
// does not panic.
func batchBadInput(c rma.Comm) error {
	return withWindow(c, 16, func(w rma.Window) error {
		bad := []struct {
			op   rma.Atomic
			want error
		}{
			{rma.Atomic{Kind: rma.AtomicGet, Target: c.Size(), Offset: 0}, rma.ErrRank},
			{rma.Atomic{Kind: rma.AtomicGet, Target: 0, Offset: 16}, rma.ErrRange},
			{rma.Atomic{Kind: rma.FetchAndAdd, Target: 0, Offset: 4}, rma.ErrAlignment},
			{rma.Atomic{Kind: 0, Target: 0, Offset: 0}, rma.ErrArgument},
			{rma.Atomic{Kind: 99, Target: 0, Offset: 0}, rma.ErrArgument},
		}
		for _, b := range bad {
			ops := []rma.Atomic{b.op}
			if err := rma.Atomics(w, ops); !errors.Is(err, b.want) {
				return fmt.Errorf("batch of %+v: got %v, want %v", b.op, err, b.want)
			}
		}
		return c.Barrier()
	})
}

// batchCompletesPuts: every rank puts to the next, then runs a batch on
// it instead of a flush; after a barrier the put is there.
func batchCompletesPuts(c rma.Comm) error {
	return withWindow(c, 16, func(w rma.Window) error {
		next := (c.Rank() + 1) % c.Size()
		if err := w.Put([]byte{byte(c.Rank() + 1)}, next, 0); err != nil {
			return err
		}
		if err := rma.Atomics(w, []rma.Atomic{{Kind: rma.FetchAndAdd, Target: next, Offset: 8, Arg: 1}}); err != nil {
			return err
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		prev := (c.Rank() + c.Size() - 1) % c.Size()
		b := make([]byte, 1)
		if err := w.Get(b, c.Rank(), 0); err != nil {
			return err
		}
		if err := w.Flush(c.Rank()); err != nil {
			return err
		}
		if b[0] != byte(prev+1) {
			return fmt.Errorf("rank %d holds %d after rank %d's put and batch, want %d", c.Rank(), b[0], prev, prev+1)
		}
		return c.Barrier()
	})
}
