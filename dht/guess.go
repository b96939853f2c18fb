package dht

import "encoding/binary"

// Answer is what Guess learned of a key.
type Answer uint8

const (
	// Unknown: no home entry of the bucket holds the key, and the chain
	// must be walked (Lookup).
	Unknown Answer = iota
	// Absent: the bucket's chain, as read, ended within its home entries,
	// none of which held the key. This is as sure as a Lookup that found
	// nothing.
	Absent
	// Likely: a home entry held the key with the value returned. The
	// copy was not checked against the links, so a concurrent delete and
	// reuse of the entry may have torn it: the caller must check the
	// value against what it names (a vertex holder has its IDs) and fall
	// back to Lookup if they disagree.
	Likely
)

// GuessSize is the room a Guess of a key of keyLen bytes reads into: the
// bucket slot up to the end of that key in the last home entry. A scratch
// buffer of that many bytes is used as it is.
func (t *Table) GuessSize(keyLen int) int {
	return slotEntries + (Homes-1)*t.entrySize + headerSize + (keyLen+7)&^7
}

// Guess reads the bucket slot of (label, key) in one access, the link and
// the home entries, where Lookup reads the link,
// an entry and the link again for each entry of the chain. Most keys live
// in one of their bucket's home entries, so for them one round trip
// answers Likely; a caller that can check the value cheaply, and must read
// what it names anyway, saves two. scratch is used if it is long enough
// (GuessSize).
func (t *Table) Guess(label uint32, key []byte, scratch []byte) (uint64, Answer, error) {
	if err := t.checkKey(key); err != nil {
		return 0, Unknown, err
	}
	n := t.GuessSize(len(key))
	if len(scratch) < n {
		scratch = make([]byte, n)
	}
	buf := scratch[:n]
	h := Hash(label, key)
	r, b := t.place(h)
	if err := t.table.Get(buf, r, b*t.slotSize); err != nil {
		return 0, Unknown, err
	}
	if err := t.table.Flush(r); err != nil {
		return 0, Unknown, err
	}
	for i := range Homes {
		entry := buf[slotEntries+i*t.entrySize:]
		l := binary.LittleEndian.Uint64(entry)
		if used(l) && !marked(l) && t.holds(entry, h, label, key) {
			return binary.LittleEndian.Uint64(entry[8:]), Likely, nil
		}
	}
	if t.chainInSlot(buf, b) {
		return 0, Absent, nil
	}
	return 0, Unknown, nil
}

// chainInSlot reports whether the chain of bucket b, as buf (its slot,
// read by Guess) has it, ends before it leaves the slot's home entries,
// none of which held the key. Each link word is read whole, and a key
// present throughout the read stays reachable in every state of the chain
// a link was read in (entries are only ever unlinked from a chain after
// the key in them is deleted, and a reused entry links to the chain as it
// then is), so the key was absent at some moment of the read: as sure as
// a Lookup that found nothing.
func (t *Table) chainInSlot(buf []byte, b int) bool {
	l := binary.LittleEndian.Uint64(buf)
	for range Homes + 1 {
		e := entryOf(l)
		if e == 0 {
			return true
		}
		if e <= b*Homes || e > (b+1)*Homes {
			return false // an overflow entry, or another bucket's
		}
		l = binary.LittleEndian.Uint64(buf[slotEntries+(e-1-b*Homes)*t.entrySize:])
	}
	return false
}
