package refdb

import (
	"fmt"

	"github.com/gdi-go/gdi/gdi"
)

// The collective calls that change L or P of an index, and Index.Free,
// share change: every handle must be valid on every rank, or nothing
// changes anywhere.

// AddLabel adds l to L (collective).
func (idx *index) AddLabel(l gdi.Label) error {
	return idx.AddLabelsAndPropertyTypes([]gdi.Label{l}, nil)
}

// RemoveLabel removes l from L (collective).
func (idx *index) RemoveLabel(l gdi.Label) error {
	return idx.RemoveLabelsAndPropertyTypes([]gdi.Label{l}, nil)
}

// AddPropertyType adds p to P (collective).
func (idx *index) AddPropertyType(p gdi.PropertyType) error {
	return idx.AddLabelsAndPropertyTypes(nil, []gdi.PropertyType{p})
}

// RemovePropertyType removes p from P (collective).
func (idx *index) RemovePropertyType(p gdi.PropertyType) error {
	return idx.RemoveLabelsAndPropertyTypes(nil, []gdi.PropertyType{p})
}

// AddLabelsAndPropertyTypes adds labels and property types (collective).
func (idx *index) AddLabelsAndPropertyTypes(ls []gdi.Label, ps []gdi.PropertyType) error {
	return idx.change("Index.AddLabelsAndPropertyTypes", ls, ps, func(l, p []uint32) {
		idx.labels = addUnique(idx.labels, l)
		idx.ptypes = addUnique(idx.ptypes, p)
	})
}

// RemoveLabelsAndPropertyTypes removes labels and property types
// (collective).
func (idx *index) RemoveLabelsAndPropertyTypes(ls []gdi.Label, ps []gdi.PropertyType) error {
	return idx.change("Index.RemoveLabelsAndPropertyTypes", ls, ps, func(l, p []uint32) {
		idx.labels = without(idx.labels, l)
		idx.ptypes = without(idx.ptypes, p)
	})
}

// change resolves ls and ps on this rank, agrees with the other ranks, and
// applies the change to this rank's replica of the index.
func (idx *index) change(call string, ls []gdi.Label, ps []gdi.PropertyType, apply func(l, p []uint32)) error {
	db := idx.db
	db.mu.Lock()
	if err := idx.valid(call); err != nil {
		db.mu.Unlock()
		return err
	}
	l, p, verdict := db.resolve(ls, ps)
	db.mu.Unlock()
	desc := fmt.Sprintf("%s(index %d, labels %v, property types %v)", call, idx.number, ids(ls), ids(ps))
	if err := agree(db.comm, desc, verdict); err != nil {
		return err
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	apply(l, p)
	return nil
}

// resolve returns the object numbers of ls and ps (0 for an invalid
// handle) and the first error among them. The caller holds mu.
func (db *Database) resolve(ls []gdi.Label, ps []gdi.PropertyType) ([]uint32, []uint32, error) {
	var first error
	l := make([]uint32, len(ls))
	for i, x := range ls {
		n, err := db.labelNumber(x)
		if first == nil {
			first = err
		}
		l[i] = n
	}
	p := make([]uint32, len(ps))
	for i, x := range ps {
		n, _, err := db.ptypeNumber(x)
		if first == nil {
			first = err
		}
		p[i] = n
	}
	return l, p, first
}

// ids lists the object numbers of handles, for the description of a
// collective call.
func ids[H interface{ ID() uint32 }](hs []H) []uint32 {
	out := make([]uint32, len(hs))
	for i, h := range hs {
		out[i] = h.ID()
	}
	return out
}
