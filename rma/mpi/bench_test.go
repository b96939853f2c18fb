//go:build mpi

package mpi_test

import (
	"errors"
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/mpi"
)

// The benchmarks carry the names of the rma foundation benchmarks. Every rank
// runs b.N operations against the next rank, (rank+1) % ranks, the loop of
// testdata/latency.c, whose figures they are compared with (make bench-mpi).
//
// Each process of the job runs the benchmark function itself, so all must
// agree on b.N: under mpirun with several processes, run them with a fixed
// count, -test.benchtime=Nx. A rank count above the number of processes is
// skipped.

func BenchmarkWindowGet8(b *testing.B) {
	buf := make([]byte, 8)
	benchOp(b, func(w rma.Window, target int) error {
		if err := w.Get(buf, target, 0); err != nil {
			return err
		}
		return w.Flush(target)
	})
}

func BenchmarkWindowGetBlock(b *testing.B) {
	buf := make([]byte, 512)
	b.SetBytes(512)
	benchOp(b, func(w rma.Window, target int) error {
		if err := w.Get(buf, target, 0); err != nil {
			return err
		}
		return w.Flush(target)
	})
}

func BenchmarkWindowPut8(b *testing.B) {
	buf := make([]byte, 8)
	benchOp(b, func(w rma.Window, target int) error {
		if err := w.Put(buf, target, 1024); err != nil {
			return err
		}
		return w.Flush(target)
	})
}

func BenchmarkWindowCAS(b *testing.B) {
	var cmp uint64
	benchOp(b, func(w rma.Window, target int) error {
		prev, err := w.CompareAndSwap(target, 2048, cmp, cmp+1)
		cmp = prev
		return err
	})
}

func BenchmarkWindowFAA(b *testing.B) {
	benchOp(b, func(w rma.Window, target int) error {
		_, err := w.FetchAndAdd(target, 3072, 1)
		return err
	})
}

func benchOp(b *testing.B, op func(w rma.Window, target int) error) {
	for _, n := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("ranks=%d", n), func(b *testing.B) {
			size, err := mpi.WorldSize()
			if err != nil {
				b.Fatal(err)
			}
			if size > 1 {
				if f := flag.Lookup("test.benchtime"); f == nil || !strings.HasSuffix(f.Value.String(), "x") {
					b.Skip("under mpirun with several processes, run with -test.benchtime=Nx so that all processes agree on b.N")
				}
			}
			err = mpi.Run(n, func(c rma.Comm) error {
				w, err := c.NewWindow(4096)
				if err != nil {
					return err
				}
				target := (c.Rank() + 1) % c.Size()
				if err := c.Barrier(); err != nil {
					return err
				}
				b.ResetTimer()
				for range b.N {
					if err := op(w, target); err != nil {
						return err
					}
				}
				// The slowest rank decides: the time includes waiting for it.
				if err := c.Barrier(); err != nil {
					return err
				}
				b.StopTimer()
				return w.Free()
			})
			if errors.Is(err, rma.ErrRanks) {
				b.Skipf("%d ranks need mpirun -n %d or more", n, n)
			}
			if err != nil {
				b.Fatal(err)
			}
		})
	}
}

// BenchmarkCgoCall times one call from Go into a C function that does
// nothing: the fixed cost every rma operation of this package pays on top of
// the MPI call it makes.
func BenchmarkCgoCall(b *testing.B) {
	s := 0
	for i := range b.N {
		s += mpi.CgoNop(i)
	}
	if s == -1 {
		b.Log(s)
	}
}
