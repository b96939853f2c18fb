package dht

// Prefetch starts loading the bucket slot of (label, key) into the cache,
// where the table's window can (rma.Prefetcher), and returns at once. The
// slot holds the bucket's link and its home entries, which is all a
// lookup reads for most keys. It is a hint: a key longer than the table's limit
// is ignored, and so is a freed table.
func (t *Table) Prefetch(label uint32, key []byte) {
	if t.pf == nil || len(key) > t.maxKey {
		return
	}
	r, b := t.place(Hash(label, key))
	t.pf.Prefetch(r, b*t.slotSize, min(t.slotSize, 2*cacheLine))
}
