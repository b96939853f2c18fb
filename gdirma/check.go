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

// CheckImplicitIndex verifies the implicit index against the vertex
// holders, on the calling rank: every (label, ID) of a vertex whose
// primary block is on the rank finds that vertex, and every entry the rank
// keeps names a vertex that has that label and ID. It returns ErrIntern
// naming the first disagreement. Like CheckHolders, it is local and exact
// only on a quiet database.
func (db *Database) CheckImplicitIndex() error {
	if db.IsFreed() {
		return errFreedDB()
	}
	st := db.st
	err := st.scanRank(db.rank, vertexKind, func(n layout.Number, r *record) error {
		for _, key := range r.idKeys() {
			if key.label == uint32(gdi.LabelNone) {
				continue
			}
			v, found, err := st.IDs().Lookup(key.label, dhtKey(key.id))
			if err != nil {
				return internal(err)
			}
			if !found || layout.Number(v) != n {
				return gdi.Errorf(gdi.ErrIntern, "gdirma: vertex %v, label %d, ID %q: the implicit index finds %v (%v)", n.Holder(), key.label, key.id, layout.Number(v).Holder(), found)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return internal(st.IDs().Range(db.rank, func(label uint32, key []byte, v uint64) error {
		n := layout.Number(v)
		r, err := st.load(vertexKind, n)
		if err != nil {
			return err
		}
		if r != nil {
			for _, k := range r.idKeys() {
				if k.label == label && string(dhtKey(k.id)) == string(key) {
					return nil
				}
			}
		}
		return fmt.Errorf("the implicit index maps label %d, key %q to %v, which has no such label and ID", label, key, n.Holder())
	}))
}
