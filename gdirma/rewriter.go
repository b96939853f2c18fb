package gdirma

import (
	"fmt"
	"maps"
	"slices"

	"github.com/gdi-go/gdi/gdi"
)

// The gdi.MetadataRewriter methods. Each is collective and needs a quiet
// database. All ranks check and agree; rank 0 rewrites the shared graph
// data (with new versions, so that nothing stale can commit) and tells the
// others the outcome; then every rank updates its metadata replica; a
// barrier ends the call.

// rewrite replaces every object for which f returns a new record (on a
// quiet database). It returns the first error of f, before changing
// anything.
func (st *store) rewrite(f func(k kind, r *record) (*record, error)) error {
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

// FreeLabel removes l from every object and index and frees it.
func (db *Database) FreeLabel(l gdi.Label) error {
	if db.IsFreed() {
		return errFreedDB()
	}
	n, local := db.LabelNum(l, false)
	if local == nil {
		local = db.quietCheck("FreeLabel")
	}
	if err := db.Agree(fmt.Sprintf("FreeLabel %d", l.ID()), local); err != nil {
		return err
	}
	var result error
	if db.rank == 0 {
		var unlabeled []*record
		result = db.st.rewrite(func(k kind, r *record) (*record, error) {
			// Lightweight edges carry their label in the references
			// their ends keep.
			refs := false
			for _, x := range r.edges {
				refs = refs || x.label == n
			}
			if !r.hasLabel(n) && !refs {
				return nil, nil
			}
			nr := r.clone()
			for e, x := range nr.edges {
				if x.label == n {
					x.label = 0
					nr.edges[e] = x
				}
			}
			if !r.hasLabel(n) {
				return nr, nil
			}
			nr.labels = removeItem(nr.labels, n)
			if k == vertexKind && len(nr.labels) == 0 {
				unlabeled = append(unlabeled, nr)
			}
			return nr, nil
		})
		if result == nil {
			result = db.sharedIDWarning(unlabeled)
		}
	}
	result = db.BcastCode(result)
	if !gdi.Failed(result) {
		db.FreeLabelMeta(n)
	}
	if err := db.Barrier(); err != nil {
		return err
	}
	return result
}

// sharedIDWarning returns WarnNonUniqueID if one of the vertices, which
// lost their last label, shares its ID with another vertex without labels.
func (db *Database) sharedIDWarning(unlabeled []*record) error {
	for _, r := range unlabeled {
		for _, key := range r.idKeys() {
			m, err := db.st.committedIDMatches(vertexKind, key)
			if err != nil {
				return err
			}
			if len(m) > 1 {
				return gdi.Errorf(gdi.WarnNonUniqueID, "vertices without labels share ID %q", key.id)
			}
		}
	}
	return nil
}

// userPtype checks a handle of a property type that is not predefined.
func (db *Database) userPtype(p gdi.PropertyType) (uint32, gdi.PropertyTypeInfo, error) {
	if p.IsPredefined() {
		return 0, gdi.PropertyTypeInfo{}, gdi.Errorf(gdi.ErrPropertyType, "%v is predefined", p)
	}
	return db.PtypeNum(p)
}

// FreePropertyType removes every property of type p and frees p.
func (db *Database) FreePropertyType(p gdi.PropertyType) error {
	if db.IsFreed() {
		return errFreedDB()
	}
	n, _, local := db.userPtype(p)
	if local == nil {
		local = db.quietCheck("FreePropertyType")
	}
	if err := db.Agree(fmt.Sprintf("FreePropertyType %d", p.ID()), local); err != nil {
		return err
	}
	var result error
	if db.rank == 0 {
		result = db.st.rewrite(func(_ kind, r *record) (*record, error) {
			if len(r.values(n)) == 0 {
				return nil, nil
			}
			nr := r.clone()
			nr.removeProperties(n)
			return nr, nil
		})
	}
	result = db.BcastCode(result)
	if !gdi.Failed(result) {
		db.FreePtypeMeta(n)
	}
	if err := db.Barrier(); err != nil {
		return err
	}
	return result
}

// UpdatePropertyType changes the description of p and rewrites every
// property of type p to match it.
func (db *Database) UpdatePropertyType(p gdi.PropertyType, info gdi.PropertyTypeInfo, def gdi.Value) error {
	if db.IsFreed() {
		return errFreedDB()
	}
	n, old, local := db.userPtype(p)
	norm, err := info.Validate()
	if local == nil {
		local = err
	}
	if local == nil {
		if db.PtypeNameTaken(norm.Name, n) {
			local = gdi.Errorf(gdi.ErrNameExists, "property type %q exists", norm.Name)
		}
	}
	if local == nil && !gdi.CanConvert(old.Datatype, norm.Datatype) {
		local = gdi.Errorf(gdi.ErrConversion, "%v cannot be converted to %v", old.Datatype, norm.Datatype)
	}
	if local == nil {
		local = db.quietCheck("UpdatePropertyType")
	}
	if err := db.Agree(fmt.Sprintf("UpdatePropertyType %d %+v %v", p.ID(), norm, def), local); err != nil {
		return err
	}
	var result error
	if db.rank == 0 {
		result = db.st.rewrite(func(_ kind, r *record) (*record, error) {
			vals := r.values(n)
			if len(vals) == 0 {
				return nil, nil
			}
			var out []gdi.Value
			for _, v := range vals {
				cv, err := fitValue(v, norm, def)
				if err != nil {
					return nil, err
				}
				if !slices.Contains(out, cv) {
					out = append(out, cv)
				}
			}
			if norm.Entity == gdi.SingleEntity {
				out = out[:1]
			}
			nr := r.clone()
			nr.removeProperties(n)
			for _, v := range out {
				nr.props = append(nr.props, property{n, v})
			}
			return nr, nil
		})
	}
	result = db.BcastCode(result)
	if !gdi.Failed(result) {
		db.UpdatePtypeMeta(n, norm)
	}
	if err := db.Barrier(); err != nil {
		return err
	}
	return result
}

// fitValue converts v to the datatype of info and cuts or pads it to the
// size limit; padding uses def, which must be one element of the datatype.
func fitValue(v gdi.Value, info gdi.PropertyTypeInfo, def gdi.Value) (gdi.Value, error) {
	cv, err := gdi.Convert(v, info.Datatype)
	if err != nil {
		return gdi.Value{}, err
	}
	size, _ := info.Datatype.Size()
	raw := cv.Raw()
	switch {
	case info.Size != gdi.NoSizeLimit && cv.Len() > info.Count:
		raw = raw[:info.Count*size]
	case info.Size == gdi.FixedSize && cv.Len() < info.Count:
		if def.Datatype() != info.Datatype || def.Len() != 1 {
			return gdi.Value{}, gdi.Errorf(gdi.ErrArgument, "padding to %d elements needs a default value of one %v", info.Count, info.Datatype)
		}
		for len(raw) < info.Count*size {
			raw = def.AppendRaw(raw)
		}
	default:
		return cv, nil
	}
	return gdi.NewValue(info.Datatype, raw)
}
