package cypher

import (
	"testing"

	"github.com/gdi-go/gdi/cypher/value"
)

// TestKeptPlans runs statements whose plans the engine keeps by their
// text: a kept plan reads the parameters of each run, and it sees the
// property types made after it was planned (its property keys are bound
// to their families, which grow in place), in expressions and in the
// property maps of patterns alike.
func TestKeptPlans(t *testing.T) {
	read := statement{query: "MATCH (n) RETURN n.k AS k, $p AS p"}
	p := func(s string) map[string]value.Value { return map[string]value.Value{"p": value.Str(s)} }
	match := statement{query: "MATCH (n {k: 'a'}) RETURN count(*) AS c"}
	stmts := []statement{
		{read.query, p("before")},
		match,
		{"CREATE ({k: 1})", nil},
		{read.query, p("one kind")},
		{"CREATE ({k: 'a'}), ({k: [true]})", nil},
		{read.query, p("three kinds")},
		match,
		{"MATCH (n) WHERE n.k = 1 SET n.k = 2.5", nil},
		{read.query, p("four kinds")},
	}
	want := []string{
		"k | p",
		"c\n0",
		"",
		"k | p\n1 | 'one kind'",
		"",
		"k | p\n'a' | 'three kinds'\n1 | 'three kinds'\n[true] | 'three kinds'",
		"c\n1",
		"",
		"k | p\n'a' | 'four kinds'\n2.5 | 'four kinds'\n[true] | 'four kinds'",
	}
	for b, texts := range runScript(t, stmts, false) {
		for i, got := range texts {
			if want[i] != "" && got != want[i] {
				t.Errorf("backend %d, statement %d %q: a kept plan must read this run's parameters and see property types made since it was planned\ngot:\n%s\nwant:\n%s", b, i, stmts[i].query, got, want[i])
			}
		}
	}
}
