package refdb

import "github.com/gdi-go/gdi/gdi"

// SetOrigin makes v the origin of the edge.
func (e *edgeHolder) SetOrigin(v gdi.VertexHolder) error { return e.setEnd("SetOrigin", v, true) }

// SetTarget makes v the target of the edge.
func (e *edgeHolder) SetTarget(v gdi.VertexHolder) error { return e.setEnd("SetTarget", v, false) }

// setEnd replaces the origin (or the target) of the edge with v, and moves
// the edge from the edge list of the old end to that of v.
func (e *edgeHolder) setEnd(call string, v gdi.VertexHolder, origin bool) error {
	e.tx.mu.Lock()
	defer e.tx.mu.Unlock()
	r, err := e.getForWrite(call)
	if err != nil {
		return err
	}
	to, err := e.tx.ownVertex(call, v)
	if err != nil {
		return err
	}
	from, other := r.target, r.origin
	if origin {
		from, other = r.origin, r.target
	}
	if from == to {
		return nil
	}
	if _, err := e.tx.follow(vertexKind, from); err != nil {
		return err
	}
	w := e.tx.write(edgeKind, e.n)
	if origin {
		w.origin = to
	} else {
		w.target = to
	}
	if from != other {
		e.tx.write(vertexKind, from).dropEdge(e.n)
	}
	e.tx.write(vertexKind, to).addEdge(e.n)
	return nil
}

// SetDirection makes the edge directed or undirected.
func (e *edgeHolder) SetDirection(d gdi.DirectionType) error {
	e.tx.mu.Lock()
	defer e.tx.mu.Unlock()
	r, err := e.getForWrite("SetDirection")
	if err != nil {
		return err
	}
	if !d.Valid() {
		return gdi.Errorf(gdi.ErrState, "SetDirection: direction %v", d)
	}
	if r.dir != d {
		e.tx.write(edgeKind, e.n).dir = d
	}
	return nil
}
