package gdirma

import (
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
)

// edgeHolder is an edge as seen by one transaction.
type edgeHolder struct{ base }

var _ gdi.EdgeHolder = (*edgeHolder)(nil)

// edgeHolder returns the transaction's holder of edge n, one per edge.
func (tx *Transaction) edgeHolder(n layout.Number, o *txObj) *edgeHolder {
	if o.eh == nil {
		o.eh = &edgeHolder{base{tx: tx, kind: edgeKind, num: n}}
	}
	return o.eh
}

// UID returns the edge UID.
func (e *edgeHolder) UID() (gdi.EdgeUID, error) {
	defer e.lock()()
	if _, err := e.obj(); err != nil {
		return gdi.EdgeUID{}, err
	}
	return e.tx.edgeUID(e.num), nil
}

// Free deletes the edge at commit.
func (e *edgeHolder) Free() error {
	defer e.lock()()
	o, err := e.writeObj()
	if err != nil {
		return err
	}
	return e.tx.deleteEdge(e.num, o)
}

// Vertices returns origin and target.
func (e *edgeHolder) Vertices() (gdi.VertexUID, gdi.VertexUID, error) {
	defer e.lock()()
	o, err := e.obj()
	if err != nil {
		return 0, 0, err
	}
	return e.tx.vertexUID(o.rec.origin), e.tx.vertexUID(o.rec.target), nil
}

// Direction returns the direction type.
func (e *edgeHolder) Direction() (gdi.DirectionType, error) {
	defer e.lock()()
	o, err := e.obj()
	if err != nil {
		return 0, err
	}
	return o.rec.dir, nil
}

// setEnd makes v the origin (origin true) or the target of the edge.
func (e *edgeHolder) setEnd(v gdi.VertexHolder, origin bool) error {
	defer e.lock()()
	nv, err := e.tx.ownVertex(v)
	if err != nil {
		return err
	}
	if _, err := e.writeObj(); err != nil {
		return err
	}
	// An edge numbered after its origin needs a holder before it leaves
	// it (the origin keeps a stub naming the holder).
	if origin && layout.IsLight(e.num) && e.tx.db.st.lightOrigin(e.num) != nv {
		if err := e.tx.heavy(&e.base); err != nil {
			return err
		}
	}
	o, err := e.writeObj()
	if err != nil {
		return err
	}
	n, err := e.tx.ownVertex(v)
	if err != nil {
		return err
	}
	old := o.rec.ends()
	if origin {
		o.rec.origin = n
	} else {
		o.rec.target = n
	}
	o.dirty = true
	return e.tx.attach(e.num, old, o.rec)
}

// SetOrigin makes v the origin.
func (e *edgeHolder) SetOrigin(v gdi.VertexHolder) error { return e.setEnd(v, true) }

// SetTarget makes v the target.
func (e *edgeHolder) SetTarget(v gdi.VertexHolder) error { return e.setEnd(v, false) }

// SetDirection makes the edge directed or undirected.
func (e *edgeHolder) SetDirection(d gdi.DirectionType) error {
	defer e.lock()()
	o, err := e.writeObj()
	if err != nil {
		return err
	}
	if !d.Valid() {
		return gdi.Errorf(gdi.ErrState, "direction %v", d)
	}
	if o.rec.dir != d {
		o.rec.dir = d
		o.dirty = true
		return e.tx.attach(e.num, o.rec.ends(), o.rec)
	}
	return nil
}
