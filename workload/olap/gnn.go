package olap

import (
	"fmt"
	"math"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/workload/internal/tx"
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
// (undirected edges count as out-edges). Features are the Double property
// feature of the vertices. The aggregation runs in a collective read
// transaction in which every rank reads its local vertices and, through
// gdi, the features of their neighbours wherever they are stored; the new
// features are written back in a following single-process transaction on
// every rank, which finds its vertices again by application-level ID under
// their first label (UIDs do not outlive their transaction). It is
// collective and needs a quiet database.
func GNNLayer(db gdi.Database, comm rma.Comm, index gdi.Index, feature gdi.PropertyType, m MLP) error {
	coll, err := db.StartCollectiveTransaction()
	if err != nil {
		return err
	}
	updates, err := gnnAggregate(coll, index, feature, m)
	if err = rma.Agree(comm, err); err != nil {
		coll.Abort()
		return err
	}
	if err := coll.Commit(); err != nil {
		return err
	}
	err = tx.Run(db, func(tx gdi.Transaction) error {
		for _, u := range updates {
			uid, ok, err := tx.TranslateVertexID(u.label, u.id)
			if err != nil {
				return err
			}
			if !ok {
				return fmt.Errorf("olap: vertex %q vanished", u.id)
			}
			h, err := tx.AssociateVertex(uid)
			if err != nil {
				return err
			}
			if err := h.UpdateProperty(feature, gdi.Doubles(u.f...)); err != nil {
				return err
			}
		}
		return nil
	})
	if err = rma.Agree(comm, err); err != nil {
		return err
	}
	return comm.Barrier() // all written before the next layer reads
}

type gnnUpdate struct {
	id    []byte
	label gdi.Label // the vertex's first label, under which its ID is found
	f     []float64
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

func gnnAggregate(tx gdi.Transaction, index gdi.Index, feature gdi.PropertyType, m MLP) ([]gnnUpdate, error) {
	vIDs, err := tx.LocalVerticesOfIndex(index, nil)
	if err != nil {
		return nil, err
	}
	var updates []gnnUpdate
	for _, v := range vIDs {
		vH, err := tx.AssociateVertex(v)
		if err != nil {
			return nil, err
		}
		id, err := vH.Properties(gdi.PropertyTypeID)
		if err != nil {
			return nil, err
		}
		if len(id) != 1 {
			return nil, fmt.Errorf("olap: vertex %v has no application-level ID", v)
		}
		f, err := features(vH, feature)
		if err != nil {
			return nil, err
		}
		nIDs, err := vH.Neighbors(gdi.EdgeOutgoing|gdi.EdgeUndirected, nil)
		if err != nil {
			return nil, err
		}
		for _, n := range nIDs {
			nH, err := tx.AssociateVertex(n)
			if err != nil {
				return nil, err
			}
			fn, err := features(nH, feature)
			if err != nil {
				return nil, err
			}
			if len(fn) != len(f) {
				return nil, fmt.Errorf("olap: feature vectors of %d and %d elements", len(f), len(fn))
			}
			for i := range f {
				f[i] += fn[i]
			}
		}
		out, err := m.Apply(f)
		if err != nil {
			return nil, err
		}
		for i, x := range out {
			out[i] = math.Tanh(x)
		}
		labels, err := vH.Labels()
		if err != nil {
			return nil, err
		}
		if len(labels) == 0 {
			return nil, fmt.Errorf("olap: vertex %v has no label to find it by its ID", v)
		}
		updates = append(updates, gnnUpdate{id[0].Raw(), labels[0], out})
	}
	return updates, nil
}

// SetFeatures gives every vertex of index the feature vector f(id), id its
// application-level ID, in a single-process transaction per rank over the
// rank's local vertices. It is collective and ends with a barrier.
func SetFeatures(db gdi.Database, comm rma.Comm, index gdi.Index, feature gdi.PropertyType, f func(id []byte) []float64) error {
	err := tx.Run(db, func(tx gdi.Transaction) error {
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
