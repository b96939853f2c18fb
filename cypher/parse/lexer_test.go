package parse

import (
	"strings"
	"testing"
)

// TestLex checks token kinds, texts and positions.
func TestLex(t *testing.T) {
	src := "MATCH (a)<-->(b) // c\n/* d */ WHERE a.x<>1..3 AND é.`q``r` >= $p0 + .5e1 // end"
	want := []struct {
		kind      tokenKind
		text, val string
		line, col int
	}{
		{tIdent, "MATCH", "", 1, 1}, {tLParen, "(", "", 1, 7}, {tIdent, "a", "", 1, 8}, {tRParen, ")", "", 1, 9},
		{tLt, "<", "", 1, 10}, {tMinus, "-", "", 1, 11}, {tMinus, "-", "", 1, 12}, {tGt, ">", "", 1, 13},
		{tLParen, "(", "", 1, 14}, {tIdent, "b", "", 1, 15}, {tRParen, ")", "", 1, 16},
		{tIdent, "WHERE", "", 2, 9}, {tIdent, "a", "", 2, 15}, {tDot, ".", "", 2, 16}, {tIdent, "x", "", 2, 17},
		{tNe, "<>", "", 2, 18}, {tInt, "1", "", 2, 20}, {tDotDot, "..", "", 2, 21}, {tInt, "3", "", 2, 23},
		{tIdent, "AND", "", 2, 25}, {tIdent, "é", "", 2, 29}, {tDot, ".", "", 2, 30}, {tQuoted, "`q``r`", "q`r", 2, 31},
		{tGe, ">=", "", 2, 38}, {tParam, "$p0", "p0", 2, 41}, {tPlus, "+", "", 2, 45}, {tFloat, ".5e1", "", 2, 47},
		{tEOF, "", "", 2, 58},
	}
	toks := lex(src)
	if len(toks) != len(want) {
		var got []string
		for _, tk := range toks {
			got = append(got, tk.text)
		}
		t.Fatalf("got %d tokens %q, want %d", len(toks), got, len(want))
	}
	for i, w := range want {
		tk := toks[i]
		if tk.kind != w.kind || tk.text != w.text || tk.val != w.val || tk.pos.Line != w.line || tk.pos.Column != w.col {
			t.Errorf("token %d = %v %q %q at %d:%d, want %v %q %q at %d:%d",
				i, tk.kind, tk.text, tk.val, tk.pos.Line, tk.pos.Column, w.kind, w.text, w.val, w.line, w.col)
		}
		if tk.kind != tEOF && src[tk.pos.Offset:tk.end] != tk.text {
			t.Errorf("token %d: offsets %d..%d do not match its text %q", i, tk.pos.Offset, tk.end, tk.text)
		}
	}
}

// TestLexStopsAtError checks that an illegal token ends the token stream.
func TestLexStopsAtError(t *testing.T) {
	toks := lex("RETURN 0x AS x")
	if len(toks) != 3 || toks[1].kind != tIllegal || toks[2].kind != tEOF {
		t.Fatalf("tokens = %+v", toks)
	}
	if !strings.Contains(toks[1].err.Error(), "invalid number literal") {
		t.Errorf("error = %v", toks[1].err)
	}
}

// TestEqual checks that Equal ignores positions and source text, and
// nothing else: otherwise the round-trip checks would prove nothing.
func TestEqual(t *testing.T) {
	same := [][2]string{
		{"RETURN a AS x", "RETURN\n  a   AS x"},
		{"RETURN n.name", "RETURN n . name"},
		{"MATCH (n) RETURN n ORDER BY n.x ASC", "match (n) return n order by n.x"},
		{"RETURN [x IN l]", "RETURN [ x IN l ]"},
	}
	for _, p := range same {
		a, b := mustParse(t, p[0]), mustParse(t, p[1])
		if !Equal(a, b) {
			t.Errorf("Equal(%q, %q) = false", p[0], p[1])
		}
	}
	differ := [][2]string{
		{"RETURN 1", "RETURN 2"},
		{"RETURN 1", "RETURN 1.0"},
		{"RETURN 1.5", "RETURN 2.5"},
		{"RETURN 'a'", "RETURN 'b'"},
		{"RETURN a", "RETURN a AS a"},
		{"RETURN n ORDER BY n", "RETURN n ORDER BY n DESC"},
		{"MATCH (n) RETURN n", "MATCH (n) WHERE true RETURN n"},
		{"MATCH (n) RETURN n", "OPTIONAL MATCH (n) RETURN n"},
		{"MATCH (a)-->(b) RETURN a", "MATCH (a)<--(b) RETURN a"},
		{"MATCH (a)-[*2]-(b) RETURN a", "MATCH (a)-[*2..]-(b) RETURN a"},
		{"MATCH (n:A:B) RETURN n", "MATCH (n:B:A) RETURN n"},
		{"RETURN a < b < c", "RETURN (a < b) < c"},
		{"RETURN a - b - c", "RETURN a - (b - c)"},
		{"RETURN 1 UNION RETURN 1", "RETURN 1 UNION ALL RETURN 1"},
		{"RETURN [1, 2]", "RETURN [1]"},
		{"RETURN {}", "RETURN []"},
	}
	for _, p := range differ {
		a, b := mustParse(t, p[0]), mustParse(t, p[1])
		if Equal(a, b) {
			t.Errorf("Equal(%q, %q) = true", p[0], p[1])
		}
	}
}

func mustParse(t *testing.T, q string) *Query {
	t.Helper()
	res, err := Parse(q)
	if err != nil {
		t.Fatalf("Parse(%q): %v", q, err)
	}
	return res
}
