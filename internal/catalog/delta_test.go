package catalog

import (
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// TestStateEditor applies deltas of every kind, and refuses a label or
// property type that skips a number, and an empty delta.
func TestStateEditor(t *testing.T) {
	first := uint32(gdi.FirstUserID)
	e := NewStateEditor(State{LastLabel: first - 1, LastPtype: first - 1, LastIndex: first - 1})
	info := gdi.PropertyTypeInfo{Name: "p", Entity: gdi.SingleEntity, Datatype: gdi.Int64, Size: gdi.FixedSize, Count: 1}
	for _, d := range []Delta{
		{Label: &LabelState{Num: first, Name: "a"}},
		{Label: &LabelState{Num: first + 1, Name: "b"}},
		{Label: &LabelState{Num: first, Name: "renamed"}},
		{Ptype: &PtypeState{Num: first, Info: info}},
		{Index: &IndexState{Num: first, Type: gdi.HashTableIndex, Labels: []uint32{first}}},
		{Index: &IndexState{Num: first, Type: gdi.HashTableIndex, Labels: []uint32{first, first + 1}}},
		{Index: &IndexState{Num: first + 1, Type: gdi.BTreeIndex}},
		{FreedIndex: first + 1},
	} {
		if err := e.Apply(d); err != nil {
			t.Fatalf("Apply(%+v): %v", d, err)
		}
	}
	s := e.State()
	if len(s.Labels) != 2 || s.Labels[0].Name != "renamed" || s.LastLabel != first+1 {
		t.Errorf("labels %+v, last %d", s.Labels, s.LastLabel)
	}
	if len(s.Ptypes) != 1 || s.LastPtype != first {
		t.Errorf("property types %+v, last %d", s.Ptypes, s.LastPtype)
	}
	if len(s.Indexes) != 1 || len(s.Indexes[0].Labels) != 2 || s.LastIndex != first+1 {
		t.Errorf("indexes %+v, last %d", s.Indexes, s.LastIndex)
	}
	for _, d := range []Delta{
		{Label: &LabelState{Num: first + 5, Name: "gap"}},
		{Ptype: &PtypeState{Num: first + 2, Info: info}},
		{},
	} {
		if err := e.Apply(d); err == nil {
			t.Errorf("Apply(%+v) succeeded", d)
		}
	}
	err := local.Run(1, func(c rma.Comm) error { return New(c, "t").SetState(s) })
	if err != nil {
		t.Errorf("SetState of the edited state: %v", err)
	}
}
