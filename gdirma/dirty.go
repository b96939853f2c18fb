package gdirma

import (
	"bytes"
	"fmt"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/gdirma/internal/store"
)

// A commit that only turned edge references of a vertex into tombstones
// (record.delRef on a long image) leaves the image its length: the blocks
// it needs are the ones it has, and only the blocks holding the head
// (labels, properties, degrees, count) and the changed references differ.
// It writes those and the primary block (for the version), not the rest:
// deleting a vertex then writes one or two blocks of each neighbour
// instead of all of them. Under invariants every such write is read back
// and compared with the whole image.

// dirtyOf is what of c's new image b differs from the image in its
// blocks chain: only the head and the references turned into tombstones
// if the references have the length they had (see rawEdit), else all.
func dirtyOf(c change, b store.Parts, chain []bgdl.DPtr) store.Dirty {
	r := c.new
	if c.k != vertexKind || c.old == nil || !r.edit.on || b.Tail == nil || len(chain) == 0 ||
		int(c.old.imgLen) != b.Len() || c.old.version == 0 {
		return store.Dirty{}
	}
	head := len(b.Head) // b.Tail is r.raw
	return store.Dirty{Some: true, Head: head, Lo: head + int(r.edit.lo), Hi: head + int(r.edit.hi)}
}

// checkWritten panics if the holder of c does not hold img after a write
// that skipped unchanged blocks or bytes. The caller holds its write lock.
func (st *graph) checkWritten(c change, img store.Parts) {
	var got store.Image
	ok, err := st.read(c.n, &store.Request{}, &got)
	want := append(append([]byte(nil), img.Head...), img.Tail...)
	if err != nil || !ok || !bytes.Equal(got.Bytes, want) {
		panic(fmt.Sprintf("gdirma: holder %v after a write of changed blocks or bytes only: %v %v, image differs", c.n.Holder(), ok, err))
	}
}
