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
	// New returns the operation as rank performs it on window w against
	// rank t, with buffers of its own. Atomics use a word per rank, so they
	// are uncontended.
	New func(w rma.Window, rank, t int) func(i int) error
}

func getOp(n int) func(rma.Window, int, int) func(int) error {
	return func(w rma.Window, _, t int) func(int) error {
		buf := make([]byte, n)
		return func(int) error {
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
	{"WindowPut8", 8, func(w rma.Window, rank, t int) func(int) error {
		buf := make([]byte, 8)
		return func(int) error {
			if err := w.Put(buf, t, 1024+8*rank); err != nil {
				return err
			}
			return w.Flush(t)
		}
	}},
	{"WindowCAS", 0, func(w rma.Window, rank, t int) func(int) error {
		var cmp uint64 // the word's value, so every CAS succeeds
		return func(int) error {
			prev, err := w.CompareAndSwap(t, 2048+8*rank, cmp, cmp+1)
			cmp = prev + 1
			return err
		}
	}},
	{"WindowFAA", 0, func(w rma.Window, rank, t int) func(int) error {
		return func(int) error {
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
// operations on the next rank, (rank+1) mod n. See Bench for the timing and
// sharedB.
func BenchWindow(b *testing.B, launch rma.Launcher, n int, sharedB bool, op WindowOp) {
	b.SetBytes(op.Bytes)
	Bench(b, launch, n, sharedB, func(c rma.Comm, _ int) (func(int) error, func() error, error) {
		w, err := c.NewWindow(4096)
		if err != nil {
			return nil, nil, err
		}
		return op.New(w, c.Rank(), (c.Rank()+1)%c.Size()), w.Free, nil
	})
}

// Bench times an operation on n ranks started by launch. setup runs on
// every rank, untimed, with b.N, and returns the operation (called with
// 0 … b.N-1) and a cleanup. Every rank performs b.N operations between two
// barriers, so ns/op is the time per operation of one rank with all ranks
// busy, including waiting for the slowest.
//
// sharedB says whether the ranks share b (goroutine ranks of one process):
// then only rank 0 touches the timer. With one rank per process (MPI),
// every rank controls its own process's b. A rank count the launcher cannot
// start is skipped.
func Bench(b *testing.B, launch rma.Launcher, n int, sharedB bool, setup func(c rma.Comm, N int) (op func(i int) error, cleanup func() error, err error)) {
	b.ReportAllocs()
	err := launch(n, func(c rma.Comm) error {
		op, cleanup, err := setup(c, b.N)
		if err != nil {
			return err
		}
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
		for i := range b.N {
			if err := op(i); err != nil {
				return errors.Join(err, cleanup())
			}
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		if owner {
			b.StopTimer()
		}
		return cleanup()
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
