package dht

import (
	"encoding/binary"
	"fmt"
)

// Range calls fn for every key stored on rank, bucket by bucket. It reads
// without revalidation, so it is exact only while no one modifies the
// table; tests and checkpoints call it at quiescent points. The key slice is
// valid only during the call.
func (t *Table) Range(rank int, fn func(label uint32, key []byte, value uint64) error) error {
	buf := make([]byte, t.entrySize)
	limit := t.Capacity()
	for b := range t.buckets {
		head, err := t.table.AtomicGet(rank, b*t.slotSize)
		if err != nil {
			return err
		}
		steps := 0
		for e := entryOf(head); e != 0; steps++ {
			if steps > limit || e > limit {
				return fmt.Errorf("dht: chain of bucket %d on rank %d is corrupt at entry %d", b, rank, e)
			}
			win, off := t.entryAt(e)
			if err := win.Get(buf, rank, off); err != nil {
				return err
			}
			if err := win.Flush(rank); err != nil {
				return err
			}
			l := binary.LittleEndian.Uint64(buf)
			lk := binary.LittleEndian.Uint64(buf[24:])
			n := int(lk >> 32)
			if n > t.maxKey {
				return fmt.Errorf("dht: entry %d on rank %d has a key of %d bytes", e, rank, n)
			}
			if !marked(l) {
				if err := fn(uint32(lk), buf[headerSize:headerSize+n], binary.LittleEndian.Uint64(buf[8:])); err != nil {
					return err
				}
			}
			e = entryOf(l)
		}
	}
	return nil
}

// Len counts the keys stored on rank; like Range, it is exact only at
// quiescent points.
func (t *Table) Len(rank int) (int, error) {
	n := 0
	err := t.Range(rank, func(uint32, []byte, uint64) error { n++; return nil })
	return n, err
}

// Capacity is the number of keys a rank can hold: Homes per bucket plus
// the overflow entries.
func (t *Table) Capacity() int { return t.homes() + t.heap.Blocks() }

// FreeEntries counts the unused entries of rank, home entries and overflow
// entries together, at a quiescent point. Len plus FreeEntries is Capacity
// unless entries leaked.
func (t *Table) FreeEntries(rank int) (int, error) {
	free, err := t.heap.FreeBlocks(rank)
	if err != nil {
		return 0, err
	}
	for e := 1; e <= t.homes(); e++ {
		win, off := t.entryAt(e)
		l, err := win.AtomicGet(rank, off)
		if err != nil {
			return 0, err
		}
		if !used(l) {
			free++
		}
	}
	return free, nil
}
