package tck

import (
	"math"
	"slices"
)

// Equal reports whether a and b are the same value by the TCK's rules:
// the same kind (an integer is never equal to a float); floats equal as
// numbers, so 0.0 equals -0.0, and NaN equals NaN; strings and booleans
// exactly; maps, and the properties of nodes and relationships, by key
// whatever their order; node labels as a set; relationships by type;
// paths element by element with their directions; lists in order, or as
// multisets when listsUnordered (the step said "ignoring element order for
// lists"), at every depth.
func Equal(a, b Val, listsUnordered bool) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case KindNull:
		return true
	case KindBool:
		return a.Bool == b.Bool
	case KindInt:
		return a.Int == b.Int
	case KindFloat:
		return a.Float == b.Float || math.IsNaN(a.Float) && math.IsNaN(b.Float)
	case KindString:
		return a.Str == b.Str
	case KindList:
		if listsUnordered {
			return sameMultiset(a.Elems, b.Elems, true)
		}
		return sameSequence(a.Elems, b.Elems, false)
	case KindMap:
		return sameMap(a.Props, b.Props, listsUnordered)
	case KindNode:
		return slices.Equal(a.Labels, b.Labels) && sameMap(a.Props, b.Props, listsUnordered)
	case KindRel:
		return a.Str == b.Str && sameMap(a.Props, b.Props, listsUnordered)
	case KindPath:
		return slices.Equal(a.Back, b.Back) && sameSequence(a.Elems, b.Elems, listsUnordered)
	}
	return false
}

func sameSequence(a, b []Val, listsUnordered bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !Equal(a[i], b[i], listsUnordered) {
			return false
		}
	}
	return true
}

func sameMap(a, b map[string]Val, listsUnordered bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k, va := range a {
		vb, ok := b[k]
		if !ok || !Equal(va, vb, listsUnordered) {
			return false
		}
	}
	return true
}

// sameMultiset reports whether a and b hold the same values as many times
// each, whatever their order. Equal is an equivalence, so matching each
// element of a to the first unused equal element of b is exact.
func sameMultiset(a, b []Val, listsUnordered bool) bool {
	if len(a) != len(b) {
		return false
	}
	used := make([]bool, len(b))
	for _, x := range a {
		j := indexUnused(b, used, func(y Val) bool { return Equal(x, y, listsUnordered) })
		if j < 0 {
			return false
		}
		used[j] = true
	}
	return true
}

// indexUnused returns the index of the first element of s not yet used
// that satisfies eq, or -1.
func indexUnused[T any](s []T, used []bool, eq func(T) bool) int {
	for j := range s {
		if !used[j] && eq(s[j]) {
			return j
		}
	}
	return -1
}
