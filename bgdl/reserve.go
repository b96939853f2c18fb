package bgdl

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/gdi-go/gdi/rma"
)

// Reserves. Most blocks a rank acquires are its own (a transaction creates
// its vertices where it runs), and acquiring one from the list costs three
// atomics: the link of the head block, the swap of the head word, the
// mark. A pool with Config.Reserve > 0 takes up to Reserve blocks of its
// own rank at once instead: one get reads the links of the blocks that
// follow the head block in the usage window, the run of the list found
// there is popped with one swap of the head word, and one batch marks the
// run in use. Acquire then hands the run out with no remote access. A
// block of its own that the rank releases goes into the reserve while it
// has room, still marked in use (keep).
//
// Why one get is enough: the head word's tag grows with every swap, so a
// swap from the head word read proves that no block was pushed or popped
// since. The links of the blocks on the list change only when they are
// pushed or popped, so those the get read were the list's all along. A
// link the get could not follow (it points past the blocks read, or back
// into the run) ends the run; what the walk read of blocks not on the
// list it never reaches.
//
// The blocks of a reserve are in use as far as other ranks can tell, so a
// reserve holds at most Blocks/64 of them; FreeBlocks counts them as free
// on their own rank. ReturnReserve puts them back on the list (a
// checkpoint does, so that it holds none), and Rebuild forgets them.

// reserve is a rank's blocks of its own, taken for Acquire.
type reserve struct {
	size   int // blocks taken at a time, 0 for no reserve
	mu     sync.Mutex
	blocks []uint64 // block numbers, handed out from the front
	links  []byte   // the usage words a refill reads
	ops    []rma.Atomic
}

func (r *reserve) len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.blocks)
}

// acquireReserved hands out the next block of the reserve, taking a new
// run when it is empty.
func (p *Pool) acquireReserved() (DPtr, error) {
	r := &p.res
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.blocks) == 0 {
		if err := p.refill(); err != nil {
			return Null, err
		}
	}
	b := r.blocks[0]
	r.blocks = r.blocks[1:]
	return dptr(p.me, int(b)*p.blockSize), nil
}

// refill takes the next run of the calling rank's list into its empty
// reserve (see above). r.mu is held.
func (p *Pool) refill() error {
	r := &p.res
	if r.links == nil {
		r.links = make([]byte, r.size*8)
		r.blocks = make([]uint64, 0, r.size)
	}
	head, guessed, err := p.head(p.me)
	for err == nil {
		if head, err = p.nonEmpty(p.me, head, guessed); err != nil {
			break
		}
		first := int(head & idxMask)
		if first > p.blocks {
			return fmt.Errorf("bgdl: the free list of rank %d starts at block %d of %d: corrupt", p.me, first, p.blocks)
		}
		links := r.links[:min(r.size, p.blocks-first+1)*8]
		if err = p.usage.Get(links, p.me, first*8); err == nil {
			err = p.usage.Flush(p.me)
		}
		if err != nil {
			break
		}
		run, after := walkRun(links, first, r.blocks[:0])
		var prev uint64
		if prev, err = p.system.CompareAndSwap(p.me, headWord, head, retag(head, after)); err != nil {
			break
		}
		if prev == head {
			p.saw(p.me, retag(head, after))
			r.blocks = run
			return p.markReserved()
		}
		head, guessed = prev, false
	}
	return err
}

// walkRun follows the links read from the usage words of blocks first,
// first+1, … from block first on, as long as they stay among them, and
// appends the blocks to run. It returns the run and the link after it.
func walkRun(links []byte, first int, run []uint64) ([]uint64, uint64) {
	b := uint64(first)
	for {
		i := int(b) - first
		if b == 0 || i < 0 || i >= len(links)/8 || slices.Contains(run, b) {
			return run, b
		}
		run = append(run, b)
		b = binary.LittleEndian.Uint64(links[i*8:])
	}
}

// markReserved marks the blocks of the reserve in use, in one batch. If it
// fails, they are lost to the list until a Rebuild.
func (p *Pool) markReserved() error {
	r := &p.res
	r.ops = r.ops[:0]
	for _, b := range r.blocks {
		r.ops = append(r.ops, rma.Atomic{Kind: rma.AtomicPut, Target: p.me, Offset: int(b) * 8, Arg: inUse})
	}
	if err := rma.Atomics(p.usage, r.ops); err != nil {
		r.blocks = r.blocks[:0]
		return err
	}
	return nil
}

// keep puts block b (ptr), which the calling rank releases, into its
// reserve if there is room, and reports whether it did. A swap of its
// usage word from in use to in use catches a block released twice, as
// Release does; so does finding it in the reserve already.
func (p *Pool) keep(ptr DPtr, b int) (kept bool, err error) {
	r := &p.res
	r.mu.Lock()
	defer r.mu.Unlock()
	if slices.Contains(r.blocks, uint64(b)) {
		return true, fmt.Errorf("%w: %v", ErrDoubleRelease, ptr)
	}
	if len(r.blocks) >= r.size {
		return false, nil
	}
	prev, err := p.usage.CompareAndSwap(p.me, b*8, inUse, inUse)
	if err != nil {
		return true, err
	}
	if prev != inUse {
		return true, fmt.Errorf("%w: %v", ErrDoubleRelease, ptr)
	}
	r.blocks = append(r.blocks, uint64(b))
	return true, nil
}

// ReturnReserve puts the blocks of the calling rank's reserve back on its
// free list.
func (p *Pool) ReturnReserve() error {
	r := &p.res
	r.mu.Lock()
	defer r.mu.Unlock()
	var errs []error
	for _, b := range r.blocks {
		errs = append(errs, p.push(dptr(p.me, int(b)*p.blockSize), int(b)))
	}
	r.blocks = r.blocks[:0]
	return errors.Join(errs...)
}

// forgetReserve empties the reserve without giving its blocks back, for
// Rebuild, which decides anew which blocks are free.
func (p *Pool) forgetReserve() {
	r := &p.res
	r.mu.Lock()
	defer r.mu.Unlock()
	r.blocks = r.blocks[:0]
}
