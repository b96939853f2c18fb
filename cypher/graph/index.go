package graph

import (
	"slices"

	"github.com/gdi-go/gdi/gdi"
)

// NodeIndex is the explicit index over every node: its label set L holds
// LabelNone (nodes without labels) and every label of the catalog, and its
// property set is empty, so that VerticesOfIndex(idx, c) scans the nodes
// satisfying c. Relationship types are labels too and enter L; no vertex
// carries them, so they cost nothing.
//
// Costs: a label added to L makes the backend recompute the index once
// (AddLabelsAndPropertyTypes); Ensure adds all new labels of a statement
// in one call.
type NodeIndex struct {
	s   *Schema
	idx gdi.Index
}

// NodeIndex returns the index over all nodes of the database: the first
// index with LabelNone in L and no property type, or a new hash-table
// index; every label of the catalog is added to it. It is collective.
func (s *Schema) NodeIndex() (*NodeIndex, error) {
	idxs, err := s.db.Indexes()
	if err != nil {
		return nil, err
	}
	var found gdi.Index
	for _, idx := range idxs {
		ls, err1 := idx.Labels()
		ps, err2 := idx.PropertyTypes()
		if err1 == nil && err2 == nil && len(ps) == 0 && slices.Contains(ls, gdi.LabelNone) {
			found = idx
			break
		}
	}
	if found == nil {
		if found, err = s.db.CreateIndex(gdi.HashTableIndex, 0); err != nil {
			return nil, err
		}
	}
	n := &NodeIndex{s: s, idx: found}
	return n, n.cover()
}

// Index returns the GDI index.
func (n *NodeIndex) Index() gdi.Index { return n.idx }

// Ensure is Schema.Ensure followed by adding the labels it made (and any
// other label of the catalog the index lacks) to the index. It is
// collective: every rank calls it with the same names.
func (n *NodeIndex) Ensure(labels, keys []string) error {
	if err := n.s.Ensure(labels, keys); err != nil {
		return err
	}
	return n.cover()
}

// cover adds LabelNone and every label of the catalog missing from the
// index, in catalog order, which is the same on every rank.
func (n *NodeIndex) cover() error {
	all, err := n.s.db.Labels()
	if err != nil {
		return err
	}
	have, err := n.idx.Labels()
	if err != nil {
		return err
	}
	var missing []gdi.Label
	if !slices.Contains(have, gdi.LabelNone) {
		missing = append(missing, gdi.LabelNone)
	}
	for _, l := range all {
		if !slices.Contains(have, l) {
			missing = append(missing, l)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return n.idx.AddLabelsAndPropertyTypes(missing, nil)
}
