package gdirma

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/gdirma/internal/store"
)

// CheckHolders verifies the holders whose primary blocks are on the
// calling rank: every image reads and decodes, the edge references of
// vertices are well formed and ascending, and encoding the decoded
// record gives the image back byte for byte, so that every writer (commits,
// BulkLoad, CSV loads) writes the one format. It returns ErrIntern naming
// the first bad holder. It is local and reads each holder under its read
// lock; on a database that is not quiet a holder may change between the
// reads, which it reports as an error too.
func (db *Database) CheckHolders() error {
	if db.IsFreed() {
		return errFreedDB()
	}
	st := db.st
	for _, k := range []kind{vertexKind, edgeKind} {
		err := st.scanRank(db.rank, k, func(n layout.Number, r *record) error {
			var img store.Image
			ok, err := st.read(n, &store.Request{Mode: store.Chain}, &img)
			if err != nil || !ok {
				return gdi.Errorf(gdi.ErrIntern, "gdirma: holder %v: %v", n.Holder(), err)
			}
			if err := checkRefs(r.raw, r.nraw, r.cd); k == vertexKind && err != nil {
				return gdi.Errorf(gdi.ErrIntern, "gdirma: vertex holder %v: %v", n.Holder(), err)
			}
			if !bytes.Equal(img.Bytes, encodeRecord(k, r, st.Codec(n.Holder()))) {
				return gdi.Errorf(gdi.ErrIntern, "gdirma: %v holder %v: the image is not what encodeRecord writes", k, n.Holder())
			}
			if err := st.checkFences(n, encodeParts(k, r, st.Codec(n.Holder()), nil), img.Chain); err != nil {
				return gdi.Errorf(gdi.ErrIntern, "gdirma: %v holder %v: %v", k, n.Holder(), err)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// checkFences checks the fences in the markers of the continuation blocks
// of holder n, chain, against those of its image p.
func (st *graph) checkFences(n layout.Number, p store.Parts, chain []bgdl.DPtr) error {
	var got []uint16
	var marker [store.ContHeader]byte
	for _, b := range chain[1:] {
		if err := st.Get(marker[:], b, 0); err != nil {
			return err
		}
		fence, _ := store.ContOf(marker[:])
		got = append(got, fence)
	}
	if want := st.FencesOf(n.Holder(), p); !slices.Equal(got, want) && len(got)+len(want) > 0 {
		return fmt.Errorf("continuation blocks have fences %v, want %v", got, want)
	}
	return nil
}

// CheckImplicitIndex verifies the implicit index (idindex.go) against the
// holders, on the calling rank: every key of a vertex whose primary block
// is on the rank, and of an edge whose origin's is, finds that object (or
// severalObjects, for a key without label), and every entry the rank
// keeps names an object that has that key. It returns ErrIntern naming
// the first disagreement. Like CheckHolders, it is local and exact only on
// a quiet database.
func (db *Database) CheckImplicitIndex() error {
	if db.IsFreed() {
		return errFreedDB()
	}
	st := db.st
	var buf [2]idKey
	check := func(k kind, n layout.Number, r *record) error {
		for _, key := range keysOf(r, buf[:]) {
			v, found, err := st.IDs().Lookup(dhtLabel(k, key.label), dhtKey(key.id))
			if err != nil {
				return internal(err)
			}
			if !found || layout.Number(v) != n && !(v == severalObjects && key.label == uint32(gdi.LabelNone)) {
				return gdi.Errorf(gdi.ErrIntern, "gdirma: %v %v, label %s, ID %q: the implicit index finds %v (%v)", k, n, db.labelText(key.label), key.id, layout.Number(v), found)
			}
		}
		return nil
	}
	err := st.scanRank(db.rank, vertexKind, func(v layout.Number, r *record) error {
		if err := check(vertexKind, v, r); err != nil {
			return err
		}
		return st.originEdges(v, r, func(e layout.Number, er *record, _ int) error { return check(edgeKind, e, er) })
	})
	if err != nil {
		return err
	}
	return internal(st.IDs().Range(db.rank, func(label uint32, key []byte, v uint64) error {
		k, l := vertexKind, label
		if label&edgeKeys != 0 {
			k, l = edgeKind, label&^edgeKeys
		}
		if v == severalObjects && l == uint32(gdi.LabelNone) {
			return nil // objects without labels, or none: lookups scan
		}
		r, err := st.loadObject(k, layout.Number(v))
		if err != nil {
			return err
		}
		if r != nil {
			for _, kk := range keysOf(r, buf[:]) {
				if kk.label == l && string(dhtKey(kk.id)) == string(key) {
					return nil
				}
			}
		}
		return fmt.Errorf("the implicit index maps %v label %s, key %q to %v, which has no such label and ID", k, db.labelText(l), key, layout.Number(v))
	}))
}
