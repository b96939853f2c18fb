package gdirma

import (
	"slices"

	"github.com/gdi-go/gdi/gdirma/internal/layout"
)

// edgeEntry is one reference of a vertex holder to an incident edge: the
// edge's number and what the vertex keeps of it.
type edgeEntry struct {
	n   layout.Number
	ref layout.Ref
}

// edgeSet is the set of references a vertex holder keeps, sorted by edge
// number. It is a slice rather than a map because it is decoded from and
// encoded to the holder's image in that order on every access: one
// allocation to read, no sort to write, and a binary search to find an
// edge.
type edgeSet []edgeEntry

func (s edgeSet) search(n layout.Number) (int, bool) {
	return slices.BinarySearchFunc(s, n, func(e edgeEntry, n layout.Number) int {
		switch {
		case e.n < n:
			return -1
		case e.n > n:
			return 1
		}
		return 0
	})
}

// get returns the reference to edge n.
func (s edgeSet) get(n layout.Number) (layout.Ref, bool) {
	i, ok := s.search(n)
	if !ok {
		return layout.Ref{}, false
	}
	return s[i].ref, true
}

// set adds or replaces the reference to edge n.
func (s *edgeSet) set(n layout.Number, x layout.Ref) {
	i, ok := s.search(n)
	if ok {
		(*s)[i].ref = x
		return
	}
	*s = slices.Insert(*s, i, edgeEntry{n, x})
}

// del removes the reference to edge n and reports whether there was one.
func (s *edgeSet) del(n layout.Number) bool {
	i, ok := s.search(n)
	if ok {
		*s = slices.Delete(*s, i, i+1)
	}
	return ok
}

// nums returns the edge numbers, ascending, in a slice of their own (for
// loops that change the set).
func (s edgeSet) nums() []layout.Number {
	out := make([]layout.Number, len(s))
	for i, e := range s {
		out[i] = e.n
	}
	return out
}
