package refdb

import "github.com/gdi-go/gdi/gdi"

// incident returns the edges of the vertex that match the orientation o
// and the constraint c, in ascending order, each once.
func (v *vertexHolder) incident(call string, o gdi.Orientation, c gdi.Constraint) ([]gdi.IncidentEdge, error) {
	r, err := v.get(call)
	if err != nil {
		return nil, err
	}
	if err := o.Valid(); err != nil {
		return nil, err
	}
	db := v.tx.db
	db.mu.Lock()
	dnf, err := db.filter(c)
	db.mu.Unlock()
	if err != nil {
		return nil, err
	}
	m := match{db: db, k: edgeKind, dnf: dnf, home: -1}
	var out []gdi.IncidentEdge
	for _, e := range r.edges {
		ie, ok, err := v.edgeIf(e, o, m)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, ie)
		}
	}
	return out, nil
}

// edgeIf describes the incident edge e if it matches o and m.
func (v *vertexHolder) edgeIf(e uint64, o gdi.Orientation, m match) (gdi.IncidentEdge, bool, error) {
	er, err := v.tx.follow(edgeKind, e)
	if err != nil {
		return gdi.IncidentEdge{}, false, err
	}
	isOrigin, isTarget := er.origin == v.n, er.target == v.n
	if !o.Matches(er.dir, isOrigin, isTarget) {
		return gdi.IncidentEdge{}, false, nil
	}
	if ok, err := m.keep(e, er, nil); !ok || err != nil {
		return gdi.IncidentEdge{}, false, err
	}
	other := er.origin
	if isOrigin {
		other = er.target
	}
	v.tx.hand(edgeKind, e)
	v.tx.hand(vertexKind, other)
	s := v.tx.db.store.number
	return gdi.IncidentEdge{UID: edgeUID(s, e), Direction: er.dir, Other: vertexUID(s, other),
		IsOrigin: isOrigin, IsTarget: isTarget}, true, nil
}

// IncidentEdges returns the edges of the vertex with their direction and
// other end (gdi.IncidentEdger).
func (v *vertexHolder) IncidentEdges(o gdi.Orientation, c gdi.Constraint) ([]gdi.IncidentEdge, error) {
	v.tx.mu.Lock()
	defer v.tx.mu.Unlock()
	return v.incident("IncidentEdges", o, c)
}

// Edges returns the UIDs of the edges of the vertex that match o and c.
func (v *vertexHolder) Edges(o gdi.Orientation, c gdi.Constraint) ([]gdi.EdgeUID, error) {
	v.tx.mu.Lock()
	defer v.tx.mu.Unlock()
	es, err := v.incident("Edges", o, c)
	if err != nil {
		return nil, err
	}
	out := make([]gdi.EdgeUID, len(es))
	for i, e := range es {
		out[i] = e.UID
	}
	return out, nil
}

// Neighbors returns the vertices at the other end of those edges, each
// once.
func (v *vertexHolder) Neighbors(o gdi.Orientation, c gdi.Constraint) ([]gdi.VertexUID, error) {
	v.tx.mu.Lock()
	defer v.tx.mu.Unlock()
	es, err := v.incident("Neighbors", o, c)
	if err != nil {
		return nil, err
	}
	var out []gdi.VertexUID
	seen := map[gdi.VertexUID]bool{}
	for _, e := range es {
		if !seen[e.Other] {
			seen[e.Other] = true
			out = append(out, e.Other)
		}
	}
	return out, nil
}
