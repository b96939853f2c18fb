package gdirma

import (
	"fmt"
	"slices"

	"github.com/gdi-go/gdi/gdi"
)

// Index is an explicit index of one rank: its type and the sets L (label
// numbers, LabelNone included) and P (property type numbers). It holds no
// entries; queries scan the graph (see query.go).
type Index struct {
	db  *Database
	num uint32
	typ gdi.IndexType

	// guarded by db.mu
	freed  bool
	labels []uint32
	ptypes []uint32
}

var _ gdi.Index = (*Index)(nil)

// CreateIndex creates an empty index (collective, barrier).
func (db *Database) CreateIndex(t gdi.IndexType, hint int) (gdi.Index, error) {
	if db.isFreed() {
		return nil, errFreedDB()
	}
	var local error
	switch {
	case t != gdi.HashTableIndex && t != gdi.BTreeIndex:
		local = gdi.Errorf(gdi.ErrState, "index type %v", t)
	case hint < 0:
		local = gdi.Errorf(gdi.ErrCount, "negative hint %d", hint)
	}
	if err := db.agree(fmt.Sprintf("CreateIndex %d %d", t, hint), local); err != nil {
		return nil, err
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	db.lastIndex++
	x := &Index{db: db, num: db.lastIndex, typ: t}
	db.indexes = append(db.indexes, x)
	return x, nil
}

func (x *Index) validLocked() error {
	if x.freed || x.db.freed {
		return gdi.Errorf(gdi.ErrIndex, "index freed")
	}
	return nil
}

// Type returns the index type.
func (x *Index) Type() (gdi.IndexType, error) {
	x.db.mu.RLock()
	defer x.db.mu.RUnlock()
	if err := x.validLocked(); err != nil {
		return 0, err
	}
	return x.typ, nil
}

// Labels returns L.
func (x *Index) Labels() ([]gdi.Label, error) {
	x.db.mu.RLock()
	defer x.db.mu.RUnlock()
	if err := x.validLocked(); err != nil {
		return nil, err
	}
	out := []gdi.Label{}
	for _, n := range x.labels {
		out = append(out, x.db.labelHandle(n))
	}
	return out, nil
}

// PropertyTypes returns P.
func (x *Index) PropertyTypes() ([]gdi.PropertyType, error) {
	x.db.mu.RLock()
	defer x.db.mu.RUnlock()
	if err := x.validLocked(); err != nil {
		return nil, err
	}
	out := []gdi.PropertyType{}
	for _, n := range x.ptypes {
		out = append(out, x.db.ptypeHandle(n))
	}
	return out, nil
}

// change is the common part of the collective methods that change L and
// P: check the handles (all of them, before changing anything), agree,
// apply.
func (x *Index) change(call string, add bool, ls []gdi.Label, ps []gdi.PropertyType) error {
	db := x.db
	db.mu.RLock()
	local := x.validLocked()
	var lnums, pnums []uint32
	for _, l := range ls {
		if local != nil {
			break
		}
		var n uint32
		n, local = db.labelNumLocked(l, true)
		lnums = append(lnums, n)
	}
	for _, p := range ps {
		if local != nil {
			break
		}
		var n uint32
		n, _, local = db.ptypeLocked(p)
		pnums = append(pnums, n)
	}
	db.mu.RUnlock()
	if err := db.agree(fmt.Sprintf("%s %d %v %v", call, x.num, lnums, pnums), local); err != nil {
		return err
	}
	db.mu.Lock()
	defer db.mu.Unlock()
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
		return nil
	}
	x.labels = slices.DeleteFunc(x.labels, func(n uint32) bool { return slices.Contains(lnums, n) })
	x.ptypes = slices.DeleteFunc(x.ptypes, func(n uint32) bool { return slices.Contains(pnums, n) })
	return nil
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
	db := x.db
	db.mu.RLock()
	local := x.validLocked()
	db.mu.RUnlock()
	if local != nil {
		return local // every rank's handle is freed alike: no collective
	}
	if err := db.agree(fmt.Sprintf("Index.Free %d", x.num), nil); err != nil {
		return err
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	x.freed = true
	db.indexes = removeItem(db.indexes, x)
	return nil
}

// forgetLabel and forgetPtype remove freed metadata from every index of
// the rank. The caller holds db.mu.
func (db *Database) forgetLabelLocked(n uint32) {
	for _, x := range db.indexes {
		x.labels = removeItem(x.labels, n)
	}
}

func (db *Database) forgetPtypeLocked(n uint32) {
	for _, x := range db.indexes {
		x.ptypes = removeItem(x.ptypes, n)
	}
}
