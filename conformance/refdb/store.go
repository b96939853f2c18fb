package refdb

import (
	"sync"
)

// store is the graph data of one database, shared by all its ranks. Every
// field is guarded by mu.
type store struct {
	num uint32 // the store's number in the process, part of every UID

	mu      sync.Mutex
	commits uint64                // number of the last commit (versions)
	objects [2]map[uint64]*record // committed vertices and edges by number
	next    [2]uint64             // last number handed out per kind
	// ids is the implicit index: the vertices found under each key.
	ids map[idKey]map[uint64]struct{}
}

func newStore(num uint32) *store {
	return &store{
		num:     num,
		objects: [2]map[uint64]*record{{}, {}},
		ids:     map[idKey]map[uint64]struct{}{},
	}
}

// newNumber hands out a fresh object number of kind k. Numbers of objects
// created by transactions that abort are never reused.
func (s *store) newNumber(k kind) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next[k]++
	return s.next[k]
}

// newNumberLocked is newNumber for callers that hold mu.
func (s *store) newNumberLocked(k kind) uint64 {
	s.next[k]++
	return s.next[k]
}

// install replaces (or, with r == nil, deletes) object n of kind k and
// keeps the implicit index up to date. The caller holds mu and sets
// r.version.
func (s *store) install(k kind, n uint64, r *record) {
	if old := s.objects[k][n]; old != nil && k == vertexKind {
		for _, key := range old.idKeys() {
			delete(s.ids[key], n)
			if len(s.ids[key]) == 0 {
				delete(s.ids, key)
			}
		}
	}
	if r == nil {
		delete(s.objects[k], n)
		return
	}
	s.objects[k][n] = r
	if k == vertexKind {
		for _, key := range r.idKeys() {
			if s.ids[key] == nil {
				s.ids[key] = map[uint64]struct{}{}
			}
			s.ids[key][n] = struct{}{}
		}
	}
}

// committedIDMatches returns the committed objects of kind k found under
// key. The caller holds mu.
func (s *store) committedIDMatches(k kind, key idKey) map[uint64]struct{} {
	out := map[uint64]struct{}{}
	if k == vertexKind {
		for n := range s.ids[key] {
			out[n] = struct{}{}
		}
		return out
	}
	for n, r := range s.objects[k] {
		if r.matchesID(key) {
			out[n] = struct{}{}
		}
	}
	return out
}

// degrees returns degree, in-degree and out-degree of committed vertex r.
// The caller holds mu.
func (s *store) degrees(n uint64, r *record) (deg, in, out uint64) {
	for e := range r.edges {
		if er := s.objects[edgeKind][e]; er != nil {
			deg, in, out = addDegree(deg, in, out, n, er)
		}
	}
	return
}
