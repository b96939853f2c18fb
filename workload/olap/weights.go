package olap

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdiutil"
	"github.com/gdi-go/gdi/rma"
)

// WeightOptions say how SetEdgeWeights weighs the edges.
type WeightOptions struct {
	// Weight is the single-entity Double property type the weights are
	// stored in.
	Weight gdi.PropertyType
	// W is the weight of the edge between the vertices of
	// application-level IDs a and b: from a to b for a directed edge; in
	// either order for an undirected one, so W should be symmetric.
	W func(a, b []byte) float64
	// Progress, if not nil, is called after every committed transaction,
	// on the rank whose turn it is, with the number of its vertices the
	// transaction finished.
	Progress func(n int)
}

// weightBatch is about the number of edges SetEdgeWeights writes per
// transaction.
const weightBatch = 256

// SetEdgeWeights gives every edge incident to the vertices of keys (those
// of LocalVertexKeys on every rank) the property opts.Weight =
// opts.W(ends), in single-process transactions of a few hundred edges
// each. Each edge is written once: a directed edge by its origin, an
// undirected one by the end that a hash of the two UIDs picks, so that
// the ranks share the work. The far end of an edge is read through gdi
// for its application-level ID. It is collective.
//
// The ranks take turns, as graphalytics.Load does for edges: a weight
// changes both ends of its edge (gdirma gives the edge a holder and
// rewrites the references of both ends), and the high-degree vertices
// that most edges touch would make concurrent transactions fail over and
// over. Explicit indexes make writes dearer on some backends (gdirma
// re-derives the index entries of every vertex a commit changes, in the
// vertex's degree), so a caller may create them afterwards.
func SetEdgeWeights(db gdi.Database, comm rma.Comm, keys []VertexKey, opts WeightOptions) error {
	var local error
	for turn := range comm.Size() {
		if turn == comm.Rank() {
			local = weighLocal(db, keys, opts)
		}
		if err := comm.Barrier(); err != nil {
			return err
		}
	}
	if err := rma.Agree(comm, local); err != nil {
		return fmt.Errorf("olap: edge weights: %w", err)
	}
	return nil
}

// weighLocal weighs the edges of keys that this rank writes, batch by
// batch.
func weighLocal(db gdi.Database, keys []VertexKey, opts WeightOptions) error {
	for next := 0; next < len(keys); {
		var done int
		err := gdiutil.RunTransaction(context.Background(), db, func(t gdi.Transaction) error {
			var err error
			done, err = weighBatch(t, opts, keys[next:])
			return err
		})
		if err != nil {
			return err
		}
		next += done
		if opts.Progress != nil {
			opts.Progress(done)
		}
	}
	return nil
}

// VertexKey finds a vertex again in another transaction (UIDs do not
// outlive theirs): its first label and its application-level ID.
type VertexKey struct {
	Label gdi.Label
	ID    []byte
}

// LocalVertexKeys returns the key of every local vertex of index, read in
// a transaction of its own. It is local.
func LocalVertexKeys(db gdi.Database, index gdi.Index) ([]VertexKey, error) {
	t, err := db.StartTransaction()
	if err != nil {
		return nil, err
	}
	defer t.Abort()
	uids, err := t.LocalVerticesOfIndex(index, nil)
	if err != nil {
		return nil, err
	}
	keys := make([]VertexKey, len(uids))
	for i, u := range uids {
		h, err := t.AssociateVertex(u)
		if err == nil {
			keys[i], err = vertexKey(h)
		}
		if err != nil {
			return nil, err
		}
	}
	return keys, nil
}

// vertexKey returns the key of vertex h.
func vertexKey(h gdi.VertexHolder) (VertexKey, error) {
	labels, err := h.Labels()
	if err != nil {
		return VertexKey{}, err
	}
	id, err := h.Properties(gdi.PropertyTypeID)
	if err != nil {
		return VertexKey{}, err
	}
	if len(labels) == 0 || len(id) != 1 {
		return VertexKey{}, errors.New("olap: a vertex has no label or no application-level ID to find it by")
	}
	return VertexKey{labels[0], slices.Clone(id[0].Raw())}, nil // the key outlives the transaction
}

// weighBatch weighs the edges of the vertices of keys, from the first,
// until about weightBatch edges are written, and returns how many vertices
// it finished (at least one).
func weighBatch(t gdi.Transaction, opts WeightOptions, keys []VertexKey) (int, error) {
	ids := map[gdi.VertexUID][]byte{} // the far ends read so far
	written := 0
	for i, k := range keys {
		uid, ok, err := t.TranslateVertexID(k.Label, k.ID)
		if err != nil {
			return 0, err
		}
		if !ok {
			return 0, fmt.Errorf("vertex %q vanished", k.ID)
		}
		ids[uid] = k.ID
		n, err := weighVertex(t, opts, uid, ids)
		if err != nil {
			return 0, err
		}
		if written += n; written >= weightBatch {
			return i + 1, nil
		}
	}
	return len(keys), nil
}

// weighVertex writes the weights of the edges that vertex a writes and
// returns how many.
func weighVertex(t gdi.Transaction, opts WeightOptions, a gdi.VertexUID, ids map[gdi.VertexUID][]byte) (int, error) {
	h, err := t.AssociateVertex(a)
	if err != nil {
		return 0, err
	}
	es, err := h.Edges(gdi.EdgeOutgoing|gdi.EdgeUndirected, nil)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range es {
		eh, err := t.AssociateEdge(e)
		if err != nil {
			return 0, err
		}
		o, tg, err := eh.Vertices()
		if err != nil {
			return 0, err
		}
		// An undirected edge is listed at both ends: one of them writes.
		if d, err := eh.Direction(); err != nil || d == gdi.Undirected && writer(o, tg) != a {
			if err != nil {
				return 0, err
			}
			continue
		}
		idO, err := appID(t, o, ids)
		if err != nil {
			return 0, err
		}
		idT, err := appID(t, tg, ids)
		if err != nil {
			return 0, err
		}
		if err := eh.SetProperty(opts.Weight, gdi.Doubles(opts.W(idO, idT))); err != nil {
			return 0, err
		}
		n++
	}
	return n, nil
}

// writer picks one end of an undirected edge, the same from both ends,
// each end for about half the edges: a hash of their UIDs, which carry the
// rank on some backends, chooses the smaller or the larger.
func writer(a, b gdi.VertexUID) gdi.VertexUID {
	x := uint64(a ^ b)
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	if x&1 == 0 {
		return min(a, b)
	}
	return max(a, b)
}

// appID returns the application-level ID of vertex v, from ids or read
// through gdi (and kept in ids).
func appID(t gdi.Transaction, v gdi.VertexUID, ids map[gdi.VertexUID][]byte) ([]byte, error) {
	if id, ok := ids[v]; ok {
		return id, nil
	}
	h, err := t.AssociateVertex(v)
	if err != nil {
		return nil, err
	}
	id, err := h.Properties(gdi.PropertyTypeID)
	if err != nil {
		return nil, err
	}
	if len(id) != 1 {
		return nil, fmt.Errorf("vertex %v has no application-level ID", v)
	}
	ids[v] = id[0].Raw()
	return ids[v], nil
}
