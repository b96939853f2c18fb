package catalog

import (
	"fmt"
	"slices"

	"github.com/gdi-go/gdi/gdi"
)

// Delta is one change of the metadata, as a redo log keeps it: the label,
// property type or index it made or changed, as it is after the change
// (exactly one field is set). Applying the deltas of a database's
// changes in order to the State of a checkpoint gives the State after
// them, whatever their number, at a cost in each delta alone.
type Delta struct {
	Label *LabelState `json:",omitempty"`
	Ptype *PtypeState `json:",omitempty"`
	Index *IndexState `json:",omitempty"`
	// FreedIndex is the number of an index freed.
	FreedIndex uint32 `json:",omitempty"`
}

// LabelDelta returns the delta that sets label number n as it now is.
func (cat *Catalog) LabelDelta(n uint32) Delta {
	cat.mu.RLock()
	defer cat.mu.RUnlock()
	m := cat.labels[n]
	return Delta{Label: &LabelState{Num: n, Name: m.name, Freed: m.freed}}
}

// PtypeDelta returns the delta that sets property type number n as it
// now is.
func (cat *Catalog) PtypeDelta(n uint32) Delta {
	cat.mu.RLock()
	defer cat.mu.RUnlock()
	m := cat.ptypes[n]
	return Delta{Ptype: &PtypeState{Num: n, Info: m.info, Freed: m.freed, Generation: m.generation}}
}

// IndexDelta returns the delta of the index change def (see SetIndexHook).
func (cat *Catalog) IndexDelta(def IndexDef) Delta {
	if def.Freed {
		return Delta{FreedIndex: def.Num}
	}
	cat.mu.RLock()
	defer cat.mu.RUnlock()
	typ := gdi.HashTableIndex
	for _, x := range cat.indexes {
		if x.num == def.Num {
			typ = x.typ
		}
	}
	return Delta{Index: &IndexState{Num: def.Num, Type: typ, Labels: slices.Clone(def.Labels), Ptypes: slices.Clone(def.Ptypes)}}
}

// StateEditor applies deltas to a State.
type StateEditor struct {
	s              State
	labels, ptypes map[uint32]int // number → position in s
}

// NewStateEditor returns an editor of a copy of s.
func NewStateEditor(s State) *StateEditor {
	e := &StateEditor{labels: map[uint32]int{}, ptypes: map[uint32]int{}}
	e.Set(s)
	return e
}

// Set replaces the state being edited by s.
func (e *StateEditor) Set(s State) {
	e.s = State{LastLabel: s.LastLabel, LastPtype: s.LastPtype, LastIndex: s.LastIndex,
		Labels: slices.Clone(s.Labels), Ptypes: slices.Clone(s.Ptypes), Indexes: slices.Clone(s.Indexes)}
	clear(e.labels)
	clear(e.ptypes)
	for i, l := range e.s.Labels {
		e.labels[l.Num] = i
	}
	for i, p := range e.s.Ptypes {
		e.ptypes[p.Num] = i
	}
}

// Apply applies d. A label or property type numbered above the last one
// handed out is new, and must be the next one; others must exist.
func (e *StateEditor) Apply(d Delta) error {
	switch {
	case d.Label != nil:
		return upsert(e.labels, &e.s.Labels, &e.s.LastLabel, d.Label.Num, *d.Label, "label")
	case d.Ptype != nil:
		return upsert(e.ptypes, &e.s.Ptypes, &e.s.LastPtype, d.Ptype.Num, *d.Ptype, "property type")
	case d.Index != nil:
		x := *d.Index
		i := slices.IndexFunc(e.s.Indexes, func(y IndexState) bool { return y.Num == x.Num })
		switch {
		case i >= 0:
			e.s.Indexes[i] = x
		case x.Num > e.s.LastIndex:
			e.s.Indexes = append(e.s.Indexes, x)
			e.s.LastIndex = x.Num
		default:
			return fmt.Errorf("index %d is neither live nor new", x.Num)
		}
	case d.FreedIndex != 0:
		e.s.Indexes = slices.DeleteFunc(e.s.Indexes, func(y IndexState) bool { return y.Num == d.FreedIndex })
	default:
		return fmt.Errorf("empty delta")
	}
	return nil
}

// upsert sets x, the object numbered num, in list, whose positions by
// number pos gives: in its place if it exists, else appended as the next
// number after *last.
func upsert[T any](pos map[uint32]int, list *[]T, last *uint32, num uint32, x T, what string) error {
	if i, ok := pos[num]; ok {
		(*list)[i] = x
		return nil
	}
	if num != *last+1 {
		return fmt.Errorf("%s %d after %s %d", what, num, what, *last)
	}
	pos[num] = len(*list)
	*list = append(*list, x)
	*last = num
	return nil
}

// State returns the state edited.
func (e *StateEditor) State() State { return e.s }
