package refdb

import (
	"slices"
	"sync"

	"github.com/gdi-go/gdi/gdi"
)

// noLabel is the label part of the implicit index key of an object
// without labels: the number of gdi.LabelNone.
var noLabel = gdi.LabelNone.ID()

// idKey is a key of the implicit index: an application-level ID under a
// label (or noLabel), for vertices or for edges.
type idKey struct {
	kind  kind
	label uint32
	id    string
}

// idKeys returns the keys under which the implicit index lists r.
func idKeys(k kind, r *record) []idKey {
	id, ok := r.appID()
	if !ok {
		return nil
	}
	if len(r.labels) == 0 {
		return []idKey{{k, noLabel, id}}
	}
	keys := make([]idKey, len(r.labels))
	for i, l := range r.labels {
		keys[i] = idKey{k, l, id}
	}
	return keys
}

// store holds the committed graph of one database, shared by its ranks:
// the vertex and edge records by object number, and the implicit index.
// mu guards everything in it.
type store struct {
	number uint32 // the store's number in the registry and in UIDs

	mu      sync.Mutex
	objects [2]map[uint64]*record // by kind
	last    uint64                // the last object number handed out
	ids     map[idKey]map[uint64]bool
}

func newStore(number uint32) *store {
	return &store{
		number:  number,
		objects: [2]map[uint64]*record{{}, {}},
		ids:     map[idKey]map[uint64]bool{},
	}
}

// newNumber returns an object number never handed out before.
func (s *store) newNumber() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.newNumberLocked()
}

func (s *store) newNumberLocked() uint64 {
	s.last++
	return s.last
}

// get returns the committed record of object n, or nil. The caller holds mu.
func (s *store) get(k kind, n uint64) *record { return s.objects[k][n] }

// install makes r the committed record of object n (nil deletes it) and
// updates the implicit index. The caller holds mu.
func (s *store) install(k kind, n uint64, r *record) {
	if old := s.objects[k][n]; old != nil {
		for _, key := range idKeys(k, old) {
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
	for _, key := range idKeys(k, r) {
		if s.ids[key] == nil {
			s.ids[key] = map[uint64]bool{}
		}
		s.ids[key][n] = true
	}
}

// idMatches returns the committed objects listed under key, ascending.
// The caller holds mu.
func (s *store) idMatches(key idKey) []uint64 {
	var ns []uint64
	for n := range s.ids[key] {
		ns = append(ns, n)
	}
	slices.Sort(ns)
	return ns
}

// scan returns the committed objects of kind k for which keep holds,
// ascending. The caller holds mu.
func (s *store) scan(k kind, keep func(n uint64, r *record) bool) []uint64 {
	var ns []uint64
	for n, r := range s.objects[k] {
		if keep(n, r) {
			ns = append(ns, n)
		}
	}
	slices.Sort(ns)
	return ns
}
