package bgdl_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

func TestRebuild(t *testing.T) {
	const blocks = 16
	err := local.Run(2, func(c rma.Comm) error {
		p, err := bgdl.NewPool(c, bgdl.Config{BlockSize: 8, Blocks: blocks})
		if err != nil {
			return err
		}
		defer p.Free()
		// Take some blocks, then rebuild with every third block in use.
		for range 5 {
			if _, err := p.Acquire(c.Rank()); err != nil {
				return err
			}
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		used := func(b int) bool { return b%3 == 0 }
		free, err := p.Rebuild(used)
		if err != nil {
			return err
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		if want := blocks - blocks/3; free != want {
			return fmt.Errorf("Rebuild says %d free, want %d", free, want)
		}
		if n, err := p.FreeBlocks(c.Rank()); err != nil || n != free {
			return fmt.Errorf("FreeBlocks = %d, %v; want %d", n, err, free)
		}
		// Every free block comes out once, never a used one; releasing a
		// used one works, releasing a free one is a double release.
		seen := map[int]bool{}
		for range free {
			d, err := p.Acquire(c.Rank())
			if err != nil {
				return err
			}
			b := d.Offset() / 8
			if used(b) || seen[b] {
				return fmt.Errorf("acquired block %d (used %v, seen %v)", b, used(b), seen[b])
			}
			seen[b] = true
		}
		if _, err := p.Acquire(c.Rank()); !errors.Is(err, bgdl.ErrExhausted) {
			return fmt.Errorf("Acquire after all free blocks: %v", err)
		}
		d, err := bgdl.MakeDPtr(c.Rank(), 3*8)
		if err != nil {
			return err
		}
		return p.Release(d)
	})
	if err != nil {
		t.Fatal(err)
	}
}
