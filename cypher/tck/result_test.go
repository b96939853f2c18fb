package tck

import (
	"strings"
	"testing"
)

// TestCheckResult compares results with expected tables, in any order and
// in order.
func TestCheckResult(t *testing.T) {
	table := [][]string{{"a", "b"}, {"1", "'x'"}, {"2", "[1, 2]"}, {"2", "[1, 2]"}}
	res := func(cols []string, rows ...[]string) *Result { return &Result{Columns: cols, Rows: rows} }
	ab := []string{"a", "b"}
	for _, tc := range []struct {
		name           string
		got            *Result
		inOrder, lists bool
		want           string // "" for agreement, else part of the error
	}{
		{"same", res(ab, []string{"1", "'x'"}, []string{"2", "[1,2]"}, []string{"2", "[1, 2]"}), true, false, ""},
		{"any order", res(ab, []string{"2", "[1, 2]"}, []string{"1", "'x'"}, []string{"2", "[1, 2]"}), false, false, ""},
		{"wrong order", res(ab, []string{"2", "[1, 2]"}, []string{"1", "'x'"}, []string{"2", "[1, 2]"}), true, false,
			"row 1 is | 2 | [1, 2] |, want | 1 | 'x' | (the rows agree in another order)"},
		{"columns", res([]string{"b", "a"}), false, false, `columns ["b" "a"], want ["a" "b"]`},
		{"missing row", res(ab, []string{"1", "'x'"}, []string{"2", "[1, 2]"}), false, false, "got 2 rows, want 3; row 3 missing: | 2 | [1, 2] |"},
		{"multiset", res(ab, []string{"1", "'x'"}, []string{"1", "'x'"}, []string{"2", "[1, 2]"}), false, false,
			"row 3 missing: | 2 | [1, 2] |; unexpected row 2: | 1 | 'x' |"},
		{"wrong cell", res(ab, []string{"1", "'y'"}, []string{"2", "[1, 2]"}, []string{"2", "[1, 2]"}), false, false,
			"row 1 missing: | 1 | 'x' |; unexpected row 1: | 1 | 'y' |"},
		{"list order", res(ab, []string{"1", "'x'"}, []string{"2", "[2, 1]"}, []string{"2", "[1, 2]"}), false, false, "row 3 missing"},
		{"list order ignored", res(ab, []string{"1", "'x'"}, []string{"2", "[2, 1]"}, []string{"2", "[1, 2]"}), false, true, ""},
		{"extra row in order", res(ab, []string{"1", "'x'"}, []string{"2", "[1, 2]"}, []string{"2", "[1, 2]"}, []string{"3", "null"}), true, false,
			"got 4 rows, want 3; unexpected row 4: | 3 | null |"},
		{"short row", res(ab, []string{"1"}), false, false, "result row 1 has 1 cells for 2 columns"},
		{"bad cell", res(ab, []string{"1", "'x"}), false, false, "result row 1, column 2: cannot read"},
	} {
		err := CheckResult(tc.got, table, tc.inOrder, tc.lists)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	if err := CheckResult(res([]string{"n"}), [][]string{{"n"}, {"(:A"}}, false, false); err == nil || !strings.Contains(err.Error(), "expected row 1") {
		t.Errorf("a bad expected cell: %v", err)
	}
	if err := CheckEmpty(res(nil)); err != nil {
		t.Error(err)
	}
	if err := CheckEmpty(res(ab, []string{"1", "2"})); err == nil {
		t.Error("a row passed for an empty result")
	}
}

// TestSideEffects diffs states and compares with expected tables.
func TestSideEffects(t *testing.T) {
	before := &State{
		Nodes: []StateNode{
			{ID: "1", Labels: []string{"A"}, Props: map[string]string{"k": "1", "m": "{b: 1, a: 2}"}},
			{ID: "2", Labels: []string{"A", "B"}},
			{ID: "3", Props: map[string]string{"k": "'x'"}},
		},
		Rels: []StateRel{{ID: "1", Type: "T", Props: map[string]string{"k": "1"}}},
	}
	after := &State{
		Nodes: []StateNode{
			{ID: "1", Labels: []string{"A", "C"}, Props: map[string]string{"k": "2", "m": "{a: 2, b: 1}"}},
			{ID: "4", Labels: []string{"D"}, Props: map[string]string{"k": "1"}},
		},
		Rels: []StateRel{{ID: "2", Type: "T", Props: map[string]string{"k": "1"}}},
	}
	got := Diff(before, after)
	want := SideEffects{"+nodes": 1, "-nodes": 2, "+relationships": 1, "-relationships": 1,
		"+labels": 2, "-labels": 1, "+properties": 3, "-properties": 3}
	if err := CheckSideEffects(got, want); err != nil {
		t.Errorf("Diff: %v", err)
	}
	if err := CheckSideEffects(Diff(before, before), nil); err != nil {
		t.Errorf("no change: %v", err)
	}
	exp, err := ExpectedSideEffects([][]string{{"+nodes", "1"}, {"-labels", "1"}})
	if err != nil {
		t.Fatal(err)
	}
	err = CheckSideEffects(SideEffects{"+nodes": 1, "+labels": 1}, exp)
	if err == nil || !strings.Contains(err.Error(), "+labels 1, want 0, -labels 0, want 1") {
		t.Errorf("omitted keys are zero: %v", err)
	}
	for _, bad := range [][]string{{"+edges", "1"}, {"+nodes", "x"}, {"+nodes"}} {
		if _, err := ExpectedSideEffects([][]string{bad}); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
