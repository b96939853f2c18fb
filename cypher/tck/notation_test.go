package tck

import (
	"math"
	"strings"
	"testing"

	"github.com/gdi-go/gdi/cypher/value"
)

// TestParseValueCanonical reads values and writes them back canonically.
func TestParseValueCanonical(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"null", "null"},
		{" true ", "true"},
		{"false", "false"},
		{"-9223372036854775808", "-9223372036854775808"},
		{"42", "42"},
		{"1.0", "1.0"},
		{"-0.0", "-0.0"},
		{".5", "0.5"},
		{"1e308", "1e308"},
		{"1.5E-7", "1.5e-07"},
		{"5e22", "5e22"},
		{"0E3", "0.0"},
		{"NaN", "NaN"},
		{"Inf", "Inf"},
		{"-Inf", "-Inf"},
		{"''", "''"},
		{`'it\'s'`, `'it\'s'`},
		{`'a\\b\"c\n'`, `'a\\b"c\n'`},
		{`'\u00e9\q'`, `'é\\q'`},
		{"[ ]", "[]"},
		{"[1,2 , 'a']", "[1, 2, 'a']"},
		{"[[1], [ ]]", "[[1], []]"},
		{"{b: 1, a: [2, {c: null}]}", "{a: [2, {c: null}], b: 1}"},
		{"{``: 0, `a b`: 1, `x``y`: 2}", "{``: 0, `a b`: 1, `x``y`: 2}"},
		{"()", "()"},
		{"( :B:A:B { k : 'v' } )", "(:A:B {k: 'v'})"},
		{"({name: 'A'})", "({name: 'A'})"},
		{"[:T]", "[:T]"},
		{"[:T {k: 1}]", "[:T {k: 1}]"},
		{"[[:T], (:A)]", "[[:T], (:A)]"},
		{"<()>", "<()>"},
		{"<(:A) - [:T] -> (:B) <- [:U {x: 1}] - ()>", "<(:A)-[:T]->(:B)<-[:U {x: 1}]-()>"},
	} {
		v, err := ParseValue(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if got := v.String(); got != tc.want {
			t.Errorf("%s: reads back as %s, want %s", tc.in, got, tc.want)
		}
	}
}

// TestParseValueErrors checks that malformed notation is refused.
func TestParseValueErrors(t *testing.T) {
	for _, in := range []string{
		"", "nul", "1 2", "[1, 2", "[1,]", "{a 1}", "{a: 1, a: 2}", "'open", "(:A", "(:A {k: 1}",
		"[:T:U]", "<(:A)-[:T]-(:B)>", "<(:A)-[:T]->>", "99999999999999999999", "1.2.3", "`x",
		"{: 1}", "<(:A)", "12abc", "+1",
	} {
		if v, err := ParseValue(in); err == nil {
			t.Errorf("%q read as %s", in, v)
		}
	}
}

// equalCases are pairs of values and whether they are Equal.
var equalCases = []struct {
	a, b           string
	equal          bool
	listsUnordered bool
}{
	{"1", "1", true, false},
	{"1", "1.0", false, false},
	{"1.0", "1.00", true, false},
	{"100.0", "1e2", true, false},
	{"0.0", "-0.0", true, false},
	{"NaN", "NaN", true, false},
	{"NaN", "1.0", false, false},
	{"Inf", "-Inf", false, false},
	{"null", "null", true, false},
	{"null", "false", false, false},
	{"'a'", "'a'", true, false},
	{"'a'", "'A'", false, false},
	{`'it\'s'`, `'it"s'`, false, false},
	{`'\\'`, `'\\'`, true, false},
	{"(:A:B)", "(:B:A)", true, false},
	{"(:A:B)", "(:A)", false, false},
	{"(:A {a: 1, b: 2})", "(:A {b: 2, a: 1})", true, false},
	{"(:A {a: 1})", "(:A {a: 1, b: 2})", false, false},
	{"(:A)", "[:A]", false, false},
	{"{a: 1, b: 'x'}", "{b: 'x', a: 1}", true, false},
	{"{a: 1}", "{a: 1.0}", false, false},
	{"{a: 1}", "{a: 2}", false, false},
	{"{a: 1}", "{b: 1}", false, false},
	{"(:A {a: 'x'})", "(:A {a: 'y'})", false, false},
	{"[:T {a: [1]}]", "[:T {a: [2]}]", false, false},
	{"{a: null}", "{}", false, false},
	{"[1, 2]", "[1, 2]", true, false},
	{"[1, 2]", "[2, 1]", false, false},
	{"[1, 2]", "[2, 1]", true, true},
	{"[1, 1, 2]", "[1, 2, 2]", false, true},
	{"[[1, 2], [3]]", "[[3], [2, 1]]", true, true},
	{"[[1, 2], [3]]", "[[3], [2, 1]]", false, false},
	{"{k: [1, 2]}", "{k: [2, 1]}", true, true},
	{"[:T {k: 1}]", "[:T {k: 1}]", true, false},
	{"[:T {k: 1}]", "[:U {k: 1}]", false, false},
	{"<(:A)-[:T]->(:B)>", "<(:A)-[:T]->(:B)>", true, false},
	{"<(:A)-[:T]->(:B)>", "<(:A)<-[:T]-(:B)>", false, false},
	{"<(:A)-[:T]->(:B)>", "<(:B)<-[:T]-(:A)>", false, false},
	{"[NaN, {a: [NaN]}]", "[NaN, {a: [NaN]}]", true, false},
}

// TestEqual compares values by the TCK's rules, both ways round.
func TestEqual(t *testing.T) {
	for _, tc := range equalCases {
		a, errA := ParseValue(tc.a)
		b, errB := ParseValue(tc.b)
		if errA != nil || errB != nil {
			t.Errorf("%s, %s: %v %v", tc.a, tc.b, errA, errB)
			continue
		}
		if got := Equal(a, b, tc.listsUnordered); got != tc.equal {
			t.Errorf("Equal(%s, %s, %v) = %v", tc.a, tc.b, tc.listsUnordered, got)
		}
		if got := Equal(b, a, tc.listsUnordered); got != tc.equal {
			t.Errorf("Equal(%s, %s, %v) = %v", tc.b, tc.a, tc.listsUnordered, got)
		}
	}
}

// TestParamValue reads parameters as engine values.
func TestParamValue(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"null", "null"},
		{"true", "true"},
		{"-3", "-3"},
		{"2.5", "2.5"},
		{"NaN", "NaN"},
		{`'it\'s'`, `'it\'s'`},
		{"[1, 'a', [null]]", "[1, 'a', [null]]"},
		{"[{year: 2016, id: 1}, {id: 2, year: 2016}]", "[{id: 1, year: 2016}, {id: 2, year: 2016}]"},
	} {
		v, err := ParamValue(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if got := v.String(); got != tc.want {
			t.Errorf("%s: value %s, want %s", tc.in, got, tc.want)
		}
	}
	if v, _ := ParamValue("1"); v.Kind().String() != "Integer" {
		t.Errorf("1 is a %s", v.Kind())
	}
	if v, _ := ParamValue("1.0"); v.Kind().String() != "Float" || v.Float() != 1 {
		t.Errorf("1.0 is a %s", v.Kind())
	}
	if v, _ := ParamValue("-0.0"); !math.Signbit(v.Float()) {
		t.Errorf("-0.0 lost its sign")
	}
	for _, in := range []string{"(:A)", "[[:T]]", "{k: <()>}", "'open"} {
		if _, err := ParamValue(in); err == nil {
			t.Errorf("%s read as a parameter", in)
		}
	}
	params, err := Params([][]string{{"a", "1"}, {"b", "'x'"}})
	if err != nil || len(params) != 2 || params["b"].Str() != "x" {
		t.Errorf("Params: %v %v", params, err)
	}
	if _, err := Params([][]string{{"a"}}); err == nil || !strings.Contains(err.Error(), "2") {
		t.Errorf("Params of a short row: %v", err)
	}
}

// TestReadsValueFormat reads what value.Format writes, as engines print
// their cells and properties with it: each value reads back equivalent.
func TestReadsValueFormat(t *testing.T) {
	m := value.NewMap(map[string]value.Value{"a b": value.Int(1), "": value.Null, "x`y": value.Str("z"), "1a": value.Bool(true)})
	for _, v := range []value.Value{
		value.Null, value.Bool(false), value.Int(math.MinInt64), value.Int(math.MaxInt64),
		value.Float(1e-8), value.Float(1e21), value.Float(123.456), value.Float(1), value.Float(math.Copysign(0, -1)),
		value.Float(math.NaN()), value.Float(math.Inf(1)), value.Float(math.Inf(-1)),
		value.Str(""), value.Str("a'b\\c\n\r\t\b\f\"é`"),
		value.ListOf(), value.ListOf(value.Int(1), value.ListOf(value.Float(2), m)), m,
	} {
		text := value.Format(v, nil)
		back, err := ParamValue(text)
		if err != nil {
			t.Errorf("%s: %v", text, err)
			continue
		}
		if !value.Equivalent(v, back) || back.Kind() != v.Kind() {
			t.Errorf("%s reads back as %s", text, back)
		}
	}
}
