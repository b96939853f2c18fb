package count_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/count"
	"github.com/gdi-go/gdi/rma/local"
	"github.com/gdi-go/gdi/rma/rmatest"
)

// counted launches ranks of rma/local whose Comm counts.
func counted(n int, fn func(rma.Comm) error) error {
	return local.Run(n, func(c rma.Comm) error { return fn(count.Wrap(c)) })
}

// TestSuite: a counted Comm passes the rma conformance suite, optional
// capabilities included.
func TestSuite(t *testing.T) { rmatest.Run(t, counted, 1, 2, 3) }

// TestCounts: every kind of call is counted once, with its bytes, by the
// rank that makes it, over all its windows; snapshots and prefetches are
// not counted.
func TestCounts(t *testing.T) {
	err := local.Run(2, func(c rma.Comm) error {
		cc := count.Wrap(c)
		w, err := cc.NewWindow(64)
		if err != nil {
			return err
		}
		defer w.Free()
		v, err := cc.NewWindow(16)
		if err != nil {
			return err
		}
		defer v.Free()
		other := 1 - c.Rank()
		buf := make([]byte, 24)
		steps := []func() error{
			func() error { return w.Get(buf, other, 8) },
			func() error { return w.Put(buf[:16], other, 0) },
			func() error { return v.Get(buf[:4], c.Rank(), 0) },
			func() error { return w.Flush(other) },
			func() error { return v.FlushAll() },
			func() error { _, err := w.CompareAndSwap(other, 0, 0, 1); return err },
			func() error { _, err := w.FetchAndAdd(other, 8, 1); return err },
			func() error { _, err := v.AtomicGet(c.Rank(), 0); return err },
			func() error { return v.AtomicPut(c.Rank(), 8, 5) },
			func() error { return rma.SaveWindow(w, c.Rank(), new(bytes.Buffer)) },
			func() error {
				if pf, ok := w.(rma.Prefetcher); ok {
					pf.Prefetch(other, 0, 8)
					return nil
				}
				return fmt.Errorf("a counted window of rma/local is no Prefetcher")
			},
		}
		for _, step := range steps {
			if err := step(); err != nil {
				return err
			}
		}
		// MPI: 1 per get and put, 2 per atomic, and 1 per flush (each
		// completes a get).
		want := count.Counts{Gets: 2, Puts: 1, Atomics: 4, Flushes: 2, Bytes: 24 + 16 + 4 + 4*8, MPI: 13}
		if got := cc.Counts(); got != want || got.Calls() != 9 {
			return fmt.Errorf("rank %d counted %+v (%d calls), want %+v (9)", c.Rank(), got, got.Calls(), want)
		}
		if d := cc.Counts().Sub(count.Counts{Gets: 1, Bytes: 4}); d.Gets != 1 || d.Bytes != want.Bytes-4 {
			return fmt.Errorf("Sub gives %+v", d)
		}
		return c.Barrier()
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestBatchCounts: a batch of atomics counts its atomics and a flush per
// target, both as calls and as MPI calls; a flush counts as an MPI call
// only after a staged get or put to its target that no batch completed.
func TestBatchCounts(t *testing.T) {
	const ranks = 3
	err := local.Run(ranks, func(c rma.Comm) error {
		cc := count.Wrap(c)
		w, err := cc.NewWindow(count.MaxStaged + 1)
		if err != nil {
			return err
		}
		defer w.Free()
		var few, all []rma.Atomic
		for t := range ranks {
			all = append(all, rma.Atomic{Kind: rma.AtomicGet, Target: t, Offset: 8})
		}
		few = append(few, all[0], all[1], rma.Atomic{Kind: rma.FetchAndAdd, Target: 1, Offset: 0, Arg: 1})
		cases := []struct {
			name string
			do   func() error
			want count.Counts
		}{
			{"batch on 2 targets", func() error { return rma.Atomics(w, few) }, count.Counts{Atomics: 3, Flushes: 2, Bytes: 24, MPI: 5}},
			{"batch on every target", func() error { return rma.Atomics(w, all) }, count.Counts{Atomics: ranks, Flushes: ranks, Bytes: 8 * ranks, MPI: 2 * ranks}},
			{"flush with nothing put", func() error { return w.Flush(0) }, count.Counts{Flushes: 1}},
			{"put and flush all", func() error {
				if err := w.Put([]byte{1}, 0, 0); err != nil {
					return err
				}
				return w.FlushAll()
			}, count.Counts{Puts: 1, Flushes: 1, Bytes: 1, MPI: 2}},
			{"put, batch and flush", func() error {
				if err := w.Put([]byte{1}, 0, 0); err != nil {
					return err
				}
				if err := rma.Atomics(w, all[:1]); err != nil {
					return err
				}
				return w.Flush(0) // the batch completed the put
			}, count.Counts{Puts: 1, Atomics: 1, Flushes: 2, Bytes: 9, MPI: 3}},
			{"a large get, then a flush", func() error {
				if err := w.Get(make([]byte, count.MaxStaged+1), 0, 0); err != nil {
					return err
				}
				return w.Flush(0) // the get completed at once
			}, count.Counts{Gets: 1, Flushes: 1, Bytes: count.MaxStaged + 1, MPI: 2}},
		}
		for _, tc := range cases {
			before := cc.Counts()
			if err := tc.do(); err != nil {
				return err
			}
			if got := cc.Counts().Sub(before); got != tc.want {
				return fmt.Errorf("%s: counted %+v, want %+v", tc.name, got, tc.want)
			}
			if err := c.Barrier(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
