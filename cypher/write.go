package cypher

import (
	"fmt"

	"github.com/gdi-go/gdi/cypher/graph"
	"github.com/gdi-go/gdi/cypher/value"
	"github.com/gdi-go/gdi/gdi"
)

// keysNeeded is the internal error of a write to a property key whose
// family lacks the member of the value's kind (a key known only at run
// time). Run aborts the transaction, makes the keys collectively and
// executes the statement again; see the package documentation.
type keysNeeded struct{ keys []string }

func (k *keysNeeded) Error() string { return fmt.Sprintf("property keys needed: %q", k.keys) }

// createNode creates a node with labels and the non-null properties of
// props.
func (s *store) createNode(labels []string, props value.Map) (value.Value, error) {
	h, err := s.tx.CreateVertex(nil)
	if err != nil {
		return value.Null, err
	}
	uid, err := h.UID()
	if err != nil {
		return value.Null, err
	}
	s.vs.put(uid, h)
	put(&s.touched, uid, true)
	for _, name := range labels {
		if err := s.addLabel(h, name); err != nil {
			return value.Null, err
		}
	}
	return value.NodeValue(value.Node{ID: value.NodeID(uid)}), s.setProperties(h, props)
}

// createRel creates a relationship of type typ from one node to another.
func (s *store) createRel(typ string, from, to value.Value, props value.Map) (value.Value, error) {
	a, err := s.vertex(from.Node().ID)
	if err != nil {
		return value.Null, err
	}
	b, err := s.vertex(to.Node().ID)
	if err != nil {
		return value.Null, err
	}
	h, err := s.tx.CreateEdge(gdi.Directed, a, b)
	if err != nil {
		return value.Null, err
	}
	uid, err := h.UID()
	if err != nil {
		return value.Null, err
	}
	s.es.put(uid, h)
	if err := s.addLabel(h, typ); err != nil {
		return value.Null, err
	}
	r := value.Relationship{ID: value.RelID(uid), Start: from.Node().ID, End: to.Node().ID}
	return value.RelValue(r), s.setProperties(h, props)
}

// touch records that a node changed in this transaction.
func (s *store) touch(h gdi.Holder) error {
	if v, ok := h.(gdi.VertexHolder); ok {
		uid, err := v.UID()
		put(&s.touched, uid, true)
		return err
	}
	return nil
}

func (s *store) addLabel(h gdi.Holder, name string) error {
	l, err := s.eng.schema.Label(name)
	if err != nil {
		return err
	}
	if l == gdi.LabelNull {
		return fmt.Errorf("label %q was not made before the statement", name)
	}
	if err := s.touch(h); err != nil {
		return err
	}
	return h.AddLabel(l)
}

func (s *store) removeLabel(h gdi.Holder, name string) error {
	l, err := s.eng.schema.Label(name)
	if err != nil || l == gdi.LabelNull {
		return err
	}
	if err := s.touch(h); err != nil {
		return err
	}
	return h.RemoveLabel(l)
}

// setProperties sets the non-null entries of props.
func (s *store) setProperties(h gdi.Holder, props value.Map) error {
	for k, v := range props.All() {
		if err := s.setProperty(h, k, v); err != nil {
			return err
		}
	}
	return nil
}

// setProperty writes key := v on h: to the family member of v's kind,
// removing the other members' values; null removes the key.
func (s *store) setProperty(h gdi.Holder, key string, v value.Value) error {
	if !validKey(key) {
		return notSupported("property key %q: the mapping cannot name it", key)
	}
	if key == graph.IDKey {
		return gdi.Errorf(gdi.ErrReadOnlyPropertyType, "property key %q is the application-level ID of a vertex: Cypher reads it, and does not write it", key)
	}
	k, g, ok, err := graph.Encode(v)
	if err != nil {
		return err
	}
	fam, err := s.eng.schema.Family(key)
	if err != nil {
		return err
	}
	var w gdi.PropertyType
	if ok {
		if w = fam.Write[k]; w == gdi.PropertyTypeNull {
			return &keysNeeded{keys: []string{key}}
		}
	}
	if err := s.touch(h); err != nil {
		return err
	}
	for _, m := range fam.Members {
		if m.Type != w {
			if err := h.RemoveProperties(m.Type); err != nil {
				return err
			}
		}
	}
	if !ok {
		return nil
	}
	return h.SetProperty(w, g)
}

// removeProperties removes every property of h in the mapping.
func (s *store) removeProperties(h gdi.Holder) error {
	pts, err := h.PropertyTypes()
	if err != nil {
		return err
	}
	if err := s.touch(h); err != nil {
		return err
	}
	for _, p := range pts {
		if _, _, ok, err := s.eng.member(p); err != nil || !ok {
			if err != nil {
				return err
			}
			continue
		}
		if err := h.RemoveProperties(p); err != nil {
			return err
		}
	}
	return nil
}
