package cypher

import (
	"slices"
	"strings"

	"github.com/gdi-go/gdi/cypher/graph"
	"github.com/gdi-go/gdi/cypher/value"
	"github.com/gdi-go/gdi/gdi"
)

// store is the graph as one statement's transaction sees it: holders by
// UID (one per object, so that every read sees the transaction's own
// writes), the nodes created or changed (which explicit indexes show only
// after commit), and the objects deleted, whose Free is deferred to the
// end of the statement.
type store struct {
	eng      *Engine
	tx       gdi.Transaction
	vs       holders[gdi.VertexUID, gdi.VertexHolder]
	es       holders[gdi.EdgeUID, gdi.EdgeHolder]
	touched  map[gdi.VertexUID]bool
	deadV    map[gdi.VertexUID]bool
	deadE    map[gdi.EdgeUID]bool
	order    deletions
	snapshot map[any]Element // deleted objects, by value.NodeID or value.RelID
}

// deletions keeps the deleted objects in order, and the nodes deleted
// without DETACH, which must have lost all relationships by the end.
type deletions struct {
	vs      []gdi.VertexUID
	es      []gdi.EdgeUID
	checked []gdi.VertexUID
}

func newStore(e *Engine, tx gdi.Transaction) *store {
	return &store{eng: e, tx: tx}
}

// put sets m[k] = v, making the map on its first entry: most statements
// write few of the store's maps, and a point read none.
func put[K comparable, V any](m *map[K]V, k K, v V) {
	if *m == nil {
		*m = make(map[K]V)
	}
	(*m)[k] = v
}

// holders maps the UIDs of the objects a statement reads to their
// holders. The first is kept in the struct and the rest in a map made
// when a second comes: a point read touches one object.
type holders[U comparable, H any] struct {
	firstUID U
	first    H
	has      bool
	more     map[U]H
}

// get returns the holder of uid, if there is one.
func (hs *holders[U, H]) get(uid U) (H, bool) {
	if hs.has && hs.firstUID == uid {
		return hs.first, true
	}
	h, ok := hs.more[uid]
	return h, ok
}

// put keeps h as the holder of uid, which has none yet.
func (hs *holders[U, H]) put(uid U, h H) {
	if !hs.has {
		hs.firstUID, hs.first, hs.has = uid, h, true
		return
	}
	put(&hs.more, uid, h)
}

// vertex returns the holder of a live node.
func (s *store) vertex(id value.NodeID) (gdi.VertexHolder, error) {
	uid := gdi.VertexUID(id)
	if s.deadV[uid] {
		return nil, cypherError(catEntityNotFound, "DeletedEntityAccess", "the node was deleted")
	}
	if h, ok := s.vs.get(uid); ok {
		return h, nil
	}
	h, err := s.tx.AssociateVertex(uid)
	if err == nil {
		s.vs.put(uid, h)
	}
	return h, err
}

// edge returns the holder of a live relationship.
func (s *store) edge(id value.RelID) (gdi.EdgeHolder, error) {
	uid := gdi.EdgeUID(id)
	if s.deadE[uid] {
		return nil, cypherError(catEntityNotFound, "DeletedEntityAccess", "the relationship was deleted")
	}
	if h, ok := s.es.get(uid); ok {
		return h, nil
	}
	h, err := s.tx.AssociateEdge(uid)
	if err == nil {
		s.es.put(uid, h)
	}
	return h, err
}

// edgeEvenDeleted returns the holder of a relationship, deleted in this
// statement or not (its Free waits for the end of the statement): the
// type of a deleted relationship stays readable.
func (s *store) edgeEvenDeleted(id value.RelID) (gdi.EdgeHolder, error) {
	if h, ok := s.es.get(gdi.EdgeUID(id)); ok {
		return h, nil
	}
	return s.edge(id)
}

// holder returns the holder of a node or relationship value, nil for
// another value.
func (s *store) holder(v value.Value) (gdi.Holder, error) {
	switch v.Kind() {
	case value.KindNode:
		return s.vertex(v.Node().ID)
	case value.KindRelationship:
		return s.edge(v.Relationship().ID)
	}
	return nil, nil
}

// relationship returns the value of the edge uid.
func (s *store) relationship(uid gdi.EdgeUID) (value.Relationship, error) {
	h, err := s.edge(value.RelID(uid))
	if err != nil {
		return value.Relationship{}, err
	}
	o, t, err := h.Vertices()
	return value.Relationship{ID: value.RelID(uid), Start: value.NodeID(o), End: value.NodeID(t)}, err
}

// labels returns the names of the labels of h, sorted.
func (s *store) labels(h gdi.Holder) ([]string, error) {
	ls, err := h.Labels()
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(ls))
	for _, l := range ls {
		name, err := s.eng.labelName(l)
		if err != nil {
			return nil, err
		}
		out = append(out, name)
	}
	slices.Sort(out)
	return out, nil
}

// hasLabel reports whether h has the label named name.
func (s *store) hasLabel(h gdi.Holder, name string) (bool, error) {
	l, err := s.eng.schema.Label(name)
	if err != nil || l == gdi.LabelNull {
		return false, err
	}
	ls, err := h.Labels()
	return slices.Contains(ls, l), err
}

// relType returns the type of a relationship: the name of its label.
func (s *store) relType(h gdi.EdgeHolder) (string, error) {
	ls, err := s.labels(h)
	if err != nil || len(ls) == 0 {
		return "", err
	}
	return ls[0], nil
}

// readFamily reads the first member of fam that h has; null if none or
// if fam is nil.
func readFamily(h gdi.Holder, fam *graph.Family) (value.Value, error) {
	if fam == nil {
		return value.Null, nil
	}
	for _, m := range fam.Members {
		vs, err := h.Properties(m.Type)
		if err != nil {
			return value.Null, err
		}
		if len(vs) > 0 {
			return graph.Decode(m, vs[0])
		}
	}
	return value.Null, nil
}

// properties reads every property of h into a map.
func (s *store) properties(h gdi.Holder) (value.Value, error) {
	pts, err := h.PropertyTypes()
	if err != nil {
		return value.Null, err
	}
	m := map[string]value.Value{}
	for _, p := range pts {
		key, member, ok, err := s.eng.member(p)
		if err != nil {
			return value.Null, err
		}
		if !ok {
			continue
		}
		vs, err := h.Properties(p)
		if err != nil || len(vs) == 0 {
			return value.Null, err
		}
		if m[key], err = graph.Decode(member, vs[0]); err != nil {
			return value.Null, err
		}
	}
	return value.NewMap(m), nil
}

// keyFamily returns the family of the property key key in s, or nil for
// a key the mapping has no property types for (with # or too long: it
// reads as null).
func keyFamily(s *graph.Schema, key string) (*graph.Family, error) {
	if !validKey(key) {
		return nil, nil
	}
	return s.Family(key)
}

// member returns the property key and the family member of the property
// type p; ok is false for property types outside the mapping.
func (e *Engine) member(p gdi.PropertyType) (key string, m graph.Member, ok bool, err error) {
	if p.IsPredefined() {
		return "", graph.Member{}, false, nil
	}
	if c, hit := e.ptypes[p]; hit {
		return c.key, c.m, c.ok, nil
	}
	info, err := e.db.PropertyTypeInfo(p)
	if err != nil {
		return "", graph.Member{}, false, err
	}
	key = info.Name
	if i := strings.LastIndexByte(key, '#'); i >= 0 {
		key = key[:i]
	}
	if validKey(key) {
		fam, err := e.schema.Family(key)
		if err != nil {
			return "", graph.Member{}, false, err
		}
		for _, x := range fam.Members {
			if x.Type == p {
				m, ok = x, true
			}
		}
	}
	e.ptypes[p] = ptypeInfo{key, m, ok}
	return key, m, ok, nil
}

// ptypeInfo caches what a property type is to the mapping.
type ptypeInfo struct {
	key string
	m   graph.Member
	ok  bool
}

// labelName returns the name of l, cached.
func (e *Engine) labelName(l gdi.Label) (string, error) {
	if n, ok := e.labelNames[l]; ok {
		return n, nil
	}
	n, err := e.db.LabelName(l)
	if err == nil {
		e.labelNames[l] = n
	}
	return n, err
}
