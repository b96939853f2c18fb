package parse

import (
	"reflect"
	"testing"
)

// TestSplitStatements: semicolons inside strings, names and comments do
// not end a statement; pieces are trimmed and point into the source; a
// source that ends inside a string, name or comment is open; a lexical
// error does not stop the split.
func TestSplitStatements(t *testing.T) {
	cases := []struct {
		src   string
		stmts []string
		rest  string
		open  bool
	}{
		{"RETURN 'a;\\'b';  // x;\n/* ; */ RETURN \"c;\", `d;``e` ;;\n  RETURN 1 /* end", []string{`RETURN 'a;\'b'`, "RETURN \"c;\", `d;``e`"}, "RETURN 1", true},
		{"RETURN 1; RETURN 'open;", []string{"RETURN 1"}, "RETURN 'open;", true},
		{"RETURN `name;", nil, "RETURN `name;", true},
		{"RETURN 'bad \\q;escape'; RETURN 2", []string{`RETURN 'bad \q;escape'`}, "RETURN 2", false},
		{"RETURN § ; RETURN 1e; RETURN 3;", []string{"RETURN §", "RETURN 1e", "RETURN 3"}, "", false},
		{"  // only a comment;\n ; ", nil, "", false},
		{"/* open ; comment", nil, "", true},
	}
	for _, c := range cases {
		sp := SplitStatements(c.src)
		var got []string
		for _, p := range sp.Statements {
			got = append(got, p.Text)
			if c.src[p.Offset:p.Offset+len(p.Text)] != p.Text {
				t.Errorf("%q: offset %d of %q", c.src, p.Offset, p.Text)
			}
		}
		rest := ""
		if sp.Rest != nil {
			rest = sp.Rest.Text
		}
		if !reflect.DeepEqual(got, c.stmts) || rest != c.rest || sp.Open != c.open {
			t.Errorf("%q: statements %q, rest %q, open %v; want %q, %q, %v", c.src, got, rest, sp.Open, c.stmts, c.rest, c.open)
		}
	}
}

// TestBadEscapeErrorKept: a bad escape is still the error, at its place,
// though the lexer reads the string to its end.
func TestBadEscapeErrorKept(t *testing.T) {
	for _, src := range []string{"RETURN 'a\\qb'", "RETURN 'a\\qb"} {
		_, err := Parse(src)
		pe, ok := err.(*Error)
		if !ok || pe.Offset != 9 {
			t.Errorf("%q: %v, want the bad escape's error at offset 9", src, err)
		}
	}
}
