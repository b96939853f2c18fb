package gdirma

import (
	"encoding/binary"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/gdirma/internal/store"
)

var _ gdi.AdjacencyScanner = (*Transaction)(nil)

// ScanLocalAdjacency (gdi.AdjacencyScanner) walks the calling rank's
// primary blocks in order (store.ScanPrimaries reads them a megabyte at a
// time), reads the image of each vertex holder (store.Read, as any read)
// and decodes its ID and edge references straight from the bytes: no
// record, no copy in the transaction, no holder per vertex or edge. A collective read
// transaction runs on a quiet database and writes nothing, so there is
// nothing of its own to lay over what the blocks hold.
func (tx *Transaction) ScanLocalAdjacency(idx gdi.Index, fn func(v *gdi.LocalAdjacency) error) error {
	tx.mu.Lock()
	err := tx.valid()
	tx.mu.Unlock() // fn may call the transaction's methods
	if err != nil {
		return err
	}
	if tx.typ != gdi.CollectiveReadTransaction {
		return gdi.Errorf(gdi.ErrTransaction, "ScanLocalAdjacency: only in a collective read transaction")
	}
	labels, ptypes, err := tx.db.IndexSets(idx)
	if err != nil {
		return err
	}
	idNum, _, err := tx.db.PtypeNum(gdi.PropertyTypeID)
	if err != nil {
		return err
	}
	a := &adjacencyScan{tx: tx, labels: labels, ptypes: ptypes, idNum: idNum, fn: fn}
	st := tx.db.st
	return st.ScanPrimaries(st.rank, vertexKind, func(p bgdl.DPtr) error {
		ok, err := st.Read(p, &store.Request{Pool: &a.pool}, &a.img)
		if err == nil && ok {
			err = a.vertex(layout.NumberOf(p), a.img.Bytes)
		}
		st.PutImages(a.pool)
		a.pool = a.pool[:0]
		return err
	})
}

// adjacencyScan is the state of one ScanLocalAdjacency, reused from
// vertex to vertex.
type adjacencyScan struct {
	tx     *Transaction
	labels []gdi.Label
	ptypes []gdi.PropertyType
	idNum  uint32
	fn     func(v *gdi.LocalAdjacency) error
	img    store.Image
	pool   []*[]byte
	vl     []gdi.Label
	vp     []gdi.PropertyType
	out    gdi.LocalAdjacency
}

// vertex hands vertex n, of image b, to fn if it is in the index.
func (a *adjacencyScan) vertex(n layout.Number, b []byte) error {
	end, nl, np, err := layout.HeadEnd(b)
	if err != nil {
		return gdi.Errorf(gdi.ErrIntern, "gdirma: vertex %v: %v", n.Holder(), err)
	}
	db := a.tx.db
	a.vl, a.vp, a.out.ID = a.vl[:0], a.vp[:0], nil
	w := layout.WalkHead(b[:end])
	w.Count()
	for range nl {
		a.vl = append(a.vl, db.LabelHandle(uint32(w.Uvarint())))
	}
	w.Count()
	for range np {
		pt, _, raw := w.Property()
		a.vp = append(a.vp, db.PtypeHandle(pt))
		if pt == a.idNum {
			a.out.ID = raw
		}
	}
	if !gdi.IndexCovers(a.labels, a.ptypes, a.vl, a.vp) {
		return nil
	}
	a.out.UID = a.tx.vertexUID(n)
	if a.out.Edges, err = a.edges(n, b[end:], a.out.Edges[:0]); err != nil {
		return err
	}
	return a.fn(&a.out)
}

// edges appends to out the incident edges of vertex n whose image, past
// its head, is b: degrees, count, references.
func (a *adjacencyScan) edges(n layout.Number, b []byte, out []gdi.IncidentEdge) ([]gdi.IncidentEdge, error) {
	_, rest, err := layout.Degrees(b)
	count, k := binary.Uvarint(rest)
	if err != nil || k <= 0 {
		return nil, gdi.Errorf(gdi.ErrIntern, "gdirma: vertex %v: a corrupt image", n.Holder())
	}
	refs, cd := rest[k:], a.tx.db.st.Codec(n.Holder())
	for range count {
		e, x, next, ok := cd.Next(refs)
		if !ok {
			return nil, gdi.Errorf(gdi.ErrIntern, "gdirma: vertex %v: a corrupt reference", n.Holder())
		}
		refs = next
		if x.Stub() {
			continue
		}
		isO, isT := x.Origin == n, x.Target == n
		other := x.Origin
		if isO {
			other = x.Target
		}
		out = append(out, gdi.IncidentEdge{UID: a.tx.edgeUID(e), Direction: x.Dir, Other: a.tx.vertexUID(other), IsOrigin: isO, IsTarget: isT})
	}
	return out, nil
}
