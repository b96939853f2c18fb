package bgdl

import (
	"encoding/binary"
	"fmt"
)

// Rebuild sets the calling rank's free list and usage words from scratch:
// block b (1 to Blocks) is in use if used(b) is true, and free otherwise.
// The free list links the free blocks in ascending order. It is for
// recovery (a redo log replayed into the data window, after which the
// blocks in use are known from the data alone), and must only be called
// while no rank acquires or releases blocks of the calling rank. It is
// local: callers synchronise the ranks around it. It returns the number of
// free blocks.
func (p *Pool) Rebuild(used func(b int) bool) (int, error) {
	me := p.comm.Rank()
	p.forgetReserve()
	list := make([]byte, (p.blocks+1)*8)
	first, last, free := uint64(0), 0, 0
	for b := 1; b <= p.blocks; b++ {
		if used(b) {
			binary.LittleEndian.PutUint64(list[b*8:], inUse)
			continue
		}
		if last == 0 {
			first = uint64(b)
		} else {
			binary.LittleEndian.PutUint64(list[last*8:], uint64(b))
		}
		last = b
		free++
	}
	if err := p.usage.Put(list, me, 0); err != nil {
		return 0, fmt.Errorf("bgdl: rebuild: %w", err)
	}
	if err := p.usage.Flush(me); err != nil {
		return 0, fmt.Errorf("bgdl: rebuild: %w", err)
	}
	// Keep the tag counting up, so that no stale head word matches.
	head, err := p.system.AtomicGet(me, headWord)
	if err != nil {
		return 0, fmt.Errorf("bgdl: rebuild: %w", err)
	}
	if err := p.system.AtomicPut(me, headWord, retag(head, first)); err != nil {
		return 0, fmt.Errorf("bgdl: rebuild: %w", err)
	}
	return free, nil
}
