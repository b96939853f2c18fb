package gdirma

import (
	"maps"
	"slices"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/internal/catalog"
)

// The gdi.MetadataRewriter methods. Each is collective and needs a quiet
// database. All ranks check and agree; rank 0 rewrites the shared graph
// data (with new versions, so that nothing stale can commit) and tells the
// others the outcome; then every rank updates its metadata replica; a
// barrier ends the call. That frame is the catalog's (internal/catalog,
// shared with the other backend); the rewriting is this backend's.

// rewrite replaces every object for which f returns a new record (on a
// quiet database). It returns the first error of f, before changing
// anything.
func (st *graph) rewrite(f func(k kind, r *record) (*record, error)) error {
	var changes []change
	for _, k := range []kind{vertexKind, edgeKind} {
		objs, err := st.all(k)
		if err != nil {
			return err
		}
		for _, n := range slices.Sorted(maps.Keys(objs)) {
			r := objs[n]
			nr, err := f(k, r)
			if err != nil {
				return err
			}
			if nr != nil {
				changes = append(changes, change{k: k, n: n, old: r, new: nr})
			}
		}
	}
	return st.applyNow(changes)
}

// FreeLabel removes l from every object and index and frees it. It warns
// WarnNonUniqueID if two vertices without labels share an ID after it
// (spec 5: whether or not the call made them so), which it tells from the
// records its rewrite walks anyway.
func (db *Database) FreeLabel(l gdi.Label) error {
	defer db.pauseAuto()() // it writes holders outside commits
	return db.reindexAfter(db.RewriteFreeLabel(l, db.quietCheck, func(n uint32) error {
		unlabeled := map[string]bool{} // IDs of vertices left without labels
		var shared error
		err := db.st.rewrite(func(k kind, r *record) (*record, error) {
			nr := withoutLabel(r, n)
			after := r
			if nr != nil {
				after = nr
			}
			if id, ok := after.appID(); ok && k == vertexKind && len(after.labels()) == 0 {
				if unlabeled[id] && shared == nil {
					shared = gdi.Errorf(gdi.WarnNonUniqueID, "vertices without labels share ID %q", id)
				}
				unlabeled[id] = true
			}
			return nr, nil
		})
		if err != nil {
			return err
		}
		return shared
	}))
}

// withoutLabel returns r without label n, in its labels and in the
// references to lightweight edges (which carry their label), or nil if r
// has it in neither.
func withoutLabel(r *record, n uint32) *record {
	refs := false
	for _, x := range r.refList() {
		refs = refs || x.ref.Label == n
	}
	if !r.hasLabel(n) && !refs {
		return nil
	}
	nr := r.clone()
	es := *nr.refs()
	for i := range es {
		if es[i].ref.Label == n {
			es[i].ref.Label = 0
		}
	}
	if r.hasLabel(n) {
		nr.setLabels(removeItem(nr.labels(), n))
	}
	return nr
}

// FreePropertyType removes every property of type p and frees p.
func (db *Database) FreePropertyType(p gdi.PropertyType) error {
	defer db.pauseAuto()() // it writes holders outside commits
	return db.reindexAfter(db.RewriteFreePropertyType(p, db.quietCheck, func(n uint32) error {
		return db.st.rewrite(func(_ kind, r *record) (*record, error) {
			if len(r.values(n)) == 0 {
				return nil, nil
			}
			nr := r.clone()
			nr.removeProperties(n)
			return nr, nil
		})
	}))
}

// UpdatePropertyType changes the description of p and rewrites every
// property of type p to match it.
func (db *Database) UpdatePropertyType(p gdi.PropertyType, info gdi.PropertyTypeInfo, def gdi.Value) error {
	defer db.pauseAuto()() // it writes holders outside commits
	return db.reindexAfter(db.RewriteUpdatePropertyType(p, info, def, db.quietCheck, func(n uint32, norm gdi.PropertyTypeInfo) error {
		return db.st.rewrite(func(_ kind, r *record) (*record, error) {
			vals := r.values(n)
			if len(vals) == 0 {
				return nil, nil
			}
			out, err := catalog.FitValues(vals, norm, def)
			if err != nil {
				return nil, err
			}
			nr := r.clone()
			nr.removeProperties(n)
			for _, v := range out {
				nr.setProps(append(nr.props(), layout.Property{Ptype: n, Value: v}))
			}
			return nr, nil
		})
	}))
}

// reindexAfter rebuilds the index trees after a metadata rewrite that
// succeeded (err == nil): it changed holders and index sets at once.
func (db *Database) reindexAfter(err error) error {
	if err != nil {
		return err
	}
	return db.logCheckpoint(db.rebuildIndexes())
}
