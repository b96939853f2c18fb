package olap

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdiutil"
	"github.com/gdi-go/gdi/rma"
)

// MLP is a two-layer perceptron: Apply(x) = W2·relu(W1·x + B1) + B2.
type MLP struct {
	W1 [][]float64 // hidden × in
	B1 []float64   // hidden
	W2 [][]float64 // out × hidden
	B2 []float64   // out
}

// Apply evaluates the perceptron on x.
func (m MLP) Apply(x []float64) ([]float64, error) {
	if len(m.W1) != len(m.B1) || len(m.W2) != len(m.B2) {
		return nil, fmt.Errorf("olap: MLP with %d/%d hidden and %d/%d output rows and biases", len(m.W1), len(m.B1), len(m.W2), len(m.B2))
	}
	h := make([]float64, len(m.W1))
	for i, row := range m.W1 {
		if len(row) != len(x) {
			return nil, fmt.Errorf("olap: MLP input of %d features, want %d", len(x), len(row))
		}
		s := m.B1[i]
		for j, w := range row {
			s += w * x[j]
		}
		h[i] = max(s, 0)
	}
	y := make([]float64, len(m.W2))
	for i, row := range m.W2 {
		if len(row) != len(h) {
			return nil, fmt.Errorf("olap: MLP output row of %d weights, want %d", len(row), len(h))
		}
		s := m.B2[i]
		for j, w := range row {
			s += w * h[j]
		}
		y[i] = s
	}
	return y, nil
}

// GNNLayer is one layer of a graph convolution as in Listing 2 of the GDI
// paper: for every vertex v of index,
//
//	feature(v) = tanh(MLP(feature(v) + Σ feature(n) over out-neighbours n))
//
// (undirected edges count as out-edges, every neighbour counts once, and
// neighbours outside index are left out). Features are the Double
// property feature of the vertices, all of one length.
//
// The layer reads the graph once: a collective read transaction extracts
// it (Extract) and reads the features, first label and ID of every rank's
// local vertices; the features of remote neighbours come from their
// owners in one halo exchange, not from a read per edge. Every rank then
// writes the new features of its local vertices in a single-process
// transaction, finding each by its ID under its first label (UIDs do not
// outlive their transaction), so that the transaction holds no scan of
// the index to check again at its commit. It is collective and needs a
// quiet database.
func GNNLayer(db gdi.Database, comm rma.Comm, index gdi.Index, feature gdi.PropertyType, m MLP) error {
	coll, err := db.StartCollectiveTransaction()
	if err != nil {
		return err
	}
	g, err := Extract(coll, comm, ExtractOptions{Index: index})
	if err != nil {
		coll.Abort()
		return err
	}
	keys := make([]VertexKey, g.NumLocal)
	rows, width, err := gnnFeatures(coll, g, index, feature, keys)
	if err != nil {
		coll.Abort()
		return err
	}
	if err := coll.Commit(); err != nil {
		return err
	}
	if err := exchangeRows(g, rows, width); err != nil {
		return err
	}
	out, err := gnnApply(g, rows, width, m)
	if err = rma.Agree(comm, err); err != nil {
		return err
	}
	err = gdiutil.RunTransaction(context.Background(), db, func(t gdi.Transaction) error {
		w := len(m.B2)
		for i, k := range keys {
			uid, ok, err := t.TranslateVertexID(k.Label, k.ID)
			if err != nil || !ok {
				return fmt.Errorf("olap: vertex %q not found again (%v)", k.ID, err)
			}
			h, err := t.AssociateVertex(uid)
			if err == nil {
				err = h.UpdateProperty(feature, gdi.Doubles(out[i*w:(i+1)*w]...))
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	return rma.Agree(comm, err) // all written before the next layer reads
}

// gnnFeatures reads the features of the local vertices of index in t, and
// their keys into keys (by local index): rows holds a row of width
// features per slot of g, those of the ghosts still empty. It is
// collective.
func gnnFeatures(t gdi.Transaction, g *Graph, index gdi.Index, feature gdi.PropertyType, keys []VertexKey) (rows []float64, width int, err error) {
	feats := make([][]float64, g.NumLocal)
	err = eachLocal(t, g, index, func(h gdi.VertexHolder, i int32) (err error) {
		if keys[i], err = vertexKey(h); err == nil {
			feats[i], err = features(h, feature)
		}
		return err
	})
	widest := []int64{0}
	for _, f := range feats {
		widest[0] = max(widest[0], int64(len(f)))
	}
	if err := g.comm.AllreduceInt64(widest, rma.OpMax); err != nil {
		return nil, 0, err
	}
	width = int(widest[0])
	rows = make([]float64, width*g.NumSlots())
	for i, f := range feats {
		if len(f) != width && err == nil {
			err = fmt.Errorf("olap: vertex %d has %d features, another %d", g.ID[i], len(f), width)
		}
		copy(rows[i*width:], f)
	}
	return rows, width, rma.Agree(g.comm, err)
}

// eachLocal calls fn for every local vertex of index in t, with its local
// index in g, which it finds by application-level ID.
func eachLocal(t gdi.Transaction, g *Graph, index gdi.Index, fn func(h gdi.VertexHolder, i int32) error) error {
	slotOf := make(map[uint64]int32, g.NumLocal)
	for i, id := range g.ID[:g.NumLocal] {
		slotOf[id] = int32(i)
	}
	vs, err := t.LocalVerticesOfIndex(index, nil)
	if err != nil {
		return err
	}
	if len(vs) != g.NumLocal {
		return fmt.Errorf("olap: %d local vertices in the index, %d extracted", len(vs), g.NumLocal)
	}
	for _, v := range vs {
		h, err := t.AssociateVertex(v)
		if err != nil {
			return err
		}
		id, err := h.Properties(gdi.PropertyTypeID)
		if err != nil || len(id) != 1 {
			return fmt.Errorf("olap: vertex %v has no application-level ID (%v)", v, err)
		}
		x, err := ParseID(id[0].Raw())
		if err != nil {
			return err
		}
		i, ok := slotOf[x]
		if !ok {
			return fmt.Errorf("olap: vertex %d was not extracted", x)
		}
		if err := fn(h, i); err != nil {
			return err
		}
	}
	return nil
}

// gnnApply returns the new features of the local vertices, a row of
// len(m.B2) each, from rows, the features of all slots.
func gnnApply(g *Graph, rows []float64, width int, m MLP) ([]float64, error) {
	out := make([]float64, 0, g.NumLocal*len(m.B2))
	acc := make([]float64, width)
	var nb []int32
	for i := range g.NumLocal {
		copy(acc, rows[i*width:(i+1)*width])
		nb = append(nb[:0], g.Out[g.OutOff[i]:g.OutOff[i+1]]...)
		slices.Sort(nb)
		for _, s := range slices.Compact(nb) {
			for j, x := range rows[int(s)*width : int(s+1)*width] {
				acc[j] += x
			}
		}
		y, err := m.Apply(acc)
		if err != nil {
			return nil, err
		}
		for _, x := range y {
			out = append(out, math.Tanh(x))
		}
	}
	return out, nil
}

func features(h gdi.VertexHolder, feature gdi.PropertyType) ([]float64, error) {
	vals, err := h.Properties(feature)
	if err != nil {
		return nil, err
	}
	if len(vals) != 1 {
		return nil, fmt.Errorf("olap: vertex has %d feature vectors, want 1", len(vals))
	}
	return vals[0].Float64Slice()
}

// SetFeatures gives every vertex of index the feature vector f(id), id its
// application-level ID, in a single-process transaction per rank over the
// rank's local vertices. It is collective and ends with a barrier.
func SetFeatures(db gdi.Database, comm rma.Comm, index gdi.Index, feature gdi.PropertyType, f func(id []byte) []float64) error {
	err := gdiutil.RunTransaction(context.Background(), db, func(tx gdi.Transaction) error {
		vIDs, err := tx.LocalVerticesOfIndex(index, nil)
		if err != nil {
			return err
		}
		for _, v := range vIDs {
			h, err := tx.AssociateVertex(v)
			if err != nil {
				return err
			}
			id, err := h.Properties(gdi.PropertyTypeID)
			if err != nil {
				return err
			}
			if len(id) != 1 {
				return fmt.Errorf("olap: vertex %v has no application-level ID", v)
			}
			if err := h.SetProperty(feature, gdi.Doubles(f(id[0].Raw())...)); err != nil {
				return err
			}
		}
		return nil
	})
	if err = rma.Agree(comm, err); err != nil {
		return err
	}
	return comm.Barrier()
}
