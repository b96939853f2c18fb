package cypher

import (
	"github.com/gdi-go/gdi/cypher/value"
	"github.com/gdi-go/gdi/gdi"
)

// Deletion. DELETE marks objects dead at once (reads of them fail with
// EntityNotFound, scans and expansions skip them) and keeps their labels
// and properties (their Element) for the result; the GDI Free calls wait
// for finish, at the end of the statement, when a node deleted without
// DETACH must have no live relationship left (ConstraintVerificationFailed
// otherwise), as Cypher checks at commit.

// deleteNode deletes a node, and with detach its relationships.
func (s *store) deleteNode(id value.NodeID, detach bool) error {
	uid := gdi.VertexUID(id)
	if s.deadV[uid] {
		return nil
	}
	h, err := s.vertex(id)
	if err != nil {
		return err
	}
	if detach {
		es, err := h.Edges(gdi.EdgeAll, nil)
		if err != nil {
			return err
		}
		for _, e := range es {
			if err := s.deleteRel(value.RelID(e)); err != nil {
				return err
			}
		}
	} else {
		s.order.checked = append(s.order.checked, uid)
	}
	el, err := s.nodeElement(h)
	if err != nil {
		return err
	}
	put(&s.snapshot, any(id), el)
	put(&s.deadV, uid, true)
	s.order.vs = append(s.order.vs, uid)
	return nil
}

// deleteRel deletes a relationship.
func (s *store) deleteRel(id value.RelID) error {
	uid := gdi.EdgeUID(id)
	if s.deadE[uid] {
		return nil
	}
	h, err := s.edge(id)
	if err != nil {
		return err
	}
	el, err := s.relElement(h)
	if err != nil {
		return err
	}
	put(&s.snapshot, any(id), el)
	put(&s.deadE, uid, true)
	s.order.es = append(s.order.es, uid)
	return nil
}

// finish checks the nodes deleted without DETACH and frees the deleted
// objects.
func (s *store) finish() error {
	for _, uid := range s.order.checked {
		h, _ := s.vs.get(uid) // a deleted node's holder is kept
		es, err := h.Edges(gdi.EdgeAll, nil)
		if err != nil {
			return err
		}
		for _, e := range es {
			if !s.deadE[e] {
				return cypherError(catConstraint, "DeleteConnectedNode",
					"cannot delete a node that still has relationships; delete them first or use DETACH DELETE")
			}
		}
	}
	for _, uid := range s.order.es {
		h, _ := s.es.get(uid)
		if err := h.Free(); err != nil {
			return err
		}
	}
	for _, uid := range s.order.vs {
		h, _ := s.vs.get(uid)
		if err := h.Free(); err != nil {
			return err
		}
	}
	return nil
}

// nodeElement returns the labels and properties of a node.
func (s *store) nodeElement(h gdi.VertexHolder) (Element, error) {
	ls, err := s.labels(h)
	if err != nil {
		return Element{}, err
	}
	props, err := s.properties(h)
	return Element{Labels: ls, Properties: props.Map()}, err
}

// relElement returns the type and properties of a relationship.
func (s *store) relElement(h gdi.EdgeHolder) (Element, error) {
	typ, err := s.relType(h)
	if err != nil {
		return Element{}, err
	}
	props, err := s.properties(h)
	return Element{Labels: []string{typ}, Properties: props.Map()}, err
}

// element returns the element of a node or relationship, from the
// snapshot if it was deleted.
func (s *store) element(key any) (Element, error) {
	if el, ok := s.snapshot[key]; ok {
		return el, nil
	}
	switch id := key.(type) {
	case value.NodeID:
		h, err := s.vertex(id)
		if err != nil {
			return Element{}, err
		}
		return s.nodeElement(h)
	case value.RelID:
		h, err := s.edge(id)
		if err != nil {
			return Element{}, err
		}
		return s.relElement(h)
	}
	return Element{}, nil
}
