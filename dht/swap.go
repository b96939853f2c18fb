package dht

// Swap replaces the value of (label, key) with new if it is old, and
// reports whether it did: one compare-and-swap of the entry's value word,
// after a walk of the chain. found is false if the key is absent.
//
// An entry's other words never change while it is linked; its value word
// changes only by Swap, so a reader that copies the entry gets the value
// before or after a swap. A swap may land on an entry a concurrent Delete
// has just marked: the key is then absent, swap or not, which the caller
// that must keep the key present learns from a Lookup after the swap.
func (t *Table) Swap(label uint32, key []byte, old, new uint64) (swapped, found bool, err error) {
	if err := t.checkKey(key); err != nil {
		return false, false, err
	}
	b := t.buf()
	defer t.put(b)
	ok, p, err := t.find(Hash(label, key), label, key, *b)
	if err != nil || !ok || p.value != old {
		return false, ok, err
	}
	win, off := t.entryAt(p.cur)
	prev, err := win.CompareAndSwap(p.rank, off+8, old, new)
	return err == nil && prev == old, true, err
}
