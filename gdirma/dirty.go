package gdirma

import (
	"bytes"
	"fmt"

	"github.com/gdi-go/gdi/bgdl"
)

// A commit that only turned edge references of a vertex into tombstones
// (record.delRef on a long image) leaves the image its length: the blocks
// it needs are the ones it has, and only the blocks holding the head
// (labels, properties, degrees, count) and the changed references differ.
// It writes those and the primary block (for the version), not the rest:
// deleting a vertex then writes one or two blocks of each neighbour
// instead of all of them. Under invariants every such write is read back
// and compared with the whole image.

// dirtySpan names the bytes of an image that may differ from what its
// blocks hold: all of them, or (with some set) those before head and
// those in [lo, hi).
type dirtySpan struct {
	some         bool
	head, lo, hi int
}

// covers reports whether image bytes [from, to) may have changed.
func (d dirtySpan) covers(from, to int) bool {
	return !d.some || from < d.head || (from < d.hi && d.lo < to)
}

// dirtyOf is what of c's new image b differs from the image in its
// blocks chain: only the head and the references turned into tombstones
// if the references have the length they had (see rawEdit), else all.
func dirtyOf(c change, b imageParts, chain []uint64) dirtySpan {
	r := c.new
	if c.k != vertexKind || c.old == nil || !r.edit.on || b.tail == nil || len(chain) == 0 ||
		int(c.old.imgLen) != b.len() || c.old.version == 0 {
		return dirtySpan{}
	}
	head := len(b.head) // b.tail is r.raw
	return dirtySpan{some: true, head: head, lo: head + int(r.edit.lo), hi: head + int(r.edit.hi)}
}

// checkWritten panics if the holder of c does not hold img after a write
// that skipped unchanged blocks or bytes. The caller holds its write lock.
func (st *store) checkWritten(c change, img imageParts) {
	got, ok, err := st.readImage(c.n, readWhole)
	want := append(append([]byte(nil), img.head...), img.tail...)
	if err != nil || !ok || !bytes.Equal(got.bytes, want) {
		panic(fmt.Sprintf("gdirma: holder %v after a write of changed blocks or bytes only: %v %v, image differs", bgdl.DPtr(c.n), ok, err))
	}
}
