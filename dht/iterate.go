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
	heads := make([]byte, t.buckets*8)
	if err := t.table.Get(heads, rank, 0); err != nil {
		return err
	}
	if err := t.table.Flush(rank); err != nil {
		return err
	}
	buf := make([]byte, t.entrySize)
	for b := range t.buckets {
		steps := 0
		for e := entryOf(binary.LittleEndian.Uint64(heads[b*8:])); e != 0; steps++ {
			if steps > t.heap.Blocks() || e > t.heap.Blocks() {
				return fmt.Errorf("dht: chain of bucket %d on rank %d is corrupt at entry %d", b, rank, e)
			}
			if err := t.data.Get(buf, rank, e*t.entrySize); err != nil {
				return err
			}
			if err := t.data.Flush(rank); err != nil {
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

// FreeEntries counts the unused entries of rank's heap, at a quiescent
// point. Len plus FreeEntries is the heap's size unless entries leaked.
func (t *Table) FreeEntries(rank int) (int, error) {
	return t.heap.FreeBlocks(rank)
}
