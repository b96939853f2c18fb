package bgdl_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/internal/ranktest"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/count"
)

// TestReserve: a rank takes its own blocks Reserve at a time, with one
// get, one swap and one batch of marks; hands them out in list order with
// no remote access; counts them as free until then; takes back the blocks
// its rank releases; hands out every block once before its rank is
// exhausted; and gives them back with ReturnReserve.
func TestReserve(t *testing.T) {
	const blocks, reserve = 256, 4
	ranktest.Run(t, 1, func(c rma.Comm) error {
		cc := count.Wrap(c)
		return withPool(cc, bgdl.Config{BlockSize: 64, Blocks: blocks, Reserve: reserve}, func(p *bgdl.Pool) error {
			before := cc.Counts()
			got := map[bgdl.DPtr]bool{}
			for i := range reserve {
				ptr, err := p.Acquire(0)
				if err != nil {
					return err
				}
				if want := (i + 1) * 64; ptr.Offset() != want {
					return fmt.Errorf("acquire %d: offset %d, want %d (the list's order)", i, ptr.Offset(), want)
				}
				got[ptr] = true
			}
			// The head word (not yet seen), the links, the swap, the marks.
			if n := cc.Counts().Sub(before); n.Gets != 1 || n.Atomics != 1+1+reserve || n.Flushes != 2 {
				return fmt.Errorf("%d acquires from a reserve of %d: %+v; want 1 get, %d atomics, 2 flushes", reserve, reserve, n, 2+reserve)
			}
			fifth, err := p.Acquire(0)
			if err != nil {
				return err
			}
			// A block released by its rank goes back into the reserve,
			// checked with one atomic; a second release is caught.
			before = cc.Counts()
			if err := p.Release(fifth); err != nil {
				return err
			}
			if n := cc.Counts().Sub(before); n.Atomics != 1 || n.Calls() != 1 {
				return fmt.Errorf("release into the reserve: %+v; want 1 atomic", n)
			}
			if err := p.Release(fifth); !errors.Is(err, bgdl.ErrDoubleRelease) {
				return fmt.Errorf("second release of a block in the reserve: %v, want ErrDoubleRelease", err)
			}
			if again, err := p.Acquire(0); err != nil || again == fifth {
				return fmt.Errorf("acquire after a release into the reserve: %v, %v; want the reserve's next block first", again, err)
			}
			if n, err := p.FreeBlocks(0); err != nil || n != blocks-reserve-1 {
				return fmt.Errorf("FreeBlocks with %d in the reserve = %d, %v; want %d", reserve-1, n, err, blocks-reserve-1)
			}
			if err := p.ReturnReserve(); err != nil {
				return err
			}
			if n, err := p.FreeBlocks(0); err != nil || n != blocks-reserve-1 {
				return fmt.Errorf("FreeBlocks after ReturnReserve = %d, %v; want %d", n, err, blocks-reserve-1)
			}
			for {
				ptr, err := p.Acquire(0)
				if errors.Is(err, bgdl.ErrExhausted) {
					break
				}
				if err != nil {
					return err
				}
				if got[ptr] {
					return fmt.Errorf("block %v handed out twice", ptr)
				}
				got[ptr] = true
			}
			if len(got) != blocks-1 { // all but again
				return fmt.Errorf("%d blocks handed out before exhaustion, want %d", len(got), blocks-1)
			}
			return nil
		})
	})
}
