package gdi

import "fmt"

// IndexType is the kind of an explicit index.
type IndexType uint8

// Index types. The zero IndexType is invalid (ErrState).
const (
	// HashTableIndex is meant for equality and inequality look-ups.
	HashTableIndex IndexType = iota + 1
	// BTreeIndex is meant for ranges and ordered comparisons.
	BTreeIndex
)

func (t IndexType) String() string {
	switch t {
	case HashTableIndex:
		return "GDI_INDEXTYPE_HASHTABLE"
	case BTreeIndex:
		return "GDI_INDEXTYPE_BTREE"
	}
	return fmt.Sprintf("IndexType(%d)", uint8(t))
}

// Index is an explicit index of a database on one rank. An index has a set
// L of labels and a set P of property types, and it indexes every object
// (vertex or edge) o with labels oL and property types oP for which
//
//	(L is empty or L ∩ oL is not empty) and (P is empty or P ∩ oP is not empty)
//
// and L ∪ P is not empty (see IndexCovers). LabelNone in L stands for
// objects without labels. Entries change at the commit of the transactions
// that change objects, and when L or P change.
//
// Indexes are queried inside transactions, through
// Transaction.VerticesOfIndex and its relatives; the index type is a hint
// on the look-ups to optimise for and does not change results.
//
// Every method that changes L or P, and Free, is collective: every rank
// calls it with the same arguments (the same labels and property types, by
// object number) in the same order, and with no transaction of the database
// open on the rank. The other methods are local. Methods of a freed index
// return ErrIndex. An Index is an interface value implemented by a pointer
// type: comparable, usable as a map key, not shareable between ranks. It is
// safe for concurrent use by goroutines of its rank, except that collective
// calls must come from one goroutine.
type Index interface {
	// Type returns the index type given at creation.
	Type() (IndexType, error)
	// Labels returns L.
	Labels() ([]Label, error)
	// PropertyTypes returns P.
	PropertyTypes() ([]PropertyType, error)

	// AddLabel adds l to L (collective); present already: no change.
	AddLabel(l Label) error
	// RemoveLabel removes l from L (collective); absent: no change.
	RemoveLabel(l Label) error
	// AddPropertyType adds p to P (collective).
	AddPropertyType(p PropertyType) error
	// RemovePropertyType removes p from P (collective).
	RemovePropertyType(p PropertyType) error
	// AddLabelsAndPropertyTypes adds several labels and property types at
	// once, recomputing the index only once (collective). If any handle
	// belongs to another database, nothing is added (ErrObjectMismatch).
	AddLabelsAndPropertyTypes(ls []Label, ps []PropertyType) error
	// RemoveLabelsAndPropertyTypes removes several labels and property
	// types at once (collective). Handles not in L or P are ignored.
	RemoveLabelsAndPropertyTypes(ls []Label, ps []PropertyType) error

	// Free removes the index (collective, barrier). The handle becomes
	// invalid.
	Free() error
}

// IndexCovers reports whether an index with labels l and property types p
// indexes an object with labels ol and property types op: the index model
// above, with LabelNone in l matching objects whose ol is empty. It is the
// rule every backend applies.
func IndexCovers(l []Label, p []PropertyType, ol []Label, op []PropertyType) bool {
	if len(l) == 0 && len(p) == 0 {
		return false
	}
	if len(l) > 0 {
		hit := false
		for _, x := range l {
			if x == LabelNone && len(ol) == 0 || containsHandle(ol, x) {
				hit = true
				break
			}
		}
		if !hit {
			return false
		}
	}
	if len(p) > 0 {
		hit := false
		for _, x := range p {
			if containsHandle(op, x) {
				hit = true
				break
			}
		}
		if !hit {
			return false
		}
	}
	return true
}

func containsHandle[T comparable](s []T, x T) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}
