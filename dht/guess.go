package dht

import "encoding/binary"

// Answer is what Guess learned of a key.
type Answer uint8

const (
	// Unknown: the bucket's home entry does not hold the key, and the
	// chain must be walked (Lookup).
	Unknown Answer = iota
	// Absent: the bucket was empty when it was read. This is as sure as
	// a Lookup that found nothing.
	Absent
	// Likely: the home entry held the key with the value returned. The
	// copy was not checked against the links, so a concurrent delete and
	// reuse of the entry may have torn it: the caller must check the
	// value against what it names (a vertex holder has its IDs) and fall
	// back to Lookup if they disagree.
	Likely
)

// SlotHeader is the bytes of a bucket slot before its home entry's key:
// Guess reads them and the key's length rounded up to words, and uses a
// scratch buffer of that many bytes as it is.
const SlotHeader = slotEntry + headerSize

// Guess reads the bucket slot of (label, key) in one access, the link, the
// home entry's state and the home entry, where Lookup reads the link, the
// entry and the link again. Most keys live in their bucket's home entry,
// so for them one round trip answers Likely; a caller that can check the
// value cheaply, and must read what it names anyway, saves two. scratch
// is used if it is long enough (SlotHeader).
func (t *Table) Guess(label uint32, key []byte, scratch []byte) (uint64, Answer, error) {
	if err := t.checkKey(key); err != nil {
		return 0, Unknown, err
	}
	n := SlotHeader + (len(key)+7)&^7
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
	head := binary.LittleEndian.Uint64(buf)
	if entryOf(head) == 0 {
		return 0, Absent, nil
	}
	entry := buf[slotEntry:]
	used := binary.LittleEndian.Uint64(buf[slotState:]) == homeUsed
	if !used || marked(binary.LittleEndian.Uint64(entry)) || !t.holds(entry, h, label, key) {
		return 0, Unknown, nil
	}
	return binary.LittleEndian.Uint64(entry[8:]), Likely, nil
}
