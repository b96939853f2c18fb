package rmatest

import (
	"fmt"

	"github.com/gdi-go/gdi/rma"
)

var errorCases = []Case{
	{"Errors/rank-out-of-range", badRank},
	{"Errors/range-outside-window", badRange},
	{"Errors/misaligned-atomic", misaligned},
	{"Errors/freed-window", freedWindow},
	{"Errors/collective-arguments", badCollectiveArgs},
	{"Errors/bad-input-leaves-memory-alone", badInputHarmless},
}

// ops calls every window operation on (target, offset, length) and returns
// the errors by operation name.
func ops(w rma.Window, target, offset, n int) map[string]error {
	buf := make([]byte, n)
	errs := map[string]error{
		"Get": w.Get(buf, target, offset),
		"Put": w.Put(buf, target, offset),
	}
	_, errs["CompareAndSwap"] = w.CompareAndSwap(target, offset, 0, 1)
	_, errs["FetchAndAdd"] = w.FetchAndAdd(target, offset, 1)
	_, errs["AtomicGet"] = w.AtomicGet(target, offset)
	errs["AtomicPut"] = w.AtomicPut(target, offset, 1)
	return errs
}

func allWant(what string, errs map[string]error, target error) error {
	for op, err := range errs {
		if e := wantErr(fmt.Sprintf("%s %s", op, what), err, target); e != nil {
			return e
		}
	}
	return nil
}

func badRank(c rma.Comm) error {
	return withWindow(c, 64, func(w rma.Window) error {
		for _, t := range []int{-1, c.Size(), c.Size() + 100} {
			if err := allWant(fmt.Sprintf("on rank %d", t), ops(w, t, 0, 8), rma.ErrRank); err != nil {
				return err
			}
			if err := wantErr(fmt.Sprintf("Flush(%d)", t), w.Flush(t), rma.ErrRank); err != nil {
				return err
			}
		}
		return c.Barrier()
	})
}

func badRange(c rma.Comm) error {
	return withWindow(c, 64, func(w rma.Window) error {
		for _, r := range [][2]int{{-8, 8}, {64, 8}, {60, 8}, {1 << 40, 8}} {
			if err := allWant(fmt.Sprintf("at [%d,+%d)", r[0], r[1]), ops(w, 0, r[0], r[1]), rma.ErrRange); err != nil {
				return err
			}
		}
		// Byte ranges that end exactly at the window's end are fine;
		// one byte more is not.
		if err := w.Get(make([]byte, 64), 0, 0); err != nil {
			return fmt.Errorf("Get of the whole window: %w", err)
		}
		if err := wantErr("Get past the end", w.Get(make([]byte, 65), 0, 0), rma.ErrRange); err != nil {
			return err
		}
		if err := wantErr("Put past the end", w.Put(make([]byte, 2), 0, 63), rma.ErrRange); err != nil {
			return err
		}
		if err := w.FlushAll(); err != nil {
			return err
		}
		return c.Barrier()
	})
}

func misaligned(c rma.Comm) error {
	return withWindow(c, 64, func(w rma.Window) error {
		for _, off := range []int{1, 4, 7, 12} {
			errs := ops(w, 0, off, 8)
			delete(errs, "Get") // byte ranges may be unaligned
			delete(errs, "Put")
			if err := allWant(fmt.Sprintf("at offset %d", off), errs, rma.ErrAlignment); err != nil {
				return err
			}
		}
		if err := w.FlushAll(); err != nil {
			return err
		}
		return c.Barrier()
	})
}

func freedWindow(c rma.Comm) error {
	w, err := c.NewWindow(64)
	if err != nil {
		return err
	}
	if err := w.Free(); err != nil {
		return err
	}
	if err := allWant("after Free", ops(w, 0, 0, 8), rma.ErrFreed); err != nil {
		return err
	}
	if err := wantErr("Flush after Free", w.Flush(0), rma.ErrFreed); err != nil {
		return err
	}
	if err := wantErr("FlushAll after Free", w.FlushAll(), rma.ErrFreed); err != nil {
		return err
	}
	return wantErr("second Free", w.Free(), rma.ErrFreed)
}

// badCollectiveArgs: a bad argument on one rank fails the collective on all
// ranks, which stay usable afterwards.
func badCollectiveArgs(c rma.Comm) error {
	last := c.Size() - 1
	recvLen := c.Size() * 4
	if c.Rank() == last {
		recvLen-- // wrong on one rank only
	}
	err := c.Allgather(make([]byte, 4), make([]byte, recvLen))
	if e := wantErr("Allgather with a short receive buffer on one rank", err, rma.ErrArgument); e != nil {
		return e
	}
	if err := wantErr("Bcast from a root out of range", c.Bcast(make([]byte, 1), c.Size()), rma.ErrRank); err != nil {
		return err
	}
	if c.Size() > 1 { // with one rank every length divides
		odd := make([]byte, c.Size()+1)
		if err := wantErr("Alltoall with a length not divisible by the ranks", c.Alltoall(odd, odd), rma.ErrArgument); err != nil {
			return err
		}
	}
	_, err = c.Alltoallv(make([][]byte, c.Size()+1))
	if err := wantErr("Alltoallv with too many buffers", err, rma.ErrArgument); err != nil {
		return err
	}
	if err := wantErr("Allreduce with an unknown op", c.AllreduceInt64([]int64{1}, rma.Op(99)), rma.ErrArgument); err != nil {
		return err
	}
	_, err = c.NewWindow(-1)
	if err := wantErr("NewWindow(-1)", err, rma.ErrArgument); err != nil {
		return err
	}
	// The communicator still works.
	return allgatherBlocks(3)(c)
}

// badInputHarmless: rejected operations leave the window untouched.
func badInputHarmless(c rma.Comm) error {
	return withWindow(c, 16, func(w rma.Window) error {
		if c.Rank() == 0 {
			ops(w, 0, 12, 8) // crosses the end
			ops(w, 0, 3, 8)  // misaligned atomics; the Put of zeros is valid
			ops(w, 0, -1, 2) // negative offset
			ops(w, 99, 0, 8) // no such rank
			if err := w.FlushAll(); err != nil {
				return err
			}
			got, err := getFlush(w, 0, 0, 16)
			if err != nil {
				return err
			}
			for i, b := range got {
				if b != 0 {
					return fmt.Errorf("byte %d is %d after rejected operations", i, b)
				}
			}
		}
		return c.Barrier()
	})
}
