//go:build mpi

package mpi_test

import (
	"flag"
	"strings"
	"testing"

	"github.com/gdi-go/gdi/rma/mpi"
	"github.com/gdi-go/gdi/rma/rmatest"
)

// The benchmarks carry the names of the rma foundation benchmarks. Every rank
// runs b.N operations against the next rank, (rank+1) % ranks, the loop of
// testdata/latency.c, whose figures they are compared with (make bench-mpi).
//
// Each process of the job runs the benchmark function itself, so all must
// agree on b.N: under mpirun with several processes, run them with a fixed
// count, -test.benchtime=Nx. A rank count above the number of processes is
// skipped.

func BenchmarkWindowGet8(b *testing.B)     { benchWindow(b, "WindowGet8") }
func BenchmarkWindowGetBlock(b *testing.B) { benchWindow(b, "WindowGetBlock") }
func BenchmarkWindowPut8(b *testing.B)     { benchWindow(b, "WindowPut8") }
func BenchmarkWindowCAS(b *testing.B)      { benchWindow(b, "WindowCAS") }
func BenchmarkWindowFAA(b *testing.B)      { benchWindow(b, "WindowFAA") }

// benchWindow runs a foundation benchmark of rmatest with one rank per
// process, so every process times its own rank.
func benchWindow(b *testing.B, name string) {
	op, ok := rmatest.WindowOpByName(name)
	if !ok {
		b.Fatalf("no window benchmark %q", name)
	}
	rmatest.RanksSubBenchmarks(b, func(b *testing.B, n int) {
		size, err := mpi.WorldSize()
		if err != nil {
			b.Fatal(err)
		}
		if size > 1 {
			if f := flag.Lookup("test.benchtime"); f == nil || !strings.HasSuffix(f.Value.String(), "x") {
				b.Skip("under mpirun with several processes, run with -test.benchtime=Nx so that all processes agree on b.N")
			}
		}
		rmatest.BenchWindow(b, mpi.Run, n, false, op)
	})
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
