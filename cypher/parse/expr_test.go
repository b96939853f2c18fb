package parse

import (
	"math"
	"testing"
)

// TestExprPrecedence checks the shape of parsed expressions through their
// canonical form, which parenthesizes every operator operand.
func TestExprPrecedence(t *testing.T) {
	tests := []struct{ in, want string }{
		{"NOT a = b OR c", "(NOT (a = b)) OR c"},
		{"a OR b XOR c AND d", "a OR (b XOR (c AND d))"},
		{"a AND b OR c AND d", "(a AND b) OR (c AND d)"},
		{"a OR b OR c", "(a OR b) OR c"},
		{"NOT NOT a", "NOT (NOT a)"},
		{"a AND NOT b = c", "a AND (NOT (b = c))"},
		{"1 + 2 * 3", "1 + (2 * 3)"},
		{"(1 + 2) * 3", "(1 + 2) * 3"},
		{"1 - 2 - 3", "(1 - 2) - 3"},
		{"1 - (2 - 3)", "1 - (2 - 3)"},
		{"2 ^ 3 ^ 2", "(2 ^ 3) ^ 2"},
		{"-2 ^ 2", "-2 ^ 2"},
		{"-x ^ 2", "(-x) ^ 2"},
		{"a * -b", "a * (-b)"},
		{"a % b / c * d", "((a % b) / c) * d"},
		{"1 + (2 - (3 * (4 / (5 ^ (6 % null)))))", "1 + (2 - (3 * (4 / (5 ^ (6 % null)))))"},
		{"'a' + 'b' + 1", "('a' + 'b') + 1"},
		{"1 < n.num < 3", "1 < n.num < 3"},
		{"1 <= n.num <= 3 = true", "1 <= n.num <= 3 = true"},
		{"(1 < 2) < 3", "(1 < 2) < 3"},
		{"a <> b", "a <> b"},
		{"a >= b AND a <= c", "(a >= b) AND (a <= c)"},
		{"n.prop1 < m.prop1 = n.prop2 <> m.prop2", "n.prop1 < m.prop1 = n.prop2 <> m.prop2"},
		{"a IS NULL", "a IS NULL"},
		{"a.b IS NOT NULL AND c", "(a.b IS NOT NULL) AND c"},
		{"NOT a IS NULL", "NOT (a IS NULL)"},
		{"a = b IS NULL", "a = (b IS NULL)"},
		{"x IN [1, 2] = true", "(x IN [1, 2]) = true"},
		{"a + b IN c + d", "(a + b) IN (c + d)"},
		{"a IN b IN c", "(a IN b) IN c"},
		{"n.name STARTS WITH 'A' OR n.name ENDS WITH 'z'", "(n.name STARTS WITH 'A') OR (n.name ENDS WITH 'z')"},
		{"s contains 'x'", "s CONTAINS 'x'"},
		{"n:Person", "n:Person"},
		{"n:A:B AND m:`C D`", "(n:A:B) AND (m:`C D`)"},
		{"NOT n:A", "NOT (n:A)"},
		{"n.a.b", "n.a.b"},
		{"n.`weird key`", "n.`weird key`"},
		{"n.match", "n.`match`"},
		{"l[0]", "l[0]"},
		{"l[1..2]", "l[1..2]"},
		{"l[..2]", "l[..2]"},
		{"l[1..]", "l[1..]"},
		{"l[..]", "l[..]"},
		{"l[-1]", "l[-1]"},
		{"l[0][1].x", "l[0][1].x"},
		{"[1, 2, 3][1]", "[1, 2, 3][1]"},
		{"{a: 1}.a", "{a: 1}.a"},
		{"(n:A).x", "(n:A).x"},
		{"-5.x", "-5.x"},
		{"(-5).x", "(-5).x"},
		{"-(5)", "-(5)"},
		{"- -5", "-(-5)"},
		{"--5", "-(-5)"},
		{"+a", "+a"},
		{"-a.b", "-a.b"},
		{"f(x)", "f(x)"},
		{"toUpper(n.name) + 'x'", "toUpper(n.name) + 'x'"},
		{"count(*)", "count(*)"},
		{"COUNT( * )", "count(*)"},
		{"count(DISTINCT x)", "count(DISTINCT x)"},
		{"date.truncate('day', d)", "date.truncate('day', d)"},
		{"rand()", "rand()"},
		{"exists(n.prop)", "exists(n.prop)"},
		{"`any`(x)", "`any`(x)"},
		{"`all`((x IN l))", "`all`(x IN l)"},
		{"reduce((a = 1))", "`reduce`(a = 1)"},
		{"`exists`(n.x)", "exists(n.x)"},
		{"CASE WHEN a THEN 1 WHEN b THEN 2 ELSE 3 END", "CASE WHEN a THEN 1 WHEN b THEN 2 ELSE 3 END"},
		{"case n.x when 1 then 'one' end", "CASE n.x WHEN 1 THEN 'one' END"},
		{"[x IN l WHERE x > 1 | x * 2]", "[x IN l WHERE x > 1 | x * 2]"},
		{"ALL(x IN l WHERE x > 1)", "all(x IN l WHERE x > 1)"},
		{"single(`a b` IN [1, 2] WHERE `a b` = 2) OR none(y IN $p WHERE y)", "single(`a b` IN [1, 2] WHERE `a b` = 2) OR none(y IN $p WHERE y)"},
		{"any(x IN [any(y IN l WHERE y)] WHERE x)", "any(x IN [any(y IN l WHERE y)] WHERE x)"},
		{"[x IN l]", "[x IN l]"},
		{"[x IN l | x.name]", "[x IN l | x.name]"},
		{"[x IN l, 1]", "[x IN l, 1]"},
		{"[x IN l OR y]", "[x IN l OR y]"},
		{"[(a), b]", "[a, b]"},
		{"[a = 1]", "[a = 1]"},
		{"{}", "{}"},
		{"{a: 1, `b c`: [true, null], end: 'x'}", "{a: 1, `b c`: [true, null], `end`: 'x'}"},
		{"$p", "$p"},
		{"$0 + $`my param`", "$0 + $`my param`"},
		{"`weird name` + 1", "`weird name` + 1"},
		{"{``: 1, `a``b`: 2, ````: 3}", "{``: 1, `a``b`: 2, ````: 3}"},
		{"a // comment\n + /* block\ncomment */ b", "a + b"},
		{"((((a))))", "a"},
		{"(a) - (b)", "a - b"},
		{"(a)-(b)", "a - b"},
		{"(a) < -1", "a < -1"},
		{"(a) < --1", "a < (-(-1))"},
	}
	for _, tt := range tests {
		e, err := ParseExpr(tt.in)
		if err != nil {
			t.Errorf("ParseExpr(%q): %v", tt.in, err)
			continue
		}
		if got := e.String(); got != tt.want {
			t.Errorf("ParseExpr(%q) = %s, want %s", tt.in, got, tt.want)
		}
		e2, err := ParseExpr(e.String())
		if err != nil || !Equal(e, e2) {
			t.Errorf("round trip of %q through %q: %v", tt.in, e.String(), err)
		}
	}
}

// TestExprTree checks some trees directly rather than through printing.
func TestExprTree(t *testing.T) {
	e, err := ParseExpr("NOT a = b OR c")
	if err != nil {
		t.Fatal(err)
	}
	or, ok := e.(*Binary)
	if !ok || or.Op != OpOr {
		t.Fatalf("top is %T %v, want OR", e, e)
	}
	not, ok := or.L.(*Unary)
	if !ok || not.Op != OpNot {
		t.Fatalf("left of OR is %T, want NOT", or.L)
	}
	cmp, ok := not.X.(*Comparison)
	if !ok || len(cmp.Ops) != 1 || cmp.Ops[0] != OpEq {
		t.Fatalf("operand of NOT is %T, want a = comparison", not.X)
	}
	if v, ok := or.R.(*Variable); !ok || v.Name != "c" {
		t.Fatalf("right of OR is %v, want c", or.R)
	}
	if p := or.Position(); p.Line != 1 || p.Column != 11 {
		t.Errorf("OR at %+v, want 1:11 (the operator)", p)
	}
	if p := not.Position(); p.Column != 1 {
		t.Errorf("NOT at %+v, want column 1", p)
	}

	e, _ = ParseExpr("1 < x <= 3")
	c := e.(*Comparison)
	if len(c.Operands) != 3 || c.Ops[0] != OpLt || c.Ops[1] != OpLe {
		t.Errorf("chain = %+v", c)
	}

	e, _ = ParseExpr("l[1..]")
	if s := e.(*Slice); s.From == nil || s.To != nil {
		t.Errorf("slice = %+v", s)
	}
	e, _ = ParseExpr("CASE x WHEN 1 THEN 2 END")
	if k := e.(*Case); k.Subject == nil || len(k.Whens) != 1 || k.Else != nil {
		t.Errorf("case = %+v", k)
	}
	e, _ = ParseExpr("count(DISTINCT a, b)")
	if f := e.(*FunctionCall); !f.Distinct || len(f.Args) != 2 || f.Name != "count" {
		t.Errorf("call = %+v", f)
	}
	e, _ = ParseExpr("[x IN l WHERE x > 1]")
	if lc := e.(*ListComprehension); lc.Var.Name != "x" || lc.Where == nil || lc.Map != nil {
		t.Errorf("comprehension = %+v", lc)
	}
	e, _ = ParseExpr("a STARTS WITH b")
	if b := e.(*Binary); b.Op != OpStartsWith {
		t.Errorf("op = %q", b.Op)
	}
}

// TestLiterals covers number and string literal edge cases.
func TestLiterals(t *testing.T) {
	ints := []struct {
		in   string
		want int64
	}{
		{"0", 0}, {"42", 42}, {"-42", -42}, {"0x1F", 31}, {"0X1f", 31}, {"-0x1", -1},
		{"0o17", 15}, {"0O17", 15}, {"017", 15}, {"9223372036854775807", math.MaxInt64},
		{"-9223372036854775808", math.MinInt64}, {"0x7FFFFFFFFFFFFFFF", math.MaxInt64},
		{"-0x8000000000000000", math.MinInt64}, {"-0o1000000000000000000000", math.MinInt64},
		{"- 7", -7},
	}
	for _, tt := range ints {
		e, err := ParseExpr(tt.in)
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		if l, ok := e.(*IntegerLit); !ok || l.Value != tt.want {
			t.Errorf("%s = %#v, want IntegerLit %d", tt.in, e, tt.want)
		}
	}
	floats := []struct {
		in   string
		want float64
	}{
		{"1.5", 1.5}, {".5", 0.5}, {"-.5", -0.5}, {"1e3", 1000}, {"1E3", 1000}, {"1e-3", 0.001},
		{"1.5e+2", 150}, {"-0.0", math.Copysign(0, -1)}, {"123456789e300", 123456789e300},
		{".1e9", 1e8}, {"1e308", 1e308},
	}
	for _, tt := range floats {
		e, err := ParseExpr(tt.in)
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		if l, ok := e.(*FloatLit); !ok || l.Value != tt.want || math.Signbit(l.Value) != math.Signbit(tt.want) {
			t.Errorf("%s = %#v, want FloatLit %g", tt.in, e, tt.want)
		}
	}
	strs := []struct{ in, want string }{
		{`'abc'`, "abc"}, {`"abc"`, "abc"}, {`''`, ""}, {`'it\'s'`, "it's"}, {`"say \"hi\""`, `say "hi"`},
		{`'a\\b'`, `a\b`}, {`'\n\t\r\b\f'`, "\n\t\r\b\f"}, {`'\N\T'`, "\n\t"}, {`'\u00e9'`, "é"},
		{`'\U00E9'`, "é"}, {`'\uD83D\uDE00'`, "😀"}, {`"'"`, "'"}, {`'"'`, `"`},
		{`'🧐🍌❖⋙⚐'`, "🧐🍌❖⋙⚐"}, {"'line\nbreak'", "line\nbreak"},
		{`'a\\bcn5t\'"\\//\\"\''`, `a\bcn5t'"\//\"'`},
	}
	for _, tt := range strs {
		e, err := ParseExpr(tt.in)
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		if l, ok := e.(*StringLit); !ok || l.Value != tt.want {
			t.Errorf("%s = %#v, want %q", tt.in, e, tt.want)
		}
	}
	for in, want := range map[string]Expr{
		"true": &BoolLit{Value: true}, "FALSE": &BoolLit{Value: false}, "Null": &NullLit{},
	} {
		e, err := ParseExpr(in)
		if err != nil || !Equal(e, want) {
			t.Errorf("%s = %v (%v)", in, e, err)
		}
	}
}

// TestFloatPrinting checks that floats print back to the same value.
func TestFloatPrinting(t *testing.T) {
	for _, v := range []float64{0, 1, -1, 1.5, 1e21, 1e-7, 123456789e300, math.MaxFloat64,
		math.SmallestNonzeroFloat64, 0.1, 1.0 / 3, math.Copysign(0, -1)} {
		s := formatFloat(v)
		e, err := ParseExpr(s)
		if err != nil {
			t.Errorf("%g printed as %q: %v", v, s, err)
			continue
		}
		if f, ok := e.(*FloatLit); !ok || f.Value != v || math.Signbit(f.Value) != math.Signbit(v) {
			t.Errorf("%g printed as %q parses to %v", v, s, e)
		}
	}
}
