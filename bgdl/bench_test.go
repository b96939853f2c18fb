package bgdl_test

import (
	"testing"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/internal/ranktest"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/rmatest"
)

// BenchmarkBlockAcquireRelease takes a block from the next rank and gives it
// back: two lock-free pushes and pops on a remote free list.
func BenchmarkBlockAcquireRelease(b *testing.B) {
	rmatest.RanksSubBenchmarks(b, func(b *testing.B, n int) {
		ranktest.Bench(b, n, func(c rma.Comm, _ int) (func(int) error, func() error, error) {
			p, err := bgdl.NewPool(c, bgdl.Config{BlockSize: 512, Blocks: 1024})
			if err != nil {
				return nil, nil, err
			}
			target := (c.Rank() + 1) % c.Size()
			op := func(int) error {
				ptr, err := p.Acquire(target)
				if err != nil {
					return err
				}
				return p.Release(ptr)
			}
			return op, p.Free, nil
		})
	})
}
