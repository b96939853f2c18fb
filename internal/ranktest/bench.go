package ranktest

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/launch"
)

// Bench times an operation on n ranks. setup runs on every rank, untimed,
// and returns the operation (called with 0 … b.N-1) and a cleanup. Every
// rank performs b.N operations between two barriers, so ns/op is the time
// per operation of one rank with all ranks busy.
//
// On goroutine ranks the ranks share b, so only rank 0 touches its timer;
// under MPI every process times its own rank.
func Bench(b *testing.B, n int, setup func(c rma.Comm, N int) (op func(i int) error, cleanup func() error, err error)) {
	b.ReportAllocs()
	shared := launch.Backend() == "local"
	err := launch.Run(n, func(c rma.Comm) error {
		op, cleanup, err := setup(c, b.N)
		if err != nil {
			return err
		}
		owner := !shared || c.Rank() == 0
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

// BenchRanks runs fn as sub-benchmarks ranks=1, ranks=2 and ranks=4.
func BenchRanks(b *testing.B, fn func(b *testing.B, n int)) {
	for _, n := range Ranks {
		b.Run(fmt.Sprintf("ranks=%d", n), func(b *testing.B) { fn(b, n) })
	}
}
