package catalog

import (
	"fmt"
	"slices"

	"github.com/gdi-go/gdi/gdi"
)

// The frame of the gdi.MetadataRewriter methods. Each is collective and
// needs a quiet database. All ranks check and agree; rank 0 rewrites the
// graph data with the backend's rewrite function and tells the others the
// outcome; then every rank updates its replica; a barrier ends the call.
// quiet is the backend's check that the rank has no open transactions
// (ErrConsistency otherwise).

// RewriteFreeLabel is the frame of FreeLabel: rewrite removes label n
// from the graph data.
func (cat *Catalog) RewriteFreeLabel(l gdi.Label, quiet func(call string) error, rewrite func(n uint32) error) error {
	if cat.IsFreed() {
		return ErrFreedDB()
	}
	n, local := cat.LabelNum(l, false)
	if local == nil {
		local = quiet("FreeLabel")
	}
	return cat.rewriteFrame(fmt.Sprintf("FreeLabel %d", l.ID()), local, func() error { return rewrite(n) }, func() Delta { cat.freeLabelMeta(n); return cat.LabelDelta(n) })
}

// userPtype checks a handle of a property type that is not predefined.
func (cat *Catalog) userPtype(p gdi.PropertyType) (uint32, gdi.PropertyTypeInfo, error) {
	if p.IsPredefined() {
		return 0, gdi.PropertyTypeInfo{}, gdi.Errorf(gdi.ErrPropertyType, "%v is predefined", p)
	}
	return cat.PtypeNum(p)
}

// RewriteFreePropertyType is the frame of FreePropertyType: rewrite
// removes every property of type n from the graph data.
func (cat *Catalog) RewriteFreePropertyType(p gdi.PropertyType, quiet func(call string) error, rewrite func(n uint32) error) error {
	if cat.IsFreed() {
		return ErrFreedDB()
	}
	n, _, local := cat.userPtype(p)
	if local == nil {
		local = quiet("FreePropertyType")
	}
	return cat.rewriteFrame(fmt.Sprintf("FreePropertyType %d", p.ID()), local, func() error { return rewrite(n) }, func() Delta { cat.freePtypeMeta(n); return cat.PtypeDelta(n) })
}

// RewriteUpdatePropertyType is the frame of UpdatePropertyType: rewrite
// converts every property of type n to the checked description norm (see
// FitValues).
func (cat *Catalog) RewriteUpdatePropertyType(p gdi.PropertyType, info gdi.PropertyTypeInfo, def gdi.Value, quiet func(call string) error, rewrite func(n uint32, norm gdi.PropertyTypeInfo) error) error {
	if cat.IsFreed() {
		return ErrFreedDB()
	}
	n, old, local := cat.userPtype(p)
	norm, err := info.Validate()
	if local == nil {
		local = err
	}
	if local == nil && cat.ptypeNameTaken(norm.Name, n) {
		local = gdi.Errorf(gdi.ErrNameExists, "property type %q exists", norm.Name)
	}
	if local == nil && !gdi.CanConvert(old.Datatype, norm.Datatype) {
		local = gdi.Errorf(gdi.ErrConversion, "%v cannot be converted to %v", old.Datatype, norm.Datatype)
	}
	if local == nil {
		local = quiet("UpdatePropertyType")
	}
	call := fmt.Sprintf("UpdatePropertyType %d %+v %v", p.ID(), norm, def)
	return cat.rewriteFrame(call, local, func() error { return rewrite(n, norm) }, func() Delta { cat.updatePtypeMeta(n, norm); return cat.PtypeDelta(n) })
}

// RewriteOnEveryRank makes the rewrites run on every rank (collectively,
// each rank rewriting its own part of the graph data and the ranks
// agreeing on the outcome) instead of on rank 0 alone.
func (cat *Catalog) RewriteOnEveryRank() { cat.everyRank = true }

// rewriteFrame agrees on call, lets rank 0 rewrite (or every rank, see
// RewriteOnEveryRank), shares the outcome, updates the replica unless the
// rewrite failed and reports the update's delta to the change hook, and
// ends with a barrier.
func (cat *Catalog) rewriteFrame(call string, local error, rewrite func() error, update func() Delta) error {
	if err := cat.Agree(call, local); err != nil {
		return err
	}
	var result error
	switch {
	case cat.everyRank:
		result = rewrite() // collective: the ranks agree on result
	case cat.rank == 0:
		result = cat.BcastCode(rewrite())
	default:
		result = cat.BcastCode(nil)
	}
	if !gdi.Failed(result) {
		if err := cat.changed(update()); err != nil {
			return err
		}
	}
	if err := cat.Barrier(); err != nil {
		return err
	}
	return result
}

// FitValues converts the values of a property of an updated property type
// to its new description info: each value is converted and cut or padded
// (see fitValue), duplicates are dropped, and a single entity keeps only
// its first value.
func FitValues(vals []gdi.Value, info gdi.PropertyTypeInfo, def gdi.Value) ([]gdi.Value, error) {
	var out []gdi.Value
	for _, v := range vals {
		cv, err := fitValue(v, info, def)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(out, cv) {
			out = append(out, cv)
		}
	}
	if info.Entity == gdi.SingleEntity {
		out = out[:1]
	}
	return out, nil
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
