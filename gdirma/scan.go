package gdirma

import (
	"crypto/sha256"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/dht"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
)

// scan calls fn for every committed object of kind k, rank by rank. It
// reads the marker words up to each rank's high-water mark, then loads each
// primary block it found (readImage).
func (st *graph) scan(k kind, fn func(n layout.Number, r *record) error) error {
	if k == edgeKind {
		return st.scanEdges(fn)
	}
	return st.scanHolders(k, fn)
}

// scanHolders calls fn for every committed holder of kind k.
func (st *graph) scanHolders(k kind, fn func(n layout.Number, r *record) error) error {
	for rank := range st.Size() {
		if err := st.scanRank(rank, k, fn); err != nil {
			return err
		}
	}
	return nil
}

// scanRank calls fn for every committed holder of kind k whose primary
// block is on rank.
func (st *graph) scanRank(rank int, k kind, fn func(n layout.Number, r *record) error) error {
	return st.ScanPrimaries(rank, k, func(p bgdl.DPtr) error {
		n := layout.NumberOf(p)
		r, err := st.load(k, n)
		if err != nil || r == nil {
			return err
		}
		return fn(n, r)
	})
}

// scanEdges is scan for edges: every edge is found in the holder of its
// origin, which keeps all of a lightweight edge and the holder of a
// heavyweight one.
func (st *graph) scanEdges(fn func(n layout.Number, r *record) error) error {
	return st.scanHolders(vertexKind, func(v layout.Number, r *record) error {
		return st.originEdges(v, r, func(e layout.Number, er *record, _ int) error { return fn(e, er) })
	})
}

// originEdges calls fn for every edge whose origin is vertex v (record r),
// with its number, its record and its home rank (of its holder, or of v
// for a lightweight edge).
func (st *graph) originEdges(v layout.Number, r *record, fn func(e layout.Number, er *record, home int) error) error {
	for _, ee := range r.refList() {
		e, x := ee.n, ee.ref
		if x.Origin != v {
			continue
		}
		er, home := refRecord(x, e), v.Holder().Rank()
		if !x.Lightweight(e) {
			h := e
			if layout.IsLight(e) {
				h = x.Holder
			}
			var err error
			if er, err = st.load(edgeKind, h); err != nil {
				return err
			}
			if er == nil {
				continue // deleted since the vertex was read
			}
			home = h.Holder().Rank()
		}
		if err := fn(e, er, home); err != nil {
			return err
		}
	}
	return nil
}

// loadEdge returns the committed edge numbered e, or nil if there is none.
func (st *graph) loadEdge(e layout.Number) (*record, error) {
	if !layout.IsLight(e) {
		return st.load(edgeKind, e)
	}
	v := st.lightOrigin(e)
	if !st.Valid(v.Holder()) {
		return nil, nil
	}
	r, err := st.load(vertexKind, v)
	if err != nil || r == nil {
		return nil, err
	}
	x, ok := r.refList().get(e)
	switch {
	case !ok:
		return nil, nil
	case x.Holder != 0:
		return st.load(edgeKind, x.Holder)
	}
	return refRecord(x, e), nil
}

// all returns every committed holder of kind k (lightweight edges are
// part of their vertices' holders).
func (st *graph) all(k kind) (map[layout.Number]*record, error) {
	out := map[layout.Number]*record{}
	err := st.scanHolders(k, func(n layout.Number, r *record) error { out[n] = r; return nil })
	return out, err
}

// idKeyLen is the DHT key length: IDs shorter than it are their own key,
// longer ones are replaced by their SHA-256 digest (exactly idKeyLen
// bytes, so a digest never equals a short ID). A DHT hit is always checked
// against the ID stored in the holder.
const idKeyLen = sha256.Size

// dhtScratch is room for what a DHT lookup of an ID key copies.
const dhtScratch = dht.SlotHeader + dht.Homes*(dht.EntryHeader+idKeyLen)

func dhtKey(id string) []byte {
	if len(id) < idKeyLen {
		return []byte(id)
	}
	d := sha256.Sum256([]byte(id))
	return d[:]
}
