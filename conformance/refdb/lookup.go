package refdb

import (
	"github.com/gdi-go/gdi/gdi"
)

// TranslateVertexID finds the vertex with label l and application-level
// ID id (the implicit index). With LabelNone it finds a vertex without
// labels; if several share id, the one with the smallest UID, with
// WarnNonUniqueID.
func (tx *Transaction) TranslateVertexID(l gdi.Label, id []byte) (gdi.VertexUID, bool, error) {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if err := tx.open("TranslateVertexID"); err != nil {
		return 0, false, err
	}
	tx.db.mu.Lock()
	n, err := tx.db.labelNumber(l)
	tx.db.mu.Unlock()
	if err != nil || len(id) == 0 {
		return 0, false, err
	}
	found, err := tx.withID(vertexKind, n, string(id))
	if err != nil || len(found) == 0 {
		return 0, false, err
	}
	tx.hand(vertexKind, found[0])
	uid := vertexUID(tx.db.store.number, found[0])
	if len(found) > 1 {
		return uid, true, gdi.Errorf(gdi.WarnNonUniqueID, "%d vertices without labels have the ID %q", len(found), id)
	}
	return uid, true, nil
}

// VerticesOfIndex returns the vertices in idx that satisfy c.
func (tx *Transaction) VerticesOfIndex(idx gdi.Index, c gdi.Constraint) ([]gdi.VertexUID, error) {
	ns, err := tx.indexQuery("VerticesOfIndex", vertexKind, idx, c, false)
	return tx.vertexUIDs(ns), err
}

// LocalVerticesOfIndex returns the vertices in idx that satisfy c and live
// on the calling rank.
func (tx *Transaction) LocalVerticesOfIndex(idx gdi.Index, c gdi.Constraint) ([]gdi.VertexUID, error) {
	ns, err := tx.indexQuery("LocalVerticesOfIndex", vertexKind, idx, c, true)
	return tx.vertexUIDs(ns), err
}

// EdgesOfIndex returns the edges in idx that satisfy c.
func (tx *Transaction) EdgesOfIndex(idx gdi.Index, c gdi.Constraint) ([]gdi.EdgeUID, error) {
	ns, err := tx.indexQuery("EdgesOfIndex", edgeKind, idx, c, false)
	return tx.edgeUIDs(ns), err
}

// LocalEdgesOfIndex returns the edges in idx that satisfy c and live on
// the calling rank.
func (tx *Transaction) LocalEdgesOfIndex(idx gdi.Index, c gdi.Constraint) ([]gdi.EdgeUID, error) {
	ns, err := tx.indexQuery("LocalEdgesOfIndex", edgeKind, idx, c, true)
	return tx.edgeUIDs(ns), err
}

// indexQuery returns the objects of kind k in idx that satisfy c (and, if
// local, live on this rank).
func (tx *Transaction) indexQuery(call string, k kind, idx gdi.Index, c gdi.Constraint, local bool) ([]uint64, error) {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if err := tx.open(call); err != nil {
		return nil, err
	}
	m, err := tx.db.indexMatch(call, k, idx, c)
	if err != nil {
		return nil, err
	}
	if local {
		m.home = tx.db.comm.Rank()
	}
	ns, err := tx.find(m)
	return tx.handAll(k, ns), err
}

// indexMatch checks the index and constraint arguments of a query and
// returns what the query keeps.
func (db *Database) indexMatch(call string, k kind, idx gdi.Index, c gdi.Constraint) (match, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	x, ok := idx.(*index)
	switch {
	case !ok || x == nil:
		return match{}, gdi.Errorf(gdi.ErrIndex, "%s: %T is no index of refdb", call, idx)
	case x.db != db:
		return match{}, gdi.Errorf(gdi.ErrObjectMismatch, "%s: the index belongs to another database or rank", call)
	}
	if err := x.valid(call); err != nil {
		return match{}, err
	}
	dnf, err := db.filter(c)
	if err != nil {
		return match{}, err
	}
	return match{db: db, k: k, covers: x.covers(), dnf: dnf, home: -1}, nil
}

func (tx *Transaction) vertexUIDs(ns []uint64) []gdi.VertexUID {
	if ns == nil {
		return nil
	}
	out := make([]gdi.VertexUID, len(ns))
	for i, n := range ns {
		out[i] = vertexUID(tx.db.store.number, n)
	}
	return out
}

func (tx *Transaction) edgeUIDs(ns []uint64) []gdi.EdgeUID {
	if ns == nil {
		return nil
	}
	out := make([]gdi.EdgeUID, len(ns))
	for i, n := range ns {
		out[i] = edgeUID(tx.db.store.number, n)
	}
	return out
}
