package gdirma

import (
	"github.com/cespare/xxhash/v2"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/internal/agree"
	"github.com/gdi-go/gdi/internal/catalog"
	"github.com/gdi-go/gdi/internal/wire"
	"github.com/gdi-go/gdi/rma"
)

// The gdi.MetadataRewriter methods. Each is collective and needs a quiet
// database. All ranks check and agree; then every rank rewrites the
// holders whose primary blocks it has, in parallel (with new versions, so
// that nothing stale can commit), and the ranks agree on the outcome;
// every rank updates its metadata replica; a barrier ends the call. That
// frame is the catalog's (internal/catalog, shared with the other
// backend, where rank 0 rewrites); the rewriting is this backend's. No
// rank reads another's holders: a rank's memory holds the new records of
// its own changed holders at most.

// rewrite replaces every holder of the calling rank for which f returns a
// new record (collective, on a quiet database). Every rank computes its
// changes before any rank applies one: if f fails on any rank, nothing
// changes, and every rank returns that error.
func (db *Database) rewrite(f func(k kind, r *record) (*record, error)) error {
	var changes []change
	var err error
	for _, k := range []kind{vertexKind, edgeKind} {
		if err == nil {
			err = db.st.scanRank(db.rank, k, func(n layout.Number, r *record) error {
				nr, err := f(k, r)
				if err == nil && nr != nil {
					changes = append(changes, change{k: k, n: n, old: r, new: nr})
				}
				return err
			})
		}
	}
	if err := agree.Errors(db.comm, err); err != nil {
		return err
	}
	return agree.Errors(db.comm, db.st.applyNow(changes))
}

// sharedIDs reports, on every rank, whether two of the IDs the ranks pass
// are equal (collective): each ID goes to the rank its hash names, which
// compares those it gets.
func (db *Database) sharedIDs(ids []string) (bool, error) {
	send := make([][]byte, db.comm.Size())
	for _, id := range ids {
		o := xxhash.Sum64String(id) % uint64(len(send))
		send[o] = wire.AppendString(send[o], id)
	}
	recv, err := db.comm.Alltoallv(send)
	if err != nil {
		return false, internal(err)
	}
	seen := map[string]bool{}
	shared := int64(0)
	for _, buf := range recv {
		for len(buf) > 0 {
			idb, rest, ok := wire.Bytes(buf)
			if !ok {
				return false, gdi.Errorf(gdi.ErrIntern, "gdirma: a malformed message of IDs")
			}
			id := string(idb)
			if seen[id] {
				shared = 1
			}
			seen[id] = true
			buf = rest
		}
	}
	flag := []int64{shared}
	if err := db.comm.AllreduceInt64(flag, rma.OpMax); err != nil {
		return false, internal(err)
	}
	return flag[0] != 0, nil
}

// FreeLabel removes l from every object and index and frees it. It warns
// WarnNonUniqueID if two vertices without labels share an ID after it
// (spec 5: whether or not the call made them so), which it tells from the
// records its rewrite walks anyway.
func (db *Database) FreeLabel(l gdi.Label) error {
	defer db.pauseAuto()() // it writes holders outside commits
	return db.reindexAfter(db.RewriteFreeLabel(l, db.quietCheck, func(n uint32) error {
		var unlabeled []string // IDs of the rank's vertices left without labels
		err := db.rewrite(func(k kind, r *record) (*record, error) {
			nr := withoutLabel(r, n)
			after := r
			if nr != nil {
				after = nr
			}
			if id, ok := after.appID(); ok && k == vertexKind && len(after.labels()) == 0 {
				unlabeled = append(unlabeled, id)
			}
			return nr, nil
		})
		if err != nil {
			return err
		}
		shared, err := db.sharedIDs(unlabeled)
		if err == nil && shared {
			err = gdi.Errorf(gdi.WarnNonUniqueID, "vertices without labels share an ID")
		}
		return err
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
		return db.rewrite(func(_ kind, r *record) (*record, error) {
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
		return db.rewrite(func(_ kind, r *record) (*record, error) {
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
