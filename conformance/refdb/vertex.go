package refdb

import (
	"slices"

	"github.com/gdi-go/gdi/gdi"
)

// vertexHolder is a vertex as one transaction sees it.
type vertexHolder struct{ holder }

// CreateVertex creates a vertex, with application-level ID id if not
// empty. Its home is the calling rank.
func (tx *Transaction) CreateVertex(id []byte) (gdi.VertexHolder, error) {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if err := tx.open("CreateVertex"); err != nil {
		return nil, err
	}
	if err := tx.writable("CreateVertex"); err != nil {
		return nil, err
	}
	r := &record{home: tx.db.comm.Rank()}
	if len(id) > 0 {
		r.props = []property{{gdi.PropertyTypeID.ID(), gdi.Bytes(id)}}
	}
	return tx.vertexHolder(tx.create(vertexKind, r)), nil
}

func (tx *Transaction) vertexHolder(n uint64) *vertexHolder {
	return &vertexHolder{holder{tx: tx, k: vertexKind, n: n}}
}

// AssociateVertex returns a holder of the vertex uid.
func (tx *Transaction) AssociateVertex(uid gdi.VertexUID) (gdi.VertexHolder, error) {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if err := tx.open("AssociateVertex"); err != nil {
		return nil, err
	}
	store, n := splitVertexUID(uid)
	if err := tx.associate(vertexKind, uid != 0, store, n); err != nil {
		return nil, err
	}
	return tx.vertexHolder(n), nil
}

// associate checks that a UID names an object the transaction sees.
func (tx *Transaction) associate(k kind, nonzero bool, store uint32, n uint64) error {
	switch {
	case !nonzero:
		return gdi.Errorf(gdi.ErrUID, "the zero %v UID", k)
	case store != tx.db.store.number:
		return gdi.Errorf(gdi.ErrObjectMismatch, "the %v UID belongs to another database", k)
	}
	r, err := tx.read(k, n)
	if err == nil && r == nil {
		err = gdi.Errorf(gdi.ErrUID, "no %v %d in this transaction", k, n)
	}
	return err
}

// UID returns the UID of the vertex.
func (v *vertexHolder) UID() (gdi.VertexUID, error) {
	v.tx.mu.Lock()
	defer v.tx.mu.Unlock()
	if _, err := v.get("UID"); err != nil {
		return 0, err
	}
	v.tx.hand(vertexKind, v.n)
	return vertexUID(v.tx.db.store.number, v.n), nil
}

// Free deletes the vertex and its edges.
func (v *vertexHolder) Free() error {
	v.tx.mu.Lock()
	defer v.tx.mu.Unlock()
	r, err := v.getForWrite("Free")
	if err != nil {
		return err
	}
	for _, e := range slices.Clone(r.edges) {
		if err := v.tx.deleteEdge(e); err != nil {
			return err
		}
	}
	v.tx.remove(vertexKind, v.n)
	return nil
}

// deleteEdge deletes edge e and takes it off the edge lists of its ends.
func (tx *Transaction) deleteEdge(e uint64) error {
	r, err := tx.follow(edgeKind, e)
	if err != nil {
		return err
	}
	for _, end := range r.ends() {
		if _, err := tx.follow(vertexKind, end); err != nil {
			return err
		}
		tx.write(vertexKind, end).dropEdge(e)
	}
	tx.remove(edgeKind, e)
	return nil
}
