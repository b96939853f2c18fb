package ranktest

import (
	"testing"

	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/launch"
	"github.com/gdi-go/gdi/rma/rmatest"
)

// Bench is rmatest.Bench on the ranks rma/launch starts: goroutine ranks
// sharing b, or one MPI process per rank.
func Bench(b *testing.B, n int, setup func(c rma.Comm, N int) (op func(i int) error, cleanup func() error, err error)) {
	rmatest.Bench(b, launch.Run, n, launch.Backend() == "local", setup)
}
