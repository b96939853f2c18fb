package value

import (
	"math"
	"testing"
)

func TestString(t *testing.T) {
	for _, c := range []struct {
		rule string
		v    Value
		want string
	}{
		{"null", N, "null"},
		{"booleans", T, "true"},
		{"integers", I(-42), "-42"},
		{"floats keep a decimal point", D(1), "1.0"},
		{"negative zero", D(math.Copysign(0, -1)), "-0.0"},
		{"floats: fraction", D(1.5), "1.5"},
		{"floats: 999.99", D(999.99), "999.99"},
		{"floats: TCK 1000000000.0", D(1e9), "1000000000.0"},
		{"floats: TCK 0.000001", D(1e-6), "0.000001"},
		{"floats: TCK -0.00001", D(-1e-5), "-0.00001"},
		{"floats: TCK 3985764.3405892686", D(3985764.3405892686), "3985764.3405892686"},
		{"floats: TCK 1.2635418652381264e305", D(1.2635418652381264e305), "1.2635418652381264e305"},
		{"floats: TCK 1e308", D(1e308), "1e308"},
		{"floats: TCK 1.23456789e308", D(1.23456789e308), "1.23456789e308"},
		{"floats: TCK -1e-305", D(-1e-305), "-1e-305"},
		{"floats: exponent from 1e21", D(1e21), "1e21"},
		{"floats: decimal below 1e21", D(1e20), "100000000000000000000.0"},
		{"NaN", NaN, "NaN"},
		{"infinities", Inf, "Inf"},
		{"negative infinity", D(math.Inf(-1)), "-Inf"},
		{"strings are single-quoted", S("text"), "'text'"},
		{"strings: quote escaped (TCK Literals6 [4])", S("'"), `'\''`},
		{"strings: TCK Literals6 [5]", S(`a\bcn5t'"\//\"'`), `'a\\bcn5t\'"\\//\\"\''`},
		{"strings: control characters", S("a\nb\tc"), `'a\nb\tc'`},
		{"strings: unicode kept", S("🧐🍌❖⋙⚐"), "'🧐🍌❖⋙⚐'"},
		{"lists", L(I(1), S("a"), N), "[1, 'a', null]"},
		{"empty list", L(), "[]"},
		{"maps in key order", M("b", S("x"), "a", I(1)), "{a: 1, b: 'x'}"},
		{"maps: odd keys back-quoted", M("", I(1), "a b", I(2), "x`y", I(3), "1a", I(4)), "{``: 1, `1a`: 4, `a b`: 2, `x``y`: 3}"},
		{"nested", L(M("k", L(D(2)))), "[{k: [2.0]}]"},
		{"nodes by ID", nd(5), "(#5)"},
		{"relationships by ID", rl(5, 1, 2), "[#5.0]"},
	} {
		if got := c.v.String(); got != c.want {
			t.Errorf("%s: got %s, want %s", c.rule, got, c.want)
		}
	}
}

// graph is a Printer with labels, types and properties.
type graph struct{}

func (graph) Node(n Node) string {
	if n.ID == 1 {
		return FormatNode([]string{"A", "B"}, M("k", I(1), "name", S("x")).Map(), graph{})
	}
	return FormatNode(nil, Map{}, graph{})
}

func (graph) Relationship(r Relationship) string {
	return FormatRelationship("T", M("w", D(0.5)).Map(), graph{})
}

func TestFormatGraph(t *testing.T) {
	ab, ba, loop := rl(7, 1, 2), rl(8, 2, 1), rl(9, 1, 1)
	for _, c := range []struct {
		rule string
		v    Value
		want string
	}{
		{"node with labels and properties", nd(1), "(:A:B {k: 1, name: 'x'})"},
		{"bare node", nd(2), "()"},
		{"relationship", ab, "[:T {w: 0.5}]"},
		{"path of one node", pth(t, 2), "<()>"},
		{"path: forward arrow", pth(t, 1, ab, 2), "<(:A:B {k: 1, name: 'x'})-[:T {w: 0.5}]->()>"},
		{"path: backward arrow", pth(t, 1, ba, 2), "<(:A:B {k: 1, name: 'x'})<-[:T {w: 0.5}]-()>"},
		{"path: reversed traversal", pth(t, 2, ab, 1), "<()<-[:T {w: 0.5}]-(:A:B {k: 1, name: 'x'})>"},
		{"path: loop", pth(t, 1, loop, 1), "<(:A:B {k: 1, name: 'x'})-[:T {w: 0.5}]->(:A:B {k: 1, name: 'x'})>"},
		{"nodes inside lists", L(nd(2), nd(2)), "[(), ()]"},
	} {
		if got := Format(c.v, graph{}); got != c.want {
			t.Errorf("%s: got %s, want %s", c.rule, got, c.want)
		}
	}
	if got := FormatRelationship("KNOWS", Map{}, nil); got != "[:KNOWS]" {
		t.Errorf("relationship without properties: got %s", got)
	}
	if got := FormatNode([]string{"a b"}, Map{}, nil); got != "(:`a b`)" {
		t.Errorf("odd label: got %s", got)
	}
}
