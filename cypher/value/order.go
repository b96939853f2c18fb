package value

import (
	"cmp"
	"slices"
	"strings"
)

// Orderability, the total order of ORDER BY (and of min and max). Values
// of different types sort by type, ascending:
//
//	Map < Node < Relationship < List < Path < String < Boolean < Number < null
//
// so null sorts last ascending and first descending. Within a type:
//
//   - numbers by value, Integer and Float together (1 and 1.0 tie), -0.0
//     and 0.0 tie, and NaN after every other number (+Inf < NaN);
//   - strings by code point, false < true;
//   - lists lexicographically under this same order, a prefix first
//     ([] < ['a'] < ['a', 1] < [1] < [1, 'a'] < [1, null]);
//   - maps by their keys taken in ascending order, compared as a list of
//     strings, then by their values in that key order;
//   - nodes and relationships by ID;
//   - paths as the list n0, r0, n1, … of their elements.
//
// Compare(a, b) == 0 exactly when a and b are equivalent (see Equivalent).

var typeRank = [...]int{
	KindMap:          0,
	KindNode:         1,
	KindRelationship: 2,
	KindList:         3,
	KindPath:         4,
	KindString:       5,
	KindBoolean:      6,
	KindInteger:      7,
	KindFloat:        7,
	KindNull:         8,
}

// Compare returns -1, 0 or +1 as a sorts before, with or after b.
func Compare(a, b Value) int {
	if ra, rb := typeRank[a.kind], typeRank[b.kind]; ra != rb {
		return cmp.Compare(int64(ra), int64(rb))
	}
	switch a.kind {
	case KindInteger, KindFloat:
		return compareNumbers(a, b)
	case KindString:
		return strings.Compare(a.Str(), b.Str())
	case KindBoolean:
		return cmp.Compare(int64(a.bits), int64(b.bits))
	case KindList:
		return compareLists(a.List(), b.List())
	case KindMap:
		return compareMaps(a.Map(), b.Map())
	case KindNode:
		return cmp.Compare(a.Node().ID, b.Node().ID)
	case KindRelationship:
		ra, rb := a.Relationship().ID, b.Relationship().ID
		return slices.Compare(ra[:], rb[:])
	case KindPath:
		return comparePaths(a.Path(), b.Path())
	}
	return 0 // null
}

func compareNumbers(a, b Value) int {
	switch an, bn := a.isNaN(), b.isNaN(); {
	case an || bn:
		return cmp.Compare(b2i(an), b2i(bn))
	}
	return cmpNumbers(a, b)
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func compareLists(a, b []Value) int {
	for i := 0; i < min(len(a), len(b)); i++ {
		if c := Compare(a[i], b[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(int64(len(a)), int64(len(b)))
}

func compareMaps(a, b Map) int {
	n := min(a.Len(), b.Len())
	for i := 0; i < n; i++ {
		if c := strings.Compare(a.key(i), b.key(i)); c != 0 {
			return c
		}
	}
	if c := cmp.Compare(int64(a.Len()), int64(b.Len())); c != 0 {
		return c
	}
	for i := 0; i < n; i++ {
		if c := Compare(a.val(i), b.val(i)); c != 0 {
			return c
		}
	}
	return 0
}

func comparePaths(a, b Path) int {
	n := min(len(a.Rels), len(b.Rels))
	for i := 0; i <= n; i++ {
		if c := cmp.Compare(a.Nodes[i].ID, b.Nodes[i].ID); c != 0 {
			return c
		}
		if i == n {
			break
		}
		if c := slices.Compare(a.Rels[i].ID[:], b.Rels[i].ID[:]); c != 0 {
			return c
		}
	}
	return cmp.Compare(int64(len(a.Rels)), int64(len(b.Rels)))
}
