package refdb

import (
	"slices"

	"github.com/gdi-go/gdi/gdi"
)

// vertexHolder is a vertex as seen by one transaction.
type vertexHolder struct{ base }

var (
	_ gdi.VertexHolder  = (*vertexHolder)(nil)
	_ gdi.IncidentEdger = (*vertexHolder)(nil)
)

// vertexHolder returns the transaction's holder of vertex n, one per
// vertex.
func (tx *Transaction) vertexHolder(n uint64, o *txObj) *vertexHolder {
	if o.vh == nil {
		o.vh = &vertexHolder{base{tx: tx, kind: vertexKind, num: n}}
	}
	return o.vh
}

// UID returns the vertex UID.
func (v *vertexHolder) UID() (gdi.VertexUID, error) {
	defer v.lock()()
	if _, err := v.obj(); err != nil {
		return 0, err
	}
	return v.tx.vertexUID(v.num), nil
}

// Free deletes the vertex and its edges at commit.
func (v *vertexHolder) Free() error {
	defer v.lock()()
	o, err := v.writeObj()
	if err != nil {
		return err
	}
	for _, e := range sortedKeys(o.rec.edges) {
		eo, err := v.tx.related(edgeKind, e)
		if err != nil {
			return err
		}
		if err := v.tx.deleteEdge(e, eo); err != nil {
			return err
		}
	}
	o.deleted, o.dirty = true, true
	v.freed = true
	return nil
}

// deleteEdge deletes edge e and detaches it from its vertices.
func (tx *Transaction) deleteEdge(e uint64, o *txObj) error {
	if err := tx.attach(e, o.rec.ends(), nil); err != nil {
		return err
	}
	o.deleted, o.dirty = true, true
	if o.eh != nil {
		o.eh.freed = true
	}
	return nil
}

// incident calls f for every edge of the vertex that matches orientation
// o and constraint c, in ascending order of edge numbers, with whether the
// vertex is its origin and its target.
func (v *vertexHolder) incident(or gdi.Orientation, c gdi.Constraint, f func(e uint64, r *record, isOrigin, isTarget bool)) error {
	o, err := v.obj()
	if err != nil {
		return err
	}
	if err := or.Valid(); err != nil {
		return err
	}
	dnf, has, err := v.tx.db.Filter(c)
	if err != nil {
		return err
	}
	for _, e := range sortedKeys(o.rec.edges) {
		eo, err := v.tx.related(edgeKind, e)
		if err != nil {
			return err
		}
		r := eo.rec
		isO, isT := r.origin == v.num, r.target == v.num
		if !or.Matches(r.dir, isO, isT) {
			continue
		}
		if has {
			ok, err := dnf.Eval(objView{db: v.tx.db, r: r})
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
		}
		f(e, r, isO, isT)
	}
	return nil
}

// Edges returns the edges of the vertex that match o and c.
func (v *vertexHolder) Edges(o gdi.Orientation, c gdi.Constraint) ([]gdi.EdgeUID, error) {
	defer v.lock()()
	var out []gdi.EdgeUID
	err := v.incident(o, c, func(e uint64, _ *record, _, _ bool) {
		out = append(out, v.tx.edgeUID(e))
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// IncidentEdges is Edges with the direction and the ends of each edge
// (gdi.IncidentEdger).
func (v *vertexHolder) IncidentEdges(o gdi.Orientation, c gdi.Constraint) ([]gdi.IncidentEdge, error) {
	defer v.lock()()
	out := []gdi.IncidentEdge{}
	err := v.incident(o, c, func(e uint64, r *record, isO, isT bool) {
		other := r.origin
		if isO {
			other = r.target
		}
		out = append(out, gdi.IncidentEdge{
			UID: v.tx.edgeUID(e), Direction: r.dir, Other: v.tx.vertexUID(other),
			IsOrigin: isO, IsTarget: isT,
		})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Neighbors returns the vertices at the other end of the edges that
// Edges(o, c) returns, each once.
func (v *vertexHolder) Neighbors(o gdi.Orientation, c gdi.Constraint) ([]gdi.VertexUID, error) {
	defer v.lock()()
	var ns []uint64
	err := v.incident(o, c, func(_ uint64, r *record, isO, isT bool) {
		other := r.origin
		if isO {
			other = r.target
		}
		if !slices.Contains(ns, other) {
			ns = append(ns, other)
		}
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(ns)
	out := make([]gdi.VertexUID, len(ns))
	for i, n := range ns {
		out[i] = v.tx.vertexUID(n)
	}
	return out, nil
}
