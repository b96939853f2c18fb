package catalog

import (
	"fmt"
	"slices"

	"github.com/gdi-go/gdi/gdi"
)

// State is the part of a catalog that a checkpoint keeps: the replica of
// the metadata (labels and property types, freed ones included, as their
// numbers are never reused), the last numbers handed out, and the
// indexes with their sets. It is the same on every rank. Constraints,
// subconstraints and handles are objects of one rank's run and are not
// part of it; the tag is drawn anew, so handles of the checkpointed
// database are not valid in the restored one.
type State struct {
	Labels                          []LabelState
	Ptypes                          []PtypeState
	LastLabel, LastPtype, LastIndex uint32
	Indexes                         []IndexState
}

// LabelState is a label of State, in the order of creation.
type LabelState struct {
	Num   uint32
	Name  string
	Freed bool `json:",omitempty"`
}

// PtypeState is a property type of State, in the order of creation.
type PtypeState struct {
	Num        uint32
	Info       gdi.PropertyTypeInfo
	Freed      bool `json:",omitempty"`
	Generation int  `json:",omitempty"`
}

// IndexState is an index of State (not freed), in the order of creation.
type IndexState struct {
	Num    uint32
	Type   gdi.IndexType
	Labels []uint32
	Ptypes []uint32
}

// State returns the catalog's state.
func (cat *Catalog) State() State {
	cat.mu.RLock()
	defer cat.mu.RUnlock()
	s := State{LastLabel: cat.lastLabel, LastPtype: cat.lastPtype, LastIndex: cat.lastIndex}
	for _, n := range cat.labelOrder {
		m := cat.labels[n]
		s.Labels = append(s.Labels, LabelState{Num: n, Name: m.name, Freed: m.freed})
	}
	for _, n := range cat.ptypeOrder {
		m := cat.ptypes[n]
		s.Ptypes = append(s.Ptypes, PtypeState{Num: n, Info: m.info, Freed: m.freed, Generation: m.generation})
	}
	for _, x := range cat.indexes {
		s.Indexes = append(s.Indexes, IndexState{Num: x.num, Type: x.typ, Labels: slices.Clone(x.labels), Ptypes: slices.Clone(x.ptypes)})
	}
	return s
}

// SetState replaces the metadata and indexes of a new, empty catalog with
// s (local: every rank calls it with the same s). It checks s as far as
// it can be checked, without the index hook, and changes nothing on
// error.
func (cat *Catalog) SetState(s State) error {
	labels := map[uint32]*labelMeta{}
	ptypes := map[uint32]*ptypeMeta{}
	var labelOrder, ptypeOrder []uint32
	names := map[string]bool{}
	for _, l := range s.Labels {
		norm, err := gdi.NormalizeName(l.Name)
		switch {
		case l.Num < gdi.FirstUserID || l.Num > s.LastLabel || labels[l.Num] != nil:
			return fmt.Errorf("label number %d (last %d) out of range or repeated", l.Num, s.LastLabel)
		case err != nil || norm != l.Name || !l.Freed && (names[l.Name] || l.Name == gdi.LabelNoneName):
			return fmt.Errorf("label %d has a bad or repeated name %q", l.Num, l.Name)
		}
		if !l.Freed {
			names[l.Name] = true
		}
		labels[l.Num] = &labelMeta{name: l.Name, freed: l.Freed}
		labelOrder = append(labelOrder, l.Num)
	}
	names = map[string]bool{}
	for _, p := range s.Ptypes {
		norm, err := p.Info.Validate()
		switch {
		case p.Num < gdi.FirstUserID || p.Num > s.LastPtype || ptypes[p.Num] != nil:
			return fmt.Errorf("property type number %d (last %d) out of range or repeated", p.Num, s.LastPtype)
		case err != nil || norm != p.Info || !p.Freed && names[p.Info.Name] || p.Generation < 0:
			return fmt.Errorf("property type %d has a bad description %+v", p.Num, p.Info)
		}
		if !p.Freed {
			names[p.Info.Name] = true
		}
		ptypes[p.Num] = &ptypeMeta{info: p.Info, freed: p.Freed, generation: p.Generation}
		ptypeOrder = append(ptypeOrder, p.Num)
	}
	var indexes []*Index
	seen := map[uint32]bool{}
	for _, x := range s.Indexes {
		if x.Num < gdi.FirstUserID || x.Num > s.LastIndex || seen[x.Num] ||
			x.Type != gdi.HashTableIndex && x.Type != gdi.BTreeIndex {
			return fmt.Errorf("index number %d (last %d) out of range or repeated, or of type %v", x.Num, s.LastIndex, x.Type)
		}
		seen[x.Num] = true
		for _, n := range x.Labels {
			if n != uint32(gdi.LabelNone) && (labels[n] == nil || labels[n].freed) {
				return fmt.Errorf("index %d has label %d, which is unknown or freed", x.Num, n)
			}
		}
		for _, n := range x.Ptypes {
			if _, ok := gdi.PredefinedPropertyTypeInfo(gdi.PropertyType(n)); !ok && (ptypes[n] == nil || ptypes[n].freed) {
				return fmt.Errorf("index %d has property type %d, which is unknown or freed", x.Num, n)
			}
		}
		indexes = append(indexes, &Index{cat: cat, num: x.Num, typ: x.Type, labels: slices.Clone(x.Labels), ptypes: slices.Clone(x.Ptypes)})
	}
	if s.LastLabel < gdi.FirstUserID-1 || s.LastPtype < gdi.FirstUserID-1 || s.LastIndex < gdi.FirstUserID-1 {
		return fmt.Errorf("last numbers %d, %d, %d below the first user number", s.LastLabel, s.LastPtype, s.LastIndex)
	}
	cat.mu.Lock()
	defer cat.mu.Unlock()
	if cat.freed || len(cat.labels)+len(cat.ptypes)+len(cat.indexes) > 0 {
		return fmt.Errorf("the catalog is not new")
	}
	cat.labels, cat.ptypes = labels, ptypes
	clear(cat.labelNames)
	clear(cat.ptypeNames)
	for n, m := range labels {
		if !m.freed {
			cat.labelNames[m.name] = n
		}
	}
	for n, m := range ptypes {
		if !m.freed {
			cat.ptypeNames[m.info.Name] = n
		}
	}
	cat.labelOrder, cat.ptypeOrder = labelOrder, ptypeOrder
	cat.lastLabel, cat.lastPtype, cat.lastIndex = s.LastLabel, s.LastPtype, s.LastIndex
	cat.indexes = indexes
	cat.publishLocked()
	return nil
}
