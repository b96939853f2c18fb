package refdb

import (
	"fmt"
	"slices"

	"github.com/gdi-go/gdi/gdi"
)

// The gdi.MetadataRewriter calls change metadata on every rank and
// rewrite the graph data, once, on rank 0. They need a quiet database, so
// no transaction holds a record while rank 0 replaces them. The exchange
// of rank 0's outcome (fromRoot) is the barrier after which every rank
// sees the rewritten data.

// onRoot runs rewrite on the store, under its lock, on rank 0 only.
func (db *Database) onRoot(rewrite func(s *store) error) error {
	if db.comm.Rank() != 0 {
		return nil
	}
	db.store.mu.Lock()
	defer db.store.mu.Unlock()
	return rewrite(db.store)
}

// rewriteAll replaces every record for which change returns a new one.
// The caller holds the store's lock.
func (s *store) rewriteAll(change func(r *record) *record) {
	for k := range s.objects {
		for n, r := range s.objects[k] {
			if c := change(r); c != nil {
				s.install(kind(k), n, c)
			}
		}
	}
}

// FreeLabel removes l from every object and index and frees it
// (collective). WarnNonUniqueID if vertices without labels share an ID
// afterwards.
func (db *Database) FreeLabel(l gdi.Label) error {
	var n uint32
	call := fmt.Sprintf("FreeLabel(%d)", l.ID())
	err := db.collective(call, func() (err error) {
		if n, err = db.userLabel(l); err != nil {
			return err
		}
		return db.quiet(call)
	}, func() {
		db.cat.dropLabel(n)
		for _, idx := range db.indexes {
			idx.labels = without(idx.labels, []uint32{n})
		}
	})
	if err != nil {
		return err
	}
	return fromRoot(db.comm, call, db.onRoot(func(s *store) error {
		s.rewriteAll(func(r *record) *record {
			if !r.hasLabel(n) {
				return nil
			}
			c := r.clone()
			c.labels = without(c.labels, []uint32{n})
			return c
		})
		return s.sharedUnlabeledID()
	}))
}

// sharedUnlabeledID returns WarnNonUniqueID if vertices without labels
// share an application-level ID. The caller holds mu.
func (s *store) sharedUnlabeledID() error {
	for key, ns := range s.ids {
		if key.kind == vertexKind && key.label == noLabel && len(ns) > 1 {
			return gdi.Errorf(gdi.WarnNonUniqueID, "%d vertices without labels have the ID %q", len(ns), key.id)
		}
	}
	return nil
}

// FreePropertyType removes every property of type p and frees p
// (collective).
func (db *Database) FreePropertyType(p gdi.PropertyType) error {
	var n uint32
	call := fmt.Sprintf("FreePropertyType(%d)", p.ID())
	err := db.collective(call, func() (err error) {
		if n, _, err = db.userPtype(p); err != nil {
			return err
		}
		return db.quiet(call)
	}, func() {
		db.cat.dropPtype(n)
		for _, idx := range db.indexes {
			idx.ptypes = without(idx.ptypes, []uint32{n})
		}
	})
	if err != nil {
		return err
	}
	return fromRoot(db.comm, call, db.onRoot(func(s *store) error {
		s.rewriteAll(func(r *record) *record {
			if !slices.ContainsFunc(r.props, func(x property) bool { return x.ptype == n }) {
				return nil
			}
			c := r.clone()
			c.removeProperties(n)
			return c
		})
		return nil
	}))
}
