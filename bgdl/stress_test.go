package bgdl_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/internal/ranktest"
	"github.com/gdi-go/gdi/rma"
)

// TestStressAcquireRelease has every goroutine of every rank acquire blocks
// on random ranks and release them at random, with fewer blocks than the
// goroutines would like to hold, so blocks are reused all the time. Each
// owner stamps its tag at both ends of a block and checks the stamps before
// releasing it: a block handed to two owners at once shows up as a foreign
// stamp. At the end every free list must be whole again.
func TestStressAcquireRelease(t *testing.T) {
	stressPool(t, bgdl.Config{BlockSize: 64, Blocks: 16}, 3)
}

// TestStressReserve is TestStressAcquireRelease with reserves: each rank
// takes its own blocks two at a time, while the others take them one by
// one.
func TestStressReserve(t *testing.T) {
	stressPool(t, bgdl.Config{BlockSize: 64, Blocks: 128, Reserve: 2}, 10)
}

func stressPool(t *testing.T, cfg bgdl.Config, maxHeld int) {
	const goroutines = 8
	ops := ranktest.Iterations(1500, 30000)
	ranktest.ForRanks(t, func(c rma.Comm) error {
		return withPool(c, cfg, func(p *bgdl.Pool) error {
			var wg sync.WaitGroup
			errs := make([]error, goroutines)
			acquired := make([]int64, goroutines)
			for g := range goroutines {
				wg.Go(func() {
					errs[g] = churn(p, c, g, ops, maxHeld, &acquired[g])
				})
			}
			wg.Wait()
			if err := errors.Join(errs...); err != nil {
				return err
			}
			total := []int64{0}
			for _, a := range acquired {
				total[0] += a
			}
			if err := c.AllreduceInt64(total, rma.OpSum); err != nil {
				return err
			}
			if total[0] < int64(c.Size()*goroutines*ops/4) {
				return fmt.Errorf("only %d acquisitions succeeded: the test did not exercise the pool", total[0])
			}
			if err := c.Barrier(); err != nil {
				return err
			}
			if n, err := p.FreeBlocks(c.Rank()); n != cfg.Blocks || err != nil {
				return fmt.Errorf("rank %d has %d free blocks after the run, want %d (%v)", c.Rank(), n, cfg.Blocks, err)
			}
			if err := p.ReturnReserve(); err != nil {
				return err
			}
			if err := c.Barrier(); err != nil {
				return err
			}
			for r := range c.Size() {
				if n, err := p.FreeBlocks(r); n != cfg.Blocks || err != nil {
					return fmt.Errorf("rank %d's list holds %d blocks after the reserves went back, want %d (%v)", r, n, cfg.Blocks, err)
				}
			}
			return c.Barrier()
		})
	})
}

type held struct {
	ptr bgdl.DPtr
	tag uint64
}

func churn(p *bgdl.Pool, c rma.Comm, g, ops, maxHeld int, acquired *int64) error {
	rng := rand.New(rand.NewPCG(uint64(c.Rank()), uint64(g)))
	var mine []held
	stamp := make([]byte, 8)
	check := make([]byte, 16)
	release := func(i int) error {
		h := mine[i]
		mine = append(mine[:i], mine[i+1:]...)
		w, r, off := p.Data(), h.ptr.Rank(), h.ptr.Offset()
		if err := w.Get(check[:8], r, off); err != nil {
			return err
		}
		if err := w.Get(check[8:], r, off+p.BlockSize()-8); err != nil {
			return err
		}
		if err := w.Flush(r); err != nil {
			return err
		}
		head, tail := binary.LittleEndian.Uint64(check), binary.LittleEndian.Uint64(check[8:])
		if head != h.tag || tail != h.tag {
			return fmt.Errorf("block %v held by %#x carries stamps %#x and %#x: it was handed out twice", h.ptr, h.tag, head, tail)
		}
		return p.Release(h.ptr)
	}
	for i := range ops {
		if len(mine) < maxHeld && rng.IntN(2) == 0 {
			ptr, err := p.Acquire(rng.IntN(c.Size()))
			if errors.Is(err, bgdl.ErrExhausted) {
				continue
			}
			if err != nil {
				return err
			}
			*acquired++
			tag := uint64(c.Rank()+1)<<48 | uint64(g)<<32 | uint64(i)
			binary.LittleEndian.PutUint64(stamp, tag)
			w, r, off := p.Data(), ptr.Rank(), ptr.Offset()
			if err := w.Put(stamp, r, off); err != nil {
				return err
			}
			if err := w.Put(stamp, r, off+p.BlockSize()-8); err != nil {
				return err
			}
			if err := w.Flush(r); err != nil {
				return err
			}
			mine = append(mine, held{ptr, tag})
		} else if len(mine) > 0 {
			if err := release(rng.IntN(len(mine))); err != nil {
				return err
			}
		}
	}
	for len(mine) > 0 {
		if err := release(0); err != nil {
			return err
		}
	}
	return nil
}
