package bgdl

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"

	"github.com/gdi-go/gdi/internal/invariants"
	"github.com/gdi-go/gdi/rma"
)

// Errors of the block pool.
var (
	// ErrExhausted reports a rank with no free block left.
	ErrExhausted = errors.New("bgdl: no free block")
	// ErrDoubleRelease reports the release of a block that is not in use.
	ErrDoubleRelease = errors.New("bgdl: block released twice or never acquired")
	// ErrForeign reports a DPtr that names no block of this pool.
	ErrForeign = errors.New("bgdl: not a block of this pool")
	// ErrConfig reports pool parameters out of range.
	ErrConfig = errors.New("bgdl: bad pool configuration")
)

// Config is the geometry of a pool, the same on every rank.
type Config struct {
	// BlockSize is the size of a block in bytes: a multiple of 8, at least 8.
	BlockSize int
	// Blocks is the number of blocks on each rank, at least 1.
	Blocks int
	// Reserve is how many blocks of its own a rank takes at a time for
	// Acquire (reserve.go), at most Blocks/64; 0 takes them one by one.
	Reserve int
}

const (
	idxMask   = 1<<32 - 1
	inUse     = ^uint64(0) // usage word of a block that is handed out
	headWord  = 0          // system window offset of the free-list head
	maxBlocks = idxMask - 1
)

// Pool hands out blocks of one size on every rank. Its methods are safe for
// concurrent use by goroutines of the rank that created it.
type Pool struct {
	comm                rma.Comm
	data, usage, system rma.Window
	blockSize, blocks   int
	// ranks is comm.Size(), and shift log2(blockSize) if that is a
	// power of two (else -1): block runs on every access to a holder.
	ranks, shift int
	// heads are the head words of every rank's free list as last seen
	// (headguess.go).
	heads []headGuess
	// me is comm.Rank(); res the blocks of its own it holds for Acquire.
	me  int
	res reserve
}

// NewPool allocates a pool's windows and fills every rank's free list with
// all of its blocks. It is collective.
func NewPool(c rma.Comm, cfg Config) (*Pool, error) {
	if cfg.BlockSize < 8 || cfg.BlockSize%8 != 0 || cfg.Blocks < 1 || cfg.Blocks > maxBlocks {
		return nil, fmt.Errorf("%w: block size %d (a multiple of 8, at least 8), %d blocks (1 to %d)",
			ErrConfig, cfg.BlockSize, cfg.Blocks, maxBlocks)
	}
	if (cfg.Blocks+1)*cfg.BlockSize-1 > MaxOffset || c.Size()-1 > MaxRank {
		return nil, fmt.Errorf("%w: %d blocks of %d bytes on %d ranks do not fit 48-bit offsets and 16-bit ranks",
			ErrConfig, cfg.Blocks, cfg.BlockSize, c.Size())
	}
	p := &Pool{comm: c, blockSize: cfg.BlockSize, blocks: cfg.Blocks, ranks: c.Size(), shift: -1, heads: make([]headGuess, c.Size()), me: c.Rank()}
	p.res.size = max(0, min(cfg.Reserve, cfg.Blocks/64))
	if cfg.BlockSize&(cfg.BlockSize-1) == 0 {
		p.shift = bits.TrailingZeros(uint(cfg.BlockSize))
	}
	words := (cfg.Blocks + 1) * 8
	var err error
	if p.data, err = c.NewWindow((cfg.Blocks + 1) * cfg.BlockSize); err != nil {
		return nil, fmt.Errorf("bgdl: data window: %w", err)
	}
	if p.usage, err = c.NewWindow(words); err != nil {
		return nil, fmt.Errorf("bgdl: usage window: %w", err)
	}
	if p.system, err = c.NewWindow(words); err != nil {
		return nil, fmt.Errorf("bgdl: system window: %w", err)
	}
	// Chain this rank's blocks 1 → 2 → … → Blocks → end, head at 1.
	me := c.Rank()
	list := make([]byte, words)
	for b := 1; b < cfg.Blocks; b++ {
		binary.LittleEndian.PutUint64(list[b*8:], uint64(b+1))
	}
	if err := p.usage.Put(list, me, 0); err != nil {
		return nil, err
	}
	if err := p.usage.Flush(me); err != nil {
		return nil, err
	}
	if err := p.system.AtomicPut(me, headWord, 1); err != nil {
		return nil, err
	}
	if err := c.Barrier(); err != nil {
		return nil, err
	}
	return p, nil
}

// BlockSize is the size of every block in bytes.
func (p *Pool) BlockSize() int { return p.blockSize }

// Blocks is the number of blocks on each rank.
func (p *Pool) Blocks() int { return p.blocks }

// Data is the window holding the blocks: block ptr occupies BlockSize bytes
// at ptr.Offset() on ptr.Rank().
func (p *Pool) Data() rma.Window { return p.data }

// Locks is the window of lock words; LockOffset tells where a block's is.
func (p *Pool) Locks() rma.Window { return p.system }

// LockOffset is the offset in Locks, on ptr.Rank(), of the lock word of the
// block ptr. The word starts at zero and is left to the caller's protocol.
func (p *Pool) LockOffset(ptr DPtr) (int, error) {
	b, err := p.block(ptr)
	if err != nil {
		return 0, err
	}
	return b * 8, nil
}

// block returns the block number of ptr, checking that it names a block.
func (p *Pool) block(ptr DPtr) (int, error) {
	if b, ok := p.blockOf(ptr); ok {
		return b, nil
	}
	return 0, fmt.Errorf("%w: %v (blocks of %d bytes, 1 to %d, on %d ranks)", ErrForeign, ptr, p.blockSize, p.blocks, p.ranks)
}

// blockOf is block without the error, small enough to be inlined.
func (p *Pool) blockOf(ptr DPtr) (int, bool) {
	off := ptr.Offset()
	var b int
	if p.shift >= 0 {
		b = off >> p.shift
	} else {
		b = off / p.blockSize
	}
	return b, b*p.blockSize == off && b >= 1 && b <= p.blocks && ptr.Rank() < p.ranks
}

// Valid reports whether ptr names a block of the pool.
func (p *Pool) Valid(ptr DPtr) bool {
	_, ok := p.blockOf(ptr)
	return ok
}

// Acquire takes a free block of rank target. It returns ErrExhausted if
// target has none left. The block's contents are whatever its last owner
// left there.
func (p *Pool) Acquire(target int) (DPtr, error) {
	if target == p.me && p.res.size > 0 {
		return p.acquireReserved()
	}
	return p.acquireOne(target)
}

// acquireOne takes the block at the head of target's free list.
func (p *Pool) acquireOne(target int) (DPtr, error) {
	head, guessed, err := p.head(target)
	if err != nil {
		return Null, fmt.Errorf("bgdl: acquire on rank %d: %w", target, err)
	}
	for {
		if head, err = p.nonEmpty(target, head, guessed); err != nil {
			return Null, err
		}
		b := head & idxMask
		next, err := p.usage.AtomicGet(target, int(b)*8)
		if err != nil {
			return Null, err
		}
		invariants.MaybeYield()
		prev, err := p.system.CompareAndSwap(target, headWord, head, retag(head, next))
		if err != nil {
			return Null, err
		}
		if prev == head {
			p.saw(target, retag(head, next))
			// The block is ours. Mark it in use, so that releasing it twice
			// is caught. Until the mark lands the usage word still holds a
			// list link, which no one follows: b is no longer the head, and
			// anyone who read b as the head fails on the tag.
			if err := p.usage.AtomicPut(target, int(b)*8, inUse); err != nil {
				return Null, err
			}
			return dptr(target, int(b)*p.blockSize), nil
		}
		head, guessed = prev, false
	}
}

// Release returns the block ptr to its rank's free list. Releasing a block
// that is not in use returns ErrDoubleRelease, and a DPtr that names no
// block of the pool returns ErrForeign; neither changes the pool.
func (p *Pool) Release(ptr DPtr) error {
	b, err := p.block(ptr)
	if err != nil {
		return err
	}
	if ptr.Rank() == p.me && p.res.size > 0 {
		if kept, err := p.keep(ptr, b); kept || err != nil {
			return err
		}
	}
	return p.push(ptr, b)
}

// push puts block b (ptr) back on its rank's free list.
func (p *Pool) push(ptr DPtr, b int) error {
	target, slot := ptr.Rank(), b*8
	head, _, err := p.head(target)
	if err != nil {
		return err
	}
	// Claim the block back from "in use": this fails, and changes nothing,
	// if it is already free or being released by someone else.
	prev, err := p.usage.CompareAndSwap(target, slot, inUse, head&idxMask)
	if err != nil {
		return err
	}
	if prev != inUse {
		return fmt.Errorf("%w: %v", ErrDoubleRelease, ptr)
	}
	for {
		invariants.MaybeYield()
		prev, err := p.system.CompareAndSwap(target, headWord, head, retag(head, uint64(b)))
		if err != nil {
			return err
		}
		if prev == head {
			p.saw(target, retag(head, uint64(b)))
			return nil
		}
		head = prev
		if err := p.usage.AtomicPut(target, slot, head&idxMask); err != nil {
			return err
		}
	}
}

// nonEmpty returns head, the head word of target's list as seen (a guess
// if guessed), if it names a block. An empty list is not believed on a
// guess: the word is read again. If the list is empty, nonEmpty returns
// ErrExhausted.
func (p *Pool) nonEmpty(target int, head uint64, guessed bool) (uint64, error) {
	if head&idxMask == 0 && guessed {
		w, err := p.system.AtomicGet(target, headWord)
		if err != nil {
			return 0, fmt.Errorf("bgdl: acquire on rank %d: %w", target, err)
		}
		head = w
	}
	if head&idxMask == 0 {
		p.saw(target, head)
		return 0, p.exhausted(target)
	}
	return head, nil
}

// exhausted is the error of an acquire from target's empty list.
func (p *Pool) exhausted(target int) error {
	return fmt.Errorf("%w on rank %d (%d blocks of %d bytes)", ErrExhausted, target, p.blocks, p.blockSize)
}

// retag builds the head word that follows head, pointing at block b.
func retag(head, b uint64) uint64 {
	return (head>>32+1)<<32 | b
}

// FreeBlocks counts the free blocks of rank target by walking its list,
// and, on target itself, those of its reserve. It is exact only while no
// one acquires or releases on target, and it reports a corrupt list (a
// cycle, a link out of range, or a link into a block in use) as an error.
// Other ranks see the blocks of target's reserve as in use.
func (p *Pool) FreeBlocks(target int) (int, error) {
	head, err := p.system.AtomicGet(target, headWord)
	if err != nil {
		return 0, err
	}
	n := 0
	if target == p.me {
		n = p.res.len()
	}
	for b, links := head&idxMask, 0; b != 0; n, links = n+1, links+1 {
		if links >= p.blocks || b > uint64(p.blocks) {
			return n, fmt.Errorf("bgdl: free list of rank %d is corrupt at block %d after %d links", target, b, links)
		}
		if b, err = p.usage.AtomicGet(target, int(b)*8); err != nil {
			return n, err
		}
	}
	return n, nil
}

// Free releases the pool's windows. It is collective.
func (p *Pool) Free() error {
	return errors.Join(p.data.Free(), p.usage.Free(), p.system.Free())
}
