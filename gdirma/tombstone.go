package gdirma

import "slices"

// Tombstones in records. record.delRef turns a reference of a long image
// into a tombstone of its size (layout/codec.go) instead of cutting it out, so
// that the commit writes only the blocks that changed (dirty.go). Two
// things make that safe: rawEdit says where the references differ from
// the image read, and rawOwner says whether the bytes may be changed in
// place, and what must be kept to undo it.

// rawEdit describes the changes to a record's encoded references since
// they were read. With on set, raw has the length of the references of
// the image and differs from them in raw[lo:hi] at most: references were
// only turned into tombstones. Any other change turns it off.
type rawEdit struct {
	lo, hi int32
	on     bool
}

// add widens the changed range by raw[lo:hi].
func (e *rawEdit) add(lo, hi int32) {
	if e.lo == e.hi {
		e.lo, e.hi = lo, hi
		return
	}
	e.lo, e.hi = min(e.lo, lo), max(e.hi, hi)
}

// rawOwner tells who may share the bytes of a record's references.
type rawOwner uint8

const (
	ownNone rawOwner = iota // anyone: copied before any change
	ownSelf                 // the record alone: changed in place
	// only the transaction's committed copy of the record (txObj.orig):
	// changed in place, keeping the bytes overwritten (record.undo).
	ownOrig
)

// deadPatch is a reference that was turned into a tombstone in place: its
// offset in raw and its bytes, kept in the patch itself.
type deadPatch struct {
	off int32
	n   uint8
	b   [32]byte // a reference takes at most 29 bytes
}

// newDeadPatch returns the patch of the reference b at offset off.
func newDeadPatch(off int, b []byte) deadPatch {
	p := deadPatch{off: int32(off), n: uint8(len(b))}
	copy(p.b[:], b)
	return p
}

// restored returns a copy of raw with the references of patches put
// back.
func restored(raw []byte, patches []deadPatch) []byte {
	raw = slices.Clone(raw)
	for i := len(patches) - 1; i >= 0; i-- {
		copy(raw[patches[i].off:], patches[i].b[:patches[i].n])
	}
	return raw
}
