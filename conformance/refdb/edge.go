package refdb

import "github.com/gdi-go/gdi/gdi"

// edgeHolder is an edge as one transaction sees it.
type edgeHolder struct{ holder }

func (tx *Transaction) edgeHolder(n uint64) *edgeHolder {
	return &edgeHolder{holder{tx: tx, k: edgeKind, n: n}}
}

// CreateEdge creates an edge of direction d from origin to target. Its
// home is the calling rank.
func (tx *Transaction) CreateEdge(d gdi.DirectionType, origin, target gdi.VertexHolder) (gdi.EdgeHolder, error) {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if err := tx.open("CreateEdge"); err != nil {
		return nil, err
	}
	if err := tx.writable("CreateEdge"); err != nil {
		return nil, err
	}
	o, err := tx.ownVertex("CreateEdge", origin)
	if err != nil {
		return nil, err
	}
	t, err := tx.ownVertex("CreateEdge", target)
	if err != nil {
		return nil, err
	}
	if !d.Valid() {
		return nil, gdi.Errorf(gdi.ErrState, "CreateEdge: direction %v", d)
	}
	n := tx.create(edgeKind, &record{home: tx.db.comm.Rank(), dir: d, origin: o, target: t})
	tx.write(vertexKind, o).addEdge(n)
	tx.write(vertexKind, t).addEdge(n)
	return tx.edgeHolder(n), nil
}

// ownVertex returns the vertex of a holder of this transaction, which must
// be valid.
func (tx *Transaction) ownVertex(call string, h gdi.VertexHolder) (uint64, error) {
	v, ok := h.(*vertexHolder)
	switch {
	case !ok || v == nil:
		return 0, gdi.Errorf(gdi.ErrVertex, "%s: %T is no vertex holder of refdb", call, h)
	case v.tx != tx:
		return 0, gdi.Errorf(gdi.ErrObjectMismatch, "%s: the vertex holder belongs to another transaction", call)
	}
	_, err := v.get(call)
	return v.n, err
}

// AssociateEdge returns a holder of the edge uid.
func (tx *Transaction) AssociateEdge(uid gdi.EdgeUID) (gdi.EdgeHolder, error) {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if err := tx.open("AssociateEdge"); err != nil {
		return nil, err
	}
	store, n, ok := splitEdgeUID(uid)
	if !ok {
		return nil, gdi.Errorf(gdi.ErrUID, "AssociateEdge: %v is no edge UID of refdb", uid)
	}
	if err := tx.associate(edgeKind, !uid.IsZero(), store, n); err != nil {
		return nil, err
	}
	return tx.edgeHolder(n), nil
}

// UID returns the UID of the edge.
func (e *edgeHolder) UID() (gdi.EdgeUID, error) {
	e.tx.mu.Lock()
	defer e.tx.mu.Unlock()
	if _, err := e.get("UID"); err != nil {
		return gdi.EdgeUID{}, err
	}
	e.tx.hand(edgeKind, e.n)
	return edgeUID(e.tx.db.store.number, e.n), nil
}

// Free deletes the edge.
func (e *edgeHolder) Free() error {
	e.tx.mu.Lock()
	defer e.tx.mu.Unlock()
	if _, err := e.getForWrite("Free"); err != nil {
		return err
	}
	return e.tx.deleteEdge(e.n)
}

// Vertices returns the origin and target of the edge.
func (e *edgeHolder) Vertices() (gdi.VertexUID, gdi.VertexUID, error) {
	e.tx.mu.Lock()
	defer e.tx.mu.Unlock()
	r, err := e.get("Vertices")
	if err != nil {
		return 0, 0, err
	}
	e.tx.hand(vertexKind, r.origin)
	e.tx.hand(vertexKind, r.target)
	s := e.tx.db.store.number
	return vertexUID(s, r.origin), vertexUID(s, r.target), nil
}

// Direction returns the direction of the edge.
func (e *edgeHolder) Direction() (gdi.DirectionType, error) {
	e.tx.mu.Lock()
	defer e.tx.mu.Unlock()
	r, err := e.get("Direction")
	if err != nil {
		return 0, err
	}
	return r.dir, nil
}
