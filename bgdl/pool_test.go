package bgdl_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/internal/ranktest"
	"github.com/gdi-go/gdi/rma"
)

func TestDPtr(t *testing.T) {
	p, err := bgdl.MakeDPtr(3, 0x1a40)
	if err != nil {
		t.Fatal(err)
	}
	if p.Rank() != 3 || p.Offset() != 0x1a40 || p.IsNull() || p.String() != "3:0x1a40" {
		t.Fatalf("DPtr(3, 0x1a40) = %v: rank %d offset %#x", p, p.Rank(), p.Offset())
	}
	top, err := bgdl.MakeDPtr(bgdl.MaxRank, bgdl.MaxOffset)
	if err != nil || top.Rank() != bgdl.MaxRank || top.Offset() != bgdl.MaxOffset {
		t.Fatalf("largest DPtr: %v, %v", top, err)
	}
	if !bgdl.Null.IsNull() || bgdl.Null.String() != "null" {
		t.Fatalf("Null = %v", bgdl.Null)
	}
	for _, bad := range [][2]int{{-1, 0}, {bgdl.MaxRank + 1, 0}, {0, -8}, {0, bgdl.MaxOffset + 1}} {
		if _, err := bgdl.MakeDPtr(bad[0], bad[1]); !errors.Is(err, bgdl.ErrDPtr) {
			t.Errorf("MakeDPtr%v = %v, want ErrDPtr", bad, err)
		}
	}
}

func withPool(c rma.Comm, cfg bgdl.Config, fn func(p *bgdl.Pool) error) error {
	p, err := bgdl.NewPool(c, cfg)
	if err != nil {
		return err
	}
	return errors.Join(fn(p), p.Free())
}

func TestConfig(t *testing.T) {
	ranktest.Run(t, 1, func(c rma.Comm) error {
		for _, cfg := range []bgdl.Config{{BlockSize: 0, Blocks: 4}, {BlockSize: 12, Blocks: 4}, {BlockSize: 64, Blocks: 0}, {BlockSize: 64, Blocks: -1}, {BlockSize: 1 << 20, Blocks: 1 << 30}} {
			if _, err := bgdl.NewPool(c, cfg); !errors.Is(err, bgdl.ErrConfig) {
				return fmt.Errorf("NewPool(%+v) = %v, want ErrConfig", cfg, err)
			}
		}
		return nil
	})
}

// TestExhaustion takes every block of a rank: all distinct, then
// ErrExhausted, then all come back.
func TestExhaustion(t *testing.T) {
	ranktest.ForRanks(t, func(c rma.Comm) error {
		const blocks = 37
		return withPool(c, bgdl.Config{BlockSize: 64, Blocks: blocks}, func(p *bgdl.Pool) error {
			target := (c.Rank() + 1) % c.Size()
			if err := c.Barrier(); err != nil {
				return err
			}
			var got []bgdl.DPtr
			if c.Rank() == 0 {
				seen := map[bgdl.DPtr]bool{}
				for range blocks {
					ptr, err := p.Acquire(target)
					if err != nil {
						return err
					}
					if seen[ptr] || ptr.Rank() != target || ptr.IsNull() {
						return fmt.Errorf("block %v handed out twice or from the wrong rank", ptr)
					}
					seen[ptr] = true
					got = append(got, ptr)
				}
				if _, err := p.Acquire(target); !errors.Is(err, bgdl.ErrExhausted) {
					return fmt.Errorf("Acquire on an exhausted rank = %v, want ErrExhausted", err)
				}
				if n, err := p.FreeBlocks(target); n != 0 || err != nil {
					return fmt.Errorf("FreeBlocks of an exhausted rank = %d, %v", n, err)
				}
				for _, ptr := range got {
					if err := p.Release(ptr); err != nil {
						return err
					}
				}
			}
			if err := c.Barrier(); err != nil {
				return err
			}
			if n, err := p.FreeBlocks(c.Rank()); n != blocks || err != nil {
				return fmt.Errorf("FreeBlocks after releasing all = %d, %v; want %d", n, err, blocks)
			}
			return c.Barrier()
		})
	})
}

func TestBadRelease(t *testing.T) {
	for _, bs := range []int{128, 72} { // block numbers by shift, and by division
		t.Run(fmt.Sprintf("bs=%d", bs), func(t *testing.T) { badRelease(t, bs) })
	}
}

func badRelease(t *testing.T, bs int) {
	ranktest.Run(t, 2, func(c rma.Comm) error {
		return withPool(c, bgdl.Config{BlockSize: bs, Blocks: 8}, func(p *bgdl.Pool) error {
			if c.Rank() == 0 {
				ptr, err := p.Acquire(1)
				if err != nil {
					return err
				}
				if err := p.Release(ptr); err != nil {
					return err
				}
				if err := p.Release(ptr); !errors.Is(err, bgdl.ErrDoubleRelease) {
					return fmt.Errorf("second Release = %v, want ErrDoubleRelease", err)
				}
				never := ptr + bgdl.DPtr(bs)
				if err := p.Release(never); !errors.Is(err, bgdl.ErrDoubleRelease) {
					return fmt.Errorf("Release of a free block = %v, want ErrDoubleRelease", err)
				}
				foreign := []bgdl.DPtr{
					bgdl.Null,
					ptr + 8,                    // not at a block boundary
					bgdl.DPtr(uint64(1) << 48), // block 0 of rank 1, never handed out
					ptr + bgdl.DPtr(bs*9),      // past the last block
					bgdl.DPtr(uint64(5) << 48), // no such rank
				}
				for _, f := range foreign {
					if err := p.Release(f); !errors.Is(err, bgdl.ErrForeign) {
						return fmt.Errorf("Release(%v) = %v, want ErrForeign", f, err)
					}
					if p.Valid(f) {
						return fmt.Errorf("Valid(%v) = true for no block of the pool", f)
					}
				}
				if !p.Valid(ptr) || !p.Valid(never) {
					return fmt.Errorf("Valid(%v), Valid(%v) = false for blocks of the pool", ptr, never)
				}
			}
			if err := c.Barrier(); err != nil {
				return err
			}
			if n, err := p.FreeBlocks(c.Rank()); n != 8 || err != nil {
				return fmt.Errorf("bad releases changed the pool: %d free, %v", n, err)
			}
			return c.Barrier()
		})
	})
}

func TestLockOffsets(t *testing.T) {
	ranktest.Run(t, 1, func(c rma.Comm) error {
		return withPool(c, bgdl.Config{BlockSize: 256, Blocks: 4}, func(p *bgdl.Pool) error {
			seen := map[int]bool{0: true} // word 0 is the free-list head
			for range 4 {
				ptr, err := p.Acquire(0)
				if err != nil {
					return err
				}
				off, err := p.LockOffset(ptr)
				if err != nil {
					return err
				}
				if seen[off] || off%8 != 0 || off >= p.Locks().Size() {
					return fmt.Errorf("lock word of %v at %d collides or is out of the window", ptr, off)
				}
				seen[off] = true
			}
			if _, err := p.LockOffset(bgdl.Null); !errors.Is(err, bgdl.ErrForeign) {
				return fmt.Errorf("LockOffset(Null) = %v, want ErrForeign", err)
			}
			return nil
		})
	})
}
