package dht

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/internal/invariants"
)

// Insert stores value under (label, key). It returns ErrExists if the key
// is present, and ErrFull if the key's rank has no free entry.
//
// Most keys go to a bucket whose chain lies within its slot, and insertHome
// inserts them in five accesses if a home entry is free. The others, and
// any insert that finds the slot changing under it, walk the chain
// (insertChained).
func (t *Table) Insert(label uint32, key []byte, value uint64) error {
	if err := t.checkKey(key); err != nil {
		return err
	}
	bp := t.buf()
	defer t.put(bp)
	h := Hash(label, key)
	done, err := t.insertHome(h, label, key, value, *bp)
	if done || err != nil {
		return err
	}
	return t.insertChained(h, label, key, value, *bp)
}

// insertHome inserts key before the chain of its bucket if a read of the
// slot shows that chain within the bucket's home entries and without key,
// into a free home entry if the slot has one. It reads the bucket word
// (w₀), then the slot; it takes the entry (a home entry with a swap of its
// link from the link read, which also links it before the chain; an
// overflow entry from the heap, then linked); writes the rest of the
// entry; and swaps the bucket word from w₀ to the entry.
//
// Why the slot read is enough: the bucket word's tag grows with every
// insert into the bucket, so a swap from w₀ that succeeds proves that none
// happened since w₀ was read, and that no home entry of the chain was
// reused meanwhile (a home entry only ever joins its own bucket). The
// chain walked from w₀ through the links as read thus held key at no time
// of the read (as in chainInSlot) and gained none since. A walk that meets
// anything else — an overflow entry, a free or unknown entry, a chain too
// long, a copy of key — is left to insertChained, which checks as Lookup
// does.
//
// It reports false, having changed nothing, when insertChained must do the
// insert.
func (t *Table) insertHome(h uint64, label uint32, key []byte, value uint64, buf []byte) (bool, error) {
	r, b := t.place(h)
	head, err := t.table.AtomicGet(r, b*t.slotSize)
	if err != nil {
		return false, err
	}
	slot := buf[:t.slotSize]
	if err := t.table.Get(slot, r, b*t.slotSize); err != nil {
		return false, err
	}
	if err := t.table.Flush(r); err != nil {
		return false, err
	}
	e, old, ok := t.slotWalk(slot, b, head, h, label, key)
	if !ok {
		return false, nil
	}
	var linked link
	if e != 0 {
		linked = next(old, entryOf(head))
		win, off := t.entryAt(e)
		if prev, err := win.CompareAndSwap(r, off, old, linked); err != nil || prev != old {
			return false, err
		}
	} else if e, linked, err = t.takeOverflow(r, entryOf(head)); err != nil {
		return false, err
	}
	if err := t.writeEntry(r, e, h, label, key, value, buf); err != nil {
		return false, errors.Join(err, t.release(r, e, linked))
	}
	invariants.MaybeYield()
	prev, err := t.table.CompareAndSwap(r, b*t.slotSize, head, next(head, e))
	if err == nil && prev == head {
		return true, nil
	}
	return false, errors.Join(err, t.release(r, e, linked))
}

// slotWalk walks the chain of bucket b from the bucket word head through
// slot, as read. If the chain stays within the slot without key, it
// reports ok, with a free home entry of the bucket and its link, or entry
// 0 if none is free.
func (t *Table) slotWalk(slot []byte, b int, head link, h uint64, label uint32, key []byte) (e int, old link, ok bool) {
	home := func(e int) []byte { return slot[slotEntries+(e-1-b*Homes)*t.entrySize:] }
	l := head
	for range Homes + 1 {
		c := entryOf(l)
		if c == 0 {
			break
		}
		if c <= b*Homes || c > (b+1)*Homes {
			return 0, 0, false // an overflow entry, or another bucket's
		}
		entry := home(c)
		l = binary.LittleEndian.Uint64(entry)
		if !used(l) || !marked(l) && t.holds(entry, h, label, key) {
			return 0, 0, false
		}
	}
	if entryOf(l) != 0 {
		return 0, 0, false
	}
	for i := range Homes {
		e := b*Homes + i + 1
		if old := binary.LittleEndian.Uint64(home(e)); !used(old) {
			return e, old, true
		}
	}
	return 0, 0, true
}

// takeOverflow takes an overflow entry on rank r and links it to entry
// first. It returns the entry and the link it holds.
func (t *Table) takeOverflow(r, first int) (int, link, error) {
	e, old, err := t.acquireOverflow(r)
	if err != nil {
		return 0, 0, err
	}
	linked := next(old, first)
	win, off := t.entryAt(e)
	if err := win.AtomicPut(r, off, linked); err != nil {
		return 0, 0, errors.Join(err, t.release(r, e, old))
	}
	return e, linked, nil
}

// insertChained inserts key after a walk of the whole chain (find), into
// an entry that acquire takes.
func (t *Table) insertChained(h uint64, label uint32, key []byte, value uint64, buf []byte) error {
	r, b := t.place(h)
	entry := 0
	var cur link // the link entry holds
	defer func() {
		if entry != 0 { // not published
			_ = t.release(r, entry, cur)
		}
	}()
	for {
		found, p, err := t.find(h, label, key, buf)
		if err != nil {
			return err
		}
		if found {
			return fmt.Errorf("%w: label %d, key %q", ErrExists, label, key)
		}
		if entry == 0 {
			if entry, cur, err = t.acquire(r, b); err != nil {
				return err
			}
			if err := t.writeEntry(r, entry, h, label, key, value, buf); err != nil {
				return err
			}
		}
		// The entry's link gets a tag above any it had in an earlier life,
		// so readers that still hold an old link to it fail to revalidate.
		win, off := t.entryAt(entry)
		cur = next(cur, entryOf(p.head))
		if err := win.AtomicPut(r, off, cur); err != nil {
			return err
		}
		prev, err := t.table.CompareAndSwap(r, b*t.slotSize, p.head, next(p.head, entry))
		if err != nil {
			return err
		}
		if prev == p.head {
			entry = 0
			return nil
		}
	}
}

// writeEntry writes everything of entry e on rank r but its link, and
// waits until it is written. buf is scratch of EntrySize bytes.
func (t *Table) writeEntry(r, e int, h uint64, label uint32, key []byte, value uint64, buf []byte) error {
	body := buf[8 : headerSize+len(key)]
	binary.LittleEndian.PutUint64(body[0:], value)
	binary.LittleEndian.PutUint64(body[8:], h)
	binary.LittleEndian.PutUint64(body[16:], uint64(len(key))<<32|uint64(label))
	copy(body[24:], key)
	win, off := t.entryAt(e)
	if err := win.Put(body, r, off+8); err != nil {
		return err
	}
	return win.Flush(r)
}

// acquire takes a free entry on rank r for a key of bucket b: one of the
// bucket's home entries if one is free, an overflow entry otherwise. It
// returns the entry and the link it holds, which no one else changes until
// it is released.
func (t *Table) acquire(r, b int) (int, link, error) {
	for i := range Homes {
		e := b*Homes + i + 1
		win, off := t.entryAt(e)
		old, err := win.AtomicGet(r, off)
		if err != nil {
			return 0, 0, err
		}
		if used(old) {
			continue
		}
		taken := next(old, 0)
		prev, err := win.CompareAndSwap(r, off, old, taken)
		if err != nil {
			return 0, 0, err
		}
		if prev == old {
			return e, taken, nil
		}
	}
	return t.acquireOverflow(r)
}

// acquireOverflow takes an entry of rank r's heap and returns it with the
// link it holds, unmarked.
func (t *Table) acquireOverflow(r int) (int, link, error) {
	ptr, err := t.heap.Acquire(r)
	if errors.Is(err, bgdl.ErrExhausted) {
		return 0, 0, fmt.Errorf("%w on rank %d (%d buckets, %d overflow entries)", ErrFull, r, t.buckets, t.heap.Blocks())
	}
	if err != nil {
		return 0, 0, err
	}
	e := t.homes() + ptr.Offset()/t.entrySize
	win, off := t.entryAt(e)
	old, err := win.AtomicGet(r, off)
	if err != nil {
		return 0, 0, errors.Join(err, t.release(r, e, 0))
	}
	return e, old &^ markBit, nil
}

// release returns entry e of rank r, which must be unlinked and hold link
// l, for reuse.
func (t *Table) release(r, e int, l link) error {
	if e <= t.homes() {
		win, off := t.entryAt(e)
		prev, err := win.CompareAndSwap(r, off, l, freed(l))
		if err == nil && prev != l {
			err = fmt.Errorf("dht: home entry %d on rank %d released while it links %#x, not %#x", e, r, prev, l)
		}
		return err
	}
	ptr, _ := bgdl.MakeDPtr(r, (e-t.homes())*t.entrySize) // in range by construction
	if err := t.heap.Release(ptr); err != nil {
		return fmt.Errorf("dht: reclaiming entry %d on rank %d: %w", e, r, err)
	}
	return nil
}
