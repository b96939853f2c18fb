package gdirma

import (
	"encoding/binary"
	"errors"
	"sync"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/gdirma/internal/store"
)

var (
	_ gdi.AdjacencyScanner         = (*Transaction)(nil)
	_ gdi.KeyedAdjacencyReader     = (*Transaction)(nil)
	_ gdi.KeyedEdgePropertyScanner = (*Transaction)(nil)
)

// ScanLocalAdjacency (gdi.AdjacencyScanner) walks the calling rank's
// primary blocks in order (store.ScanPrimaries reads them a megabyte at a
// time), reads the image of each vertex holder (store.Read, as any read)
// and decodes its ID and edge references straight from the bytes: no
// record, no copy in the transaction, no holder per vertex or edge. A
// collective read transaction runs on a quiet database and writes
// nothing, so there is nothing of its own to lay over what the blocks
// hold.
func (tx *Transaction) ScanLocalAdjacency(idx gdi.Index, fn func(v *gdi.LocalAdjacency) error) error {
	var out gdi.LocalAdjacency
	return tx.scanIndex(idx, func(n layout.Number, id, refs []byte) error {
		out.UID, out.ID, out.Edges = tx.vertexUID(n), id, out.Edges[:0]
		err := tx.walkRefs(n, refs, func(e layout.Number, x layout.Ref, other layout.Number, isO, isT bool) bool {
			out.Edges = append(out.Edges, gdi.IncidentEdge{UID: tx.edgeUID(e), Direction: x.Dir, Other: tx.vertexUID(other), IsOrigin: isO, IsTarget: isT})
			return true
		})
		if err != nil {
			return err
		}
		return fn(&out)
	})
}

// KeyLimit (gdi.KeyedAdjacencyScanner): a vertex's key is the number of
// its primary block on its rank, which is at most the rank's high-water
// mark of blocks handed out.
func (tx *Transaction) KeyLimit(rank int) (uint64, error) {
	if rank < 0 || rank >= tx.db.st.Size() {
		return 0, gdi.Errorf(gdi.ErrArgument, "KeyLimit: rank %d of %d", rank, tx.db.st.Size())
	}
	hw, err := tx.db.st.HighWater(rank)
	return uint64(hw) + 1, err
}

// ScanLocalKeyed (gdi.KeyedAdjacencyScanner) is ScanLocalAdjacency with
// keys: the block number of each end's primary block, and its rank. The
// edges are decoded as the reader ranges over them.
func (tx *Transaction) ScanLocalKeyed(idx gdi.Index, fn func(v *gdi.KeyedAdjacency) error) error {
	k := newKeyedVertex(tx)
	return tx.scanIndex(idx, func(n layout.Number, id, refs []byte) error {
		return k.hand(n, id, refs, fn)
	})
}

// ReadLocalKeyed (gdi.KeyedAdjacencyReader) reads the image of the vertex
// whose primary block is block key of the calling rank, as the scan does,
// and hands it out without its ID.
func (tx *Transaction) ReadLocalKeyed(key uint64, fn func(v *gdi.KeyedAdjacency) error) error {
	if err := tx.scanning(); err != nil {
		return err
	}
	st := tx.db.st
	if blocks := uint64(st.Pool().Blocks()); key == 0 || key >= blocks {
		// Not KeyLimit: that is a read of a control word, where this
		// bound costs nothing. A block past it holds no vertex.
		return gdi.Errorf(gdi.ErrArgument, "ReadLocalKeyed: key %d outside the blocks [1, %d)", key, blocks)
	}
	k := keyedVertices.Get().(*keyedVertex)
	defer keyedVertices.Put(k)
	k.tx = tx
	if cap(k.room) < 16*st.BlockSize() {
		k.room = make([]byte, 16*st.BlockSize())
	}
	var img store.Image
	p := st.BlockAt(st.Rank(), int(key))
	ok, err := st.Read(p, &store.Request{Pool: &k.pool, Small: k.room}, &img)
	defer func() { st.PutImages(k.pool); k.pool = k.pool[:0] }()
	if err != nil {
		return err
	}
	if !ok || img.Kind != vertexKind {
		return gdi.Errorf(gdi.ErrVertex, "ReadLocalKeyed: key %d names no vertex", key)
	}
	end, _, _, err := layout.HeadEnd(img.Bytes)
	if err != nil {
		return gdi.Errorf(gdi.ErrIntern, "gdirma: vertex %v: %v", p, err)
	}
	return k.hand(layout.NumberOf(p), nil, img.Bytes[end:], fn)
}

// ScanLocalEdgeProperty (gdi.KeyedEdgePropertyScanner) walks the calling
// rank's primary blocks of edge holders in order, as the vertex scan
// does, and decodes pt's values from the head of each image.
func (tx *Transaction) ScanLocalEdgeProperty(pt gdi.PropertyType, fn func(key uint64, vals []gdi.Value) error) error {
	if err := tx.scanning(); err != nil {
		return err
	}
	ptNum, _, err := tx.db.PtypeNum(pt)
	if err != nil {
		return err
	}
	var vals []gdi.Value
	return tx.eachImage(edgeKind, func(p bgdl.DPtr, b []byte) (err error) {
		if vals, err = edgeValues(b, ptNum, vals[:0]); err != nil {
			return gdi.Errorf(gdi.ErrIntern, "gdirma: edge holder %v: %v", p, err)
		}
		return fn(uint64(tx.db.st.BlockIndex(p)), vals)
	})
}

// eachImage calls fn with every holder of kind k whose primary block is on
// the calling rank, in block order, and its image, which is valid until
// fn returns: the scans read their blocks a megabyte at a time
// (store.ScanPrimaries) and each image into one room.
func (tx *Transaction) eachImage(k kind, fn func(p bgdl.DPtr, b []byte) error) error {
	st := tx.db.st
	var img store.Image
	var pool []*[]byte
	room := make([]byte, 16*st.BlockSize()) // for every image but long ones
	return st.ScanPrimaries(st.Rank(), k, func(p bgdl.DPtr) error {
		defer func() { st.PutImages(pool); pool = pool[:0] }()
		ok, err := st.Read(p, &store.Request{Pool: &pool, Small: room}, &img)
		if err != nil || !ok {
			return err
		}
		return fn(p, img.Bytes)
	})
}

// edgeValues appends to vals the values of property type pt in the head
// of edge image b.
func edgeValues(b []byte, pt uint32, vals []gdi.Value) ([]gdi.Value, error) {
	w := layout.WalkHead(b)
	for range w.Count() {
		w.Uvarint()
	}
	for n := w.Count(); n > 0 && w.OK(); n-- {
		if p, dt, raw := w.Property(); p == pt && w.OK() {
			v, err := gdi.NewValue(dt, raw)
			if err != nil {
				return nil, err
			}
			vals = append(vals, v)
		}
	}
	if !w.OK() {
		return nil, errors.New("a corrupt head")
	}
	return vals, nil
}

// keyedVertices keeps the keyedVertex of ReadLocalKeyed between calls.
var keyedVertices = sync.Pool{New: func() any { return newKeyedVertex(nil) }}

// keyedVertex hands out one vertex after another as a gdi.KeyedAdjacency
// whose Edges, made once, decode the references of the vertex at hand.
type keyedVertex struct {
	tx   *Transaction
	out  gdi.KeyedAdjacency
	n    layout.Number
	refs []byte
	err  error // of decoding the edges of the vertex at hand
	room []byte
	pool []*[]byte
}

func newKeyedVertex(tx *Transaction) *keyedVertex {
	k := &keyedVertex{tx: tx}
	k.out.Edges = k.edges
	return k
}

// hand calls fn with vertex n, whose ID is id and whose references are
// in refs, and returns fn's error or that of decoding its edges.
func (k *keyedVertex) hand(n layout.Number, id, refs []byte, fn func(v *gdi.KeyedAdjacency) error) error {
	k.n, k.refs, k.err = n, refs, nil
	k.out.Key, k.out.ID = uint64(k.tx.db.st.BlockIndex(n.Holder())), id
	deg, _, err := layout.Degrees(refs)
	if err != nil {
		return gdi.Errorf(gdi.ErrIntern, "gdirma: vertex %v: %v", n.Holder(), err)
	}
	k.out.Degree = deg[0]
	if err := fn(&k.out); err != nil {
		return err
	}
	return k.err
}

// edges is the iterator of k.out.Edges.
func (k *keyedVertex) edges(yield func(gdi.KeyedEdge) bool) {
	st := k.tx.db.st
	err := k.tx.walkRefs(k.n, k.refs, func(e layout.Number, x layout.Ref, other layout.Number, isO, isT bool) bool {
		p := other.Holder()
		out := gdi.KeyedEdge{Home: p.Rank(), Key: uint64(st.BlockIndex(p)), Direction: x.Dir, IsOrigin: isO, IsTarget: isT}
		if layout.IsLight(e) {
			e = x.Holder // 0 while it has none
		}
		if e != 0 {
			h := e.Holder()
			out.HolderHome, out.HolderKey = h.Rank(), uint64(st.BlockIndex(h))
		}
		return yield(out)
	})
	if err != nil && k.err == nil {
		k.err = err
	}
}

// scanning returns the error of a scan or keyed read outside a valid
// collective read transaction.
func (tx *Transaction) scanning() error {
	tx.mu.Lock()
	err := tx.valid()
	tx.mu.Unlock() // the scan's fn may call the transaction's methods
	if err == nil && tx.typ != gdi.CollectiveReadTransaction {
		err = gdi.Errorf(gdi.ErrTransaction, "scan of local adjacency: only in a collective read transaction")
	}
	return err
}

// scanIndex calls fn for every vertex of idx whose primary block is on the
// calling rank, with its ID (nil if none) and the part of its image after
// the labels and properties. It checks what both scans require.
func (tx *Transaction) scanIndex(idx gdi.Index, fn func(n layout.Number, id, refs []byte) error) error {
	if err := tx.scanning(); err != nil {
		return err
	}
	labels, ptypes, err := tx.db.IndexSets(idx)
	if err != nil {
		return err
	}
	idNum, _, err := tx.db.PtypeNum(gdi.PropertyTypeID)
	if err != nil {
		return err
	}
	h := headFilter{db: tx.db, labels: labels, ptypes: ptypes, idNum: idNum}
	return tx.eachImage(vertexKind, func(p bgdl.DPtr, b []byte) error {
		n := layout.NumberOf(p)
		id, refs, in, err := h.check(n, b)
		if err != nil || !in {
			return err
		}
		return fn(n, id, refs)
	})
}

// headFilter tells the vertices of an index from the head of their image.
type headFilter struct {
	db     *Database
	labels []gdi.Label
	ptypes []gdi.PropertyType
	idNum  uint32
	vl     []gdi.Label
	vp     []gdi.PropertyType
}

// check returns, if vertex n of image b is in the index, its ID and the
// bytes after its head.
func (h *headFilter) check(n layout.Number, b []byte) (id, refs []byte, ok bool, err error) {
	end, nl, np, err := layout.HeadEnd(b)
	if err != nil {
		return nil, nil, false, gdi.Errorf(gdi.ErrIntern, "gdirma: vertex %v: %v", n.Holder(), err)
	}
	h.vl, h.vp = h.vl[:0], h.vp[:0]
	w := layout.WalkHead(b[:end])
	w.Count()
	for range nl {
		h.vl = append(h.vl, h.db.LabelHandle(uint32(w.Uvarint())))
	}
	w.Count()
	for range np {
		pt, _, raw := w.Property()
		h.vp = append(h.vp, h.db.PtypeHandle(pt))
		if pt == h.idNum {
			id = raw
		}
	}
	return id, b[end:], gdi.IndexCovers(h.labels, h.ptypes, h.vl, h.vp), nil
}

// walkRefs calls f for every edge reference of vertex n in b, the bytes
// of its image after the head (degrees, count, references), but stubs,
// until f returns false: the edge's number, the reference, the other end,
// and whether n is its origin and its target.
func (tx *Transaction) walkRefs(n layout.Number, b []byte, f func(e layout.Number, x layout.Ref, other layout.Number, isO, isT bool) bool) error {
	_, rest, err := layout.Degrees(b)
	count, k := binary.Uvarint(rest)
	if err != nil || k <= 0 {
		return gdi.Errorf(gdi.ErrIntern, "gdirma: vertex %v: a corrupt image", n.Holder())
	}
	refs, cd := rest[k:], tx.db.st.Codec(n.Holder())
	for range count {
		e, x, next, ok := cd.Next(refs)
		if !ok {
			return gdi.Errorf(gdi.ErrIntern, "gdirma: vertex %v: a corrupt reference", n.Holder())
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
		if !f(e, x, other, isO, isT) {
			break
		}
	}
	return nil
}
