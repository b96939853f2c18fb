package refdb

import (
	"fmt"
	"slices"

	"github.com/gdi-go/gdi/gdi"
)

// index is an explicit index on one rank: its labels L and property types
// P by object number. It stores no entries: a query scans the objects and
// keeps those that gdi.IndexCovers admits, so the index type changes
// nothing but what Type reports. Every rank keeps its own replica; number
// (the order of creation) names the index in collective calls. The
// database's mu guards it.
type index struct {
	db     *Database
	number int
	itype  gdi.IndexType
	freed  bool
	labels []uint32
	ptypes []uint32
}

// CreateIndex creates an empty index (collective, barrier).
func (db *Database) CreateIndex(t gdi.IndexType, hint int) (gdi.Index, error) {
	var idx *index
	err := db.collective(fmt.Sprintf("CreateIndex(%d, %d)", t, hint), func() error {
		if t != gdi.HashTableIndex && t != gdi.BTreeIndex {
			return gdi.Errorf(gdi.ErrState, "index type %v", t)
		}
		if hint < 0 {
			return gdi.Errorf(gdi.ErrCount, "negative hint %d", hint)
		}
		return nil
	}, func() {
		db.lastIndex++
		idx = &index{db: db, number: db.lastIndex, itype: t}
		db.indexes = append(db.indexes, idx)
	})
	if err != nil {
		return nil, err
	}
	return idx, nil
}

// Indexes returns the indexes of the database.
func (db *Database) Indexes() ([]gdi.Index, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if err := db.alive("Indexes"); err != nil {
		return nil, err
	}
	out := make([]gdi.Index, len(db.indexes))
	for i, x := range db.indexes {
		out[i] = x
	}
	return out, nil
}

// valid reports ErrIndex for a freed index or database. The caller holds
// the database's mu.
func (idx *index) valid(call string) error {
	if idx.freed || idx.db.freed {
		return gdi.Errorf(gdi.ErrIndex, "%s: the index was freed", call)
	}
	return nil
}

// Type returns the index type.
func (idx *index) Type() (gdi.IndexType, error) {
	idx.db.mu.Lock()
	defer idx.db.mu.Unlock()
	return idx.itype, idx.valid("Index.Type")
}

// Labels returns L.
func (idx *index) Labels() ([]gdi.Label, error) {
	idx.db.mu.Lock()
	defer idx.db.mu.Unlock()
	if err := idx.valid("Index.Labels"); err != nil {
		return nil, err
	}
	out := make([]gdi.Label, len(idx.labels))
	for i, n := range idx.labels {
		out[i] = idx.db.labelHandle(n)
	}
	return out, nil
}

// PropertyTypes returns P.
func (idx *index) PropertyTypes() ([]gdi.PropertyType, error) {
	idx.db.mu.Lock()
	defer idx.db.mu.Unlock()
	if err := idx.valid("Index.PropertyTypes"); err != nil {
		return nil, err
	}
	out := make([]gdi.PropertyType, len(idx.ptypes))
	for i, n := range idx.ptypes {
		out[i] = idx.db.ptypeHandle(n)
	}
	return out, nil
}

// covers returns the rule of the index as of now: whether an object with
// the given labels and property types (this rank's handles) is in it.
// The caller holds the database's mu.
func (idx *index) covers() func(ls []gdi.Label, ps []gdi.PropertyType) bool {
	var l []gdi.Label
	var p []gdi.PropertyType
	for _, n := range idx.labels {
		l = append(l, idx.db.labelHandle(n))
	}
	for _, n := range idx.ptypes {
		p = append(p, idx.db.ptypeHandle(n))
	}
	return func(ls []gdi.Label, ps []gdi.PropertyType) bool { return gdi.IndexCovers(l, p, ls, ps) }
}

// Free frees the index (collective, barrier).
func (idx *index) Free() error {
	db := idx.db
	return idx.change("Index.Free", nil, nil, func(_, _ []uint32) {
		idx.freed = true
		db.indexes = slices.DeleteFunc(db.indexes, func(x *index) bool { return x == idx })
	})
}

// addUnique appends the elements of add that s lacks.
func addUnique(s, add []uint32) []uint32 {
	for _, x := range add {
		if !slices.Contains(s, x) {
			s = append(s, x)
		}
	}
	return s
}

func without(s, drop []uint32) []uint32 {
	return slices.DeleteFunc(slices.Clone(s), func(x uint32) bool { return slices.Contains(drop, x) })
}
