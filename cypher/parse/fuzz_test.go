package parse

import (
	"testing"
	"unicode/utf8"

	"github.com/gdi-go/gdi/cypher/tck"
)

// FuzzParse checks that Parse never panics, that its errors are well-formed
// *Error values whose position matches their offset, and that every query it
// accepts round-trips through its canonical form. The seeds are the TCK
// queries and the queries of the table tests.
func FuzzParse(f *testing.F) {
	if qs, err := tck.Queries(tck.FeaturesDir(tckDefaultDir)); err == nil {
		for _, q := range qs {
			f.Add(q.Text)
		}
	}
	for _, s := range []string{
		"MATCH (a)-[r:T|U*1..3 {k: $p}]->(b) WHERE a.x IN [1, 2.5, 'x'] RETURN DISTINCT a, count(*) ORDER BY a.x DESC SKIP 1 LIMIT 2",
		"UNWIND [x IN range(0, 10) WHERE x % 2 = 0 | x ^ 2] AS y WITH y WHERE NOT y IS NULL RETURN CASE y WHEN 4 THEN 'four' ELSE -y END",
		"MATCH (n) SET n.a = 1, n += {b: 2}, n:L REMOVE n.c, n:M DETACH DELETE n",
		"RETURN -9223372036854775808, 0x7F, 0o17, .5e-3, '\\u00e9\\n', `a``b`, $0, l[1..][..2] UNION ALL RETURN 1",
		"MATCH p = ()<-->() RETURN p /* c */ // d",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := Parse(s)
		if err != nil {
			checkErrorValue(t, s, err)
			return
		}
		if msg := checkRoundTrip(q); msg != "" {
			t.Fatalf("query %q: %s", short(s), msg)
		}
	})
}

// checkErrorValue checks the invariants of a parse error.
func checkErrorValue(t *testing.T, src string, err error) {
	t.Helper()
	e, ok := err.(*Error)
	if !ok {
		t.Fatalf("Parse(%q) error %v is a %T, not *Error", src, err, err)
	}
	switch e.Kind {
	case SyntaxError:
		if e.Detail == "" {
			t.Fatalf("Parse(%q): SyntaxError without detail: %v", src, err)
		}
	case NotSupported:
		if e.Construct == "" {
			t.Fatalf("Parse(%q): NotSupported without construct: %v", src, err)
		}
	default:
		t.Fatalf("Parse(%q): bad kind %v", src, e.Kind)
	}
	if e.Offset < 0 || e.Offset > len(src) {
		t.Fatalf("Parse(%q): offset %d out of range", src, e.Offset)
	}
	line, col := 1, 1
	for _, r := range src[:e.Offset] {
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	if e.Line != line || e.Column != col {
		t.Fatalf("Parse(%q): error at %d:%d but offset %d is %d:%d", src, e.Line, e.Column, e.Offset, line, col)
	}
	if !utf8.ValidString(e.Msg) && utf8.ValidString(src) {
		t.Fatalf("Parse(%q): invalid UTF-8 in message %q", src, e.Msg)
	}
}
