package catalog

import (
	"errors"
	"fmt"
	"slices"

	"github.com/gdi-go/gdi/gdi"
)

// Index is an explicit index of one rank: its type and the sets L (label
// numbers, LabelNone included) and P (property type numbers). It holds no
// entries; queries scan the graph (see query.go of each backend).
type Index struct {
	cat *Catalog
	num uint32
	typ gdi.IndexType

	// guarded by cat.mu
	freed  bool
	labels []uint32
	ptypes []uint32
}

var _ gdi.Index = (*Index)(nil)

// CreateIndex creates an empty index (collective, barrier).
func (cat *Catalog) CreateIndex(t gdi.IndexType, hint int) (gdi.Index, error) {
	if cat.IsFreed() {
		return nil, ErrFreedDB()
	}
	var local error
	switch {
	case t != gdi.HashTableIndex && t != gdi.BTreeIndex:
		local = gdi.Errorf(gdi.ErrState, "index type %v", t)
	case hint < 0:
		local = gdi.Errorf(gdi.ErrCount, "negative hint %d", hint)
	}
	if err := cat.Agree(fmt.Sprintf("CreateIndex %d %d", t, hint), local); err != nil {
		return nil, err
	}
	cat.mu.Lock()
	cat.lastIndex++
	x := &Index{cat: cat, num: cat.lastIndex, typ: t}
	cat.indexes = append(cat.indexes, x)
	def := x.defLocked()
	cat.mu.Unlock()
	return x, cat.callIndexHook(def, nil)
}

// IndexDef is what a backend that keeps index entries needs to know of an
// index: its number and sets L and P (object numbers), or that it is
// freed.
type IndexDef struct {
	Num            uint32
	Labels, Ptypes []uint32
	Freed          bool
}

// SetIndexHook makes the catalog call hook, on every rank, after each
// collective call that creates an index, changes its L or P, or frees it,
// with the index as it is then. An error of the hook is the call's error.
// A hook that fails alike on every rank having changed nothing says so
// with Unchanged: a change of L or P then takes back its change of the
// catalog too, so that the call changes nothing.
func (cat *Catalog) SetIndexHook(hook func(IndexDef) error) {
	cat.mu.Lock()
	defer cat.mu.Unlock()
	cat.indexHook = hook
}

// Unchanged marks err, an error of the index hook, as one after which the
// backend changed nothing, on every rank (see SetIndexHook). The call
// returns err itself.
func Unchanged(err error) error {
	if err == nil {
		return nil
	}
	return unchanged{err}
}

type unchanged struct{ error }

func (u unchanged) Unwrap() error { return u.error }

// callIndexHook calls the hook with def, then the change hook. If the
// index hook changed nothing (Unchanged), it calls undo, if not nil, to
// take back the catalog's part, and the change is not reported.
func (cat *Catalog) callIndexHook(def IndexDef, undo func()) error {
	cat.mu.RLock()
	hook := cat.indexHook
	cat.mu.RUnlock()
	if hook != nil {
		err := hook(def)
		var u unchanged
		if errors.As(err, &u) {
			if undo != nil {
				undo()
			}
			return u.error
		}
		if err != nil {
			return err
		}
	}
	return cat.changed(cat.IndexDelta(def))
}

// IndexDefs returns the indexes that are not freed.
func (cat *Catalog) IndexDefs() []IndexDef {
	cat.mu.RLock()
	defer cat.mu.RUnlock()
	out := make([]IndexDef, len(cat.indexes))
	for i, x := range cat.indexes {
		out[i] = x.defLocked()
	}
	return out
}

// IndexNum returns the number of an index of this catalog (see IndexSets
// for the errors).
func (cat *Catalog) IndexNum(idx gdi.Index) (uint32, error) {
	if _, _, err := cat.IndexSets(idx); err != nil {
		return 0, err
	}
	return idx.(*Index).num, nil
}

func (x *Index) defLocked() IndexDef {
	return IndexDef{Num: x.num, Labels: slices.Clone(x.labels), Ptypes: slices.Clone(x.ptypes), Freed: x.freed}
}

func (x *Index) validLocked() error {
	if x.freed || x.cat.freed {
		return gdi.Errorf(gdi.ErrIndex, "index freed")
	}
	return nil
}

// Type returns the index type.
func (x *Index) Type() (gdi.IndexType, error) {
	x.cat.mu.RLock()
	defer x.cat.mu.RUnlock()
	if err := x.validLocked(); err != nil {
		return 0, err
	}
	return x.typ, nil
}

// Labels returns L.
func (x *Index) Labels() ([]gdi.Label, error) {
	x.cat.mu.RLock()
	defer x.cat.mu.RUnlock()
	if err := x.validLocked(); err != nil {
		return nil, err
	}
	out := []gdi.Label{}
	for _, n := range x.labels {
		out = append(out, x.cat.LabelHandle(n))
	}
	return out, nil
}

// PropertyTypes returns P.
func (x *Index) PropertyTypes() ([]gdi.PropertyType, error) {
	x.cat.mu.RLock()
	defer x.cat.mu.RUnlock()
	if err := x.validLocked(); err != nil {
		return nil, err
	}
	out := []gdi.PropertyType{}
	for _, n := range x.ptypes {
		out = append(out, x.cat.PtypeHandle(n))
	}
	return out, nil
}

// change is the common part of the collective methods that change L and
// P: check the handles (all of them, before changing anything), agree,
// apply.
func (x *Index) change(call string, add bool, ls []gdi.Label, ps []gdi.PropertyType) error {
	cat := x.cat
	cat.mu.RLock()
	local := x.validLocked()
	var lnums, pnums []uint32
	for _, l := range ls {
		if local != nil {
			break
		}
		var n uint32
		n, local = cat.labelNumLocked(l, true)
		lnums = append(lnums, n)
	}
	for _, p := range ps {
		if local != nil {
			break
		}
		var n uint32
		n, _, local = cat.ptypeLocked(p)
		pnums = append(pnums, n)
	}
	cat.mu.RUnlock()
	if err := cat.Agree(fmt.Sprintf("%s %d %v %v", call, x.num, lnums, pnums), local); err != nil {
		return err
	}
	cat.mu.Lock()
	oldL, oldP := slices.Clone(x.labels), slices.Clone(x.ptypes)
	if add {
		for _, n := range lnums {
			if !slices.Contains(x.labels, n) {
				x.labels = append(x.labels, n)
			}
		}
		for _, n := range pnums {
			if !slices.Contains(x.ptypes, n) {
				x.ptypes = append(x.ptypes, n)
			}
		}
	} else {
		x.labels = slices.DeleteFunc(x.labels, func(n uint32) bool { return slices.Contains(lnums, n) })
		x.ptypes = slices.DeleteFunc(x.ptypes, func(n uint32) bool { return slices.Contains(pnums, n) })
	}
	def := x.defLocked()
	cat.mu.Unlock()
	return cat.callIndexHook(def, func() {
		cat.mu.Lock()
		x.labels, x.ptypes = oldL, oldP
		cat.mu.Unlock()
	})
}

// AddLabel adds l to L (collective).
func (x *Index) AddLabel(l gdi.Label) error {
	return x.change("Index.AddLabel", true, []gdi.Label{l}, nil)
}

// RemoveLabel removes l from L (collective).
func (x *Index) RemoveLabel(l gdi.Label) error {
	return x.change("Index.RemoveLabel", false, []gdi.Label{l}, nil)
}

// AddPropertyType adds p to P (collective).
func (x *Index) AddPropertyType(p gdi.PropertyType) error {
	return x.change("Index.AddPropertyType", true, nil, []gdi.PropertyType{p})
}

// RemovePropertyType removes p from P (collective).
func (x *Index) RemovePropertyType(p gdi.PropertyType) error {
	return x.change("Index.RemovePropertyType", false, nil, []gdi.PropertyType{p})
}

// AddLabelsAndPropertyTypes adds several labels and property types at once
// (collective); if any handle is bad, nothing is added.
func (x *Index) AddLabelsAndPropertyTypes(ls []gdi.Label, ps []gdi.PropertyType) error {
	return x.change("Index.AddLabelsAndPropertyTypes", true, ls, ps)
}

// RemoveLabelsAndPropertyTypes removes several labels and property types
// at once (collective).
func (x *Index) RemoveLabelsAndPropertyTypes(ls []gdi.Label, ps []gdi.PropertyType) error {
	return x.change("Index.RemoveLabelsAndPropertyTypes", false, ls, ps)
}

// Free removes the index (collective, barrier).
func (x *Index) Free() error {
	cat := x.cat
	cat.mu.RLock()
	local := x.validLocked()
	cat.mu.RUnlock()
	if local != nil {
		return local // every rank's handle is freed alike: no collective
	}
	if err := cat.Agree(fmt.Sprintf("Index.Free %d", x.num), nil); err != nil {
		return err
	}
	cat.mu.Lock()
	x.freed = true
	cat.indexes = removeItem(cat.indexes, x)
	def := x.defLocked()
	cat.mu.Unlock()
	return cat.callIndexHook(def, nil)
}

// forgetLabelLocked and forgetPtypeLocked remove freed metadata from every index of
// the rank. The caller holds cat.mu.
func (cat *Catalog) forgetLabelLocked(n uint32) {
	for _, x := range cat.indexes {
		x.labels = removeItem(x.labels, n)
	}
}

func (cat *Catalog) forgetPtypeLocked(n uint32) {
	for _, x := range cat.indexes {
		x.ptypes = removeItem(x.ptypes, n)
	}
}

// IndexSets checks the index argument of a query and returns its sets L
// and P with this rank's handles: ErrIndex for a nil or freed index,
// ErrObjectMismatch for one of another database or rank.
func (cat *Catalog) IndexSets(idx gdi.Index) ([]gdi.Label, []gdi.PropertyType, error) {
	if idx == nil {
		return nil, nil, gdi.Errorf(gdi.ErrIndex, "nil index")
	}
	x, ok := idx.(*Index)
	if !ok || x == nil || x.cat != cat {
		return nil, nil, gdi.Errorf(gdi.ErrObjectMismatch, "index of another database or rank")
	}
	cat.mu.RLock()
	defer cat.mu.RUnlock()
	var ls []gdi.Label
	var ps []gdi.PropertyType
	for _, n := range x.labels {
		ls = append(ls, cat.LabelHandle(n))
	}
	for _, n := range x.ptypes {
		ps = append(ps, cat.PtypeHandle(n))
	}
	return ls, ps, x.validLocked()
}
