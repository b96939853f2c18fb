package bgdl_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"testing"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/count"
	"github.com/gdi-go/gdi/rma/local"
)

// TestHeadGuess: a burst of acquires and releases by one rank starts each
// from the head word it last saw, one atomic fewer than reading it (three
// for an acquire, two for a release); and a guess made stale by another
// rank's acquires and releases costs a failed swap, never a wrong block.
func TestHeadGuess(t *testing.T) {
	const blocks = 8
	err := local.Run(2, func(c rma.Comm) error {
		cc := count.Wrap(c)
		p, err := bgdl.NewPool(cc, bgdl.Config{BlockSize: 64, Blocks: blocks})
		if err != nil {
			return err
		}
		defer p.Free()
		var held []bgdl.DPtr
		if c.Rank() == 1 {
			if _, err := p.Acquire(0); err != nil { // the first reads the head
				return err
			}
			before := cc.Counts()
			for range 3 {
				b, err := p.Acquire(0)
				if err != nil {
					return err
				}
				held = append(held, b)
			}
			if err := p.Release(held[2]); err != nil {
				return err
			}
			held = held[:2]
			if got := cc.Counts().Sub(before); got.Atomics != 3*3+2 {
				return fmt.Errorf("3 acquires and a release in a burst: %d atomics, want %d", got.Atomics, 3*3+2)
			}
		}
		// Rank 0 moves its own list on: rank 1's guess of it goes stale.
		if err := c.Barrier(); err != nil {
			return err
		}
		if c.Rank() == 0 {
			mine := []bgdl.DPtr{}
			for range 2 {
				b, err := p.Acquire(0)
				if err != nil {
					return err
				}
				mine = append(mine, b)
			}
			if err := p.Release(mine[0]); err != nil {
				return err
			}
			held = mine[1:]
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		if c.Rank() == 1 {
			b, err := p.Acquire(0)
			if err != nil {
				return err
			}
			held = append(held, b)
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		// Every block held is held once, and the rest are free.
		var all []byte
		for _, b := range held {
			all = binary.LittleEndian.AppendUint64(all, uint64(b))
		}
		got, err := c.Allgatherv(all)
		if err != nil {
			return err
		}
		seen := map[bgdl.DPtr]bool{}
		for _, r := range got {
			for ; len(r) >= 8; r = r[8:] {
				b := bgdl.DPtr(binary.LittleEndian.Uint64(r))
				if seen[b] {
					return fmt.Errorf("block %v handed out twice", b)
				}
				seen[b] = true
			}
		}
		n := len(seen)
		if c.Rank() == 0 {
			// rank 1's first acquire is held too, though not listed
			if free, err := p.FreeBlocks(0); err != nil || free != blocks-n-1 {
				return fmt.Errorf("rank 0 has %d free blocks (%v), want %d", free, err, blocks-n-1)
			}
		}
		return c.Barrier()
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestEmptyGuessNotBelieved: a rank whose last look at another rank's list
// found it empty reads the head again before it reports ErrExhausted, so a
// block released there since is found. With and without a reserve (the
// reserve's refill follows the same rule for the rank's own list).
func TestEmptyGuessNotBelieved(t *testing.T) {
	const blocks, bs = 128, 64
	for _, reserve := range []int{0, 2} {
		err := local.Run(2, func(c rma.Comm) error {
			p, err := bgdl.NewPool(c, bgdl.Config{BlockSize: bs, Blocks: blocks, Reserve: reserve})
			if err != nil {
				return err
			}
			defer p.Free()
			// Rank 1 empties rank 0's list (rank 0 its own, by its reserve).
			taker := 1
			if reserve > 0 {
				taker = 0
			}
			if c.Rank() == taker {
				for n := 0; ; n++ {
					if _, err := p.Acquire(0); err != nil {
						if n < blocks || !errors.Is(err, bgdl.ErrExhausted) {
							return fmt.Errorf("emptying rank 0 after %d blocks: %v", n, err)
						}
						break
					}
				}
			}
			if err := c.Barrier(); err != nil {
				return err
			}
			if c.Rank() != taker { // gives one back, unseen by the taker
				ptr, err := bgdl.MakeDPtr(0, 5*bs)
				if err != nil {
					return err
				}
				if err := p.Release(ptr); err != nil {
					return err
				}
			}
			if err := c.Barrier(); err != nil {
				return err
			}
			if c.Rank() == taker {
				if ptr, err := p.Acquire(0); err != nil || ptr.Offset() != 5*bs {
					return fmt.Errorf("reserve %d: acquire after a release by another rank = %v, %v; want block 5", reserve, ptr, err)
				}
			}
			return c.Barrier()
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
