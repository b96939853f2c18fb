package rmatest

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gdi-go/gdi/rma"
)

// WindowOp is one window operation timed by the foundation benchmarks,
// which every backend runs under the same names (BenchmarkWindowGet8 and so
// on) so figures compare across backends and over time.
type WindowOp struct {
	Name  string // the benchmark is Benchmark<Name>
	Bytes int64  // bytes moved per operation, for b.SetBytes; 0 for atomics
	// New returns the operation as rank performs it, with buffers of its
	// own. Atomics use a word per rank, so they are uncontended.
	New func(rank int) func(w rma.Window, target int) error
}

func getOp(n int) func(int) func(rma.Window, int) error {
	return func(int) func(rma.Window, int) error {
		buf := make([]byte, n)
		return func(w rma.Window, t int) error {
			if err := w.Get(buf, t, 0); err != nil {
				return err
			}
			return w.Flush(t)
		}
	}
}

// WindowOps are the foundation's window benchmarks.
var WindowOps = []WindowOp{
	{"WindowGet8", 8, getOp(8)},
	{"WindowGetBlock", 512, getOp(512)},
	{"WindowPut8", 8, func(rank int) func(rma.Window, int) error {
		buf := make([]byte, 8)
		return func(w rma.Window, t int) error {
			if err := w.Put(buf, t, 1024+8*rank); err != nil {
				return err
			}
			return w.Flush(t)
		}
	}},
	{"WindowCAS", 0, func(rank int) func(rma.Window, int) error {
		var cmp uint64 // the word's value, so every CAS succeeds
		return func(w rma.Window, t int) error {
			prev, err := w.CompareAndSwap(t, 2048+8*rank, cmp, cmp+1)
			cmp = prev + 1
			return err
		}
	}},
	{"WindowFAA", 0, func(rank int) func(rma.Window, int) error {
		return func(w rma.Window, t int) error {
			_, err := w.FetchAndAdd(t, 3072+8*rank, 1)
			return err
		}
	}},
}

// WindowOpByName returns the operation called name.
func WindowOpByName(name string) (WindowOp, bool) {
	for _, op := range WindowOps {
		if op.Name == name {
			return op, true
		}
	}
	return WindowOp{}, false
}

// BenchWindow runs op on n ranks started by launch: every rank performs b.N
// operations on the next rank, (rank+1) mod n, between two barriers, so the
// time per operation includes waiting for the slowest rank.
//
// sharedB says whether the ranks share b (goroutine ranks of one process):
// then only rank 0 touches the timer. With one rank per process (MPI), every
// rank controls its own process's b.
func BenchWindow(b *testing.B, launch rma.Launcher, n int, sharedB bool, op WindowOp) {
	b.SetBytes(op.Bytes)
	b.ReportAllocs()
	err := launch(n, func(c rma.Comm) error {
		w, err := c.NewWindow(4096)
		if err != nil {
			return err
		}
		do := op.New(c.Rank())
		target := (c.Rank() + 1) % c.Size()
		owner := !sharedB || c.Rank() == 0
		if err := c.Barrier(); err != nil {
			return err
		}
		if owner {
			b.ResetTimer()
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		for range b.N {
			if err := do(w, target); err != nil {
				return err
			}
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		if owner {
			b.StopTimer()
		}
		return w.Free()
	})
	if errors.Is(err, rma.ErrRanks) {
		b.Skipf("%d ranks: %v", n, err)
	}
	if err != nil {
		b.Fatal(err)
	}
}

// RanksSubBenchmarks runs fn as sub-benchmarks ranks=1, ranks=2, ranks=4.
func RanksSubBenchmarks(b *testing.B, fn func(b *testing.B, n int)) {
	for _, n := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("ranks=%d", n), func(b *testing.B) { fn(b, n) })
	}
}
