package catalog

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// Exported methods that change no durable metadata: readers, local
// objects (constraints), hooks, restoring a state, and freeing the
// database. A new method must be added here or to the mutators of
// TestEveryMutatorReportsItsChange.
var notChanges = map[string]bool{
	"Agree": true, "Barrier": true, "BcastCode": true, "CheckEdgeCSV": true, "CheckVertexCSV": true,
	"CheckVertexPropertiesCSV": true, "Constraints": true, "CreateConstraint": true, "CreateSubconstraint": true,
	"Filter": true, "IndexDefs": true, "IndexDelta": true, "IndexNum": true, "IndexSets": true, "Indexes": true,
	"IsFreed": true, "KnownLabel": true, "KnownPtype": true, "LabelDelta": true, "LabelFromName": true,
	"LabelHandle": true, "LabelName": true, "LabelNum": true, "Labels": true, "MarkFreed": true,
	"PropertyTypeFromName": true, "PropertyTypeInfo": true, "PropertyTypes": true, "PtypeDelta": true,
	"PtypeHandle": true, "PtypeNum": true, "SetChangeHook": true, "SetIndexHook": true, "SetState": true,
	"RewriteOnEveryRank": true, "State": true, "Subconstraints": true, "Tag": true,
	"Index.Labels": true, "Index.PropertyTypes": true, "Index.Type": true,
}

// mutation is a call of a mutator on a catalog and one of its indexes.
type mutation struct {
	method string // as notChanges names it
	call   func(cat *Catalog, x gdi.Index, l gdi.Label, p gdi.PropertyType) error
}

var noRewrite = func(uint32) error { return nil }
var quiet = func(string) error { return nil }
var intInfo = gdi.PropertyTypeInfo{Name: "weight", Entity: gdi.SingleEntity, Datatype: gdi.Int64, Size: gdi.FixedSize, Count: 1}

var mutations = []mutation{
	{"CreateLabel", func(cat *Catalog, _ gdi.Index, _ gdi.Label, _ gdi.PropertyType) error {
		_, err := cat.CreateLabel("another")
		return err
	}},
	{"UpdateLabel", func(cat *Catalog, _ gdi.Index, l gdi.Label, _ gdi.PropertyType) error {
		return cat.UpdateLabel(l, "renamed")
	}},
	{"CreatePropertyType", func(cat *Catalog, _ gdi.Index, _ gdi.Label, _ gdi.PropertyType) error {
		_, err := cat.CreatePropertyType(gdi.PropertyTypeInfo{Name: "other", Entity: gdi.MultipleEntity, Datatype: gdi.Char, Size: gdi.NoSizeLimit})
		return err
	}},
	{"CreateIndex", func(cat *Catalog, _ gdi.Index, _ gdi.Label, _ gdi.PropertyType) error {
		_, err := cat.CreateIndex(gdi.BTreeIndex, 0)
		return err
	}},
	{"Index.AddLabel", func(_ *Catalog, x gdi.Index, l gdi.Label, _ gdi.PropertyType) error { return x.AddLabel(l) }},
	{"Index.AddPropertyType", func(_ *Catalog, x gdi.Index, _ gdi.Label, p gdi.PropertyType) error { return x.AddPropertyType(p) }},
	{"Index.RemoveLabel", func(_ *Catalog, x gdi.Index, l gdi.Label, _ gdi.PropertyType) error { return x.RemoveLabel(l) }},
	{"Index.RemovePropertyType", func(_ *Catalog, x gdi.Index, _ gdi.Label, p gdi.PropertyType) error { return x.RemovePropertyType(p) }},
	{"Index.AddLabelsAndPropertyTypes", func(_ *Catalog, x gdi.Index, l gdi.Label, p gdi.PropertyType) error {
		return x.AddLabelsAndPropertyTypes([]gdi.Label{l}, []gdi.PropertyType{p})
	}},
	{"Index.RemoveLabelsAndPropertyTypes", func(_ *Catalog, x gdi.Index, l gdi.Label, p gdi.PropertyType) error {
		return x.RemoveLabelsAndPropertyTypes([]gdi.Label{l}, []gdi.PropertyType{p})
	}},
	{"RewriteUpdatePropertyType", func(cat *Catalog, _ gdi.Index, _ gdi.Label, p gdi.PropertyType) error {
		info := intInfo
		info.Name = "heft"
		return cat.RewriteUpdatePropertyType(p, info, gdi.Value{}, quiet, func(uint32, gdi.PropertyTypeInfo) error { return nil })
	}},
	{"Index.Free", func(_ *Catalog, x gdi.Index, _ gdi.Label, _ gdi.PropertyType) error { return x.Free() }},
	{"RewriteFreePropertyType", func(cat *Catalog, _ gdi.Index, _ gdi.Label, p gdi.PropertyType) error {
		return cat.RewriteFreePropertyType(p, quiet, noRewrite)
	}},
	{"RewriteFreeLabel", func(cat *Catalog, _ gdi.Index, l gdi.Label, _ gdi.PropertyType) error {
		return cat.RewriteFreeLabel(l, quiet, noRewrite)
	}},
}

// TestEveryMutatorReportsItsChange: every exported method is either known
// to change no durable metadata, or a mutator whose reported deltas,
// applied to the state before the call, give the state after it, on every
// rank.
func TestEveryMutatorReportsItsChange(t *testing.T) {
	known := map[string]bool{}
	for _, m := range mutations {
		known[m.method] = true
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[*Catalog](), reflect.TypeFor[*Index]()} {
		for m := range typ.Methods() {
			name := m.Name
			if typ == reflect.TypeFor[*Index]() {
				name = "Index." + name
			}
			if !notChanges[name] && !known[name] {
				t.Errorf("method %s is neither a reader nor a checked mutator: if it changes labels, property types or indexes, end it with cat.changed(delta) and add it to mutations", name)
			}
		}
	}
	err := local.Run(2, func(c rma.Comm) error {
		cat := New(c, "test")
		var deltas []Delta
		cat.SetChangeHook(func(d Delta) error { deltas = append(deltas, d); return nil })
		l, err1 := cat.CreateLabel("person")
		p, err2 := cat.CreatePropertyType(intInfo)
		x, err3 := cat.CreateIndex(gdi.HashTableIndex, 0)
		if err := firstErr(err1, err2, err3); err != nil {
			return err
		}
		for _, m := range mutations {
			before := cat.State()
			deltas = deltas[:0]
			if err := m.call(cat, x, l, p); err != nil {
				return fmt.Errorf("%s: %v", m.method, err)
			}
			if err := sameAfter(before, deltas, cat.State()); err != nil {
				return fmt.Errorf("%s reported %d deltas: %v", m.method, len(deltas), err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// sameAfter checks that deltas applied to before give after.
func sameAfter(before State, deltas []Delta, after State) error {
	e := NewStateEditor(before)
	for _, d := range deltas {
		if err := e.Apply(d); err != nil {
			return err
		}
	}
	got, _ := json.Marshal(e.State())
	want, _ := json.Marshal(after)
	if string(got) != string(want) {
		return fmt.Errorf("the state after the deltas is\n%s\nthe catalog's is\n%s", got, want)
	}
	return nil
}

func firstErr(errs ...error) error {
	i := slices.IndexFunc(errs, func(err error) bool { return err != nil })
	if i < 0 {
		return nil
	}
	return errs[i]
}
