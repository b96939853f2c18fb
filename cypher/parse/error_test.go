package parse

import (
	"strings"
	"testing"
)

// TestErrors checks the kind, detail, position and message of errors.
func TestErrors(t *testing.T) {
	tests := []struct {
		in           string
		kind         ErrorKind
		detail       string // TCK detail, or the construct for NotSupported
		line, column int
		msg          string // substring of Error()
	}{
		{"MATCH (n\nWHERE n.x RETURN n", SyntaxError, DetailUnexpectedSyntax, 2, 1, `line 2, column 1: expected ')' after the node pattern, found "WHERE"`},
		{"MATCH (n)\nRETURN n.", SyntaxError, DetailUnexpectedSyntax, 2, 10, "expected a property name after '.', found end of input"},
		{"RETURN", SyntaxError, DetailUnexpectedSyntax, 1, 7, "expected an expression, found end of input"},
		{"", SyntaxError, DetailUnexpectedSyntax, 1, 1, "expected a clause"},
		{"FOO (n)", SyntaxError, DetailUnexpectedSyntax, 1, 1, `expected a clause such as MATCH, CREATE or RETURN, found "FOO"`},
		{"RETURN 1 +", SyntaxError, DetailUnexpectedSyntax, 1, 11, "expected an expression"},
		{"RETURN (1", SyntaxError, DetailUnexpectedSyntax, 1, 10, "expected ')' to close the parenthesized expression"},
		{"RETURN [1, 2", SyntaxError, DetailUnexpectedSyntax, 1, 13, "expected ',' or ']' in the list"},
		{"RETURN {a 1}", SyntaxError, DetailUnexpectedSyntax, 1, 11, "expected ':' after the key in the map"},
		{"RETURN {1} AS literal", SyntaxError, DetailUnexpectedSyntax, 1, 9, "expected a property key name in the map"},
		{"RETURN {, } AS literal", SyntaxError, DetailUnexpectedSyntax, 1, 9, ""},
		{"RETURN {k1.k: 1} AS literal", SyntaxError, DetailUnexpectedSyntax, 1, 11, ""},
		{"RETURN {k: {k: {}} AS literal", SyntaxError, DetailUnexpectedSyntax, 1, 20, `expected ',' or '}' in the map, found "AS"`},
		{"RETURN {k1#k: 1}", SyntaxError, DetailUnexpectedSyntax, 1, 11, "unexpected character '#'"},
		{"RETURN 'abc", SyntaxError, DetailUnexpectedSyntax, 1, 8, "unterminated string literal"},
		{"RETURN `abc", SyntaxError, DetailUnexpectedSyntax, 1, 8, "unterminated back-quoted name"},
		{"RETURN 1 /* never closed", SyntaxError, DetailUnexpectedSyntax, 1, 10, "unterminated comment"},
		{"RETURN 'a\\qb'", SyntaxError, DetailUnexpectedSyntax, 1, 10, "invalid escape sequence"},
		{"RETURN 'é\\uH'", SyntaxError, DetailInvalidUnicodeLiteral, 1, 10, "invalid unicode escape"},
		{"RETURN '\\uD800'", SyntaxError, DetailInvalidUnicodeLiteral, 1, 9, ""},
		{"RETURN 0x AS literal", SyntaxError, DetailInvalidNumberLiteral, 1, 8, `invalid number literal "0x"`},
		{"RETURN 0x1A2b3j4D5E6f7", SyntaxError, DetailInvalidNumberLiteral, 1, 8, ""},
		{"RETURN 0o8", SyntaxError, DetailInvalidNumberLiteral, 1, 8, ""},
		{"RETURN 7 − 2", SyntaxError, DetailInvalidUnicodeCharacter, 1, 10, "unexpected character"},
		{"MATCH (a)–[r]->(b) RETURN a", SyntaxError, DetailInvalidUnicodeCharacter, 1, 10, ""},
		{"RETURN 7 ~ 2", SyntaxError, DetailUnexpectedSyntax, 1, 10, "unexpected character"},
		{"RETURN 09", SyntaxError, DetailInvalidNumberLiteral, 1, 8, ""},
		{"RETURN 12abc", SyntaxError, DetailInvalidNumberLiteral, 1, 8, ""},
		{"RETURN {1B2c3e67: 1}", SyntaxError, DetailUnexpectedSyntax, 1, 9, `expected a property key name in the map, found "1B2c3e67"`},
		{"MATCH (n:2abc) RETURN n", SyntaxError, DetailUnexpectedSyntax, 1, 10, ""},
		{"RETURN 1e", SyntaxError, DetailInvalidNumberLiteral, 1, 8, ""},
		{"RETURN 9223372036854775808", SyntaxError, DetailIntegerOverflow, 1, 8, "does not fit in 64 bits"},
		{"RETURN 0x8000000000000000", SyntaxError, DetailIntegerOverflow, 1, 8, ""},
		{"RETURN -0x8000000000000001", SyntaxError, DetailIntegerOverflow, 1, 8, ""},
		{"RETURN -(9223372036854775808)", SyntaxError, DetailIntegerOverflow, 1, 10, ""},
		{"RETURN 99999999999999999999999", SyntaxError, DetailIntegerOverflow, 1, 8, ""},
		{"RETURN 1.34E999", SyntaxError, DetailFloatingPointOverflow, 1, 8, "too large"},
		{"MATCH (a)-[:LIKES..]->(c) RETURN c", SyntaxError, DetailInvalidRelationshipPattern, 1, 18, `expected ']' after the relationship pattern detail, found ".."`},
		{"MATCH (a)-[:LIKES*-2]->(c) RETURN c", SyntaxError, DetailInvalidRelationshipPattern, 1, 19, ""},
		{"MATCH (a)-[r:]->(c) RETURN c", SyntaxError, DetailInvalidRelationshipPattern, 1, 14, "expected a relationship type name"},
		{"MATCH (a)-[*99999999999999999999]->(c) RETURN c", SyntaxError, DetailIntegerOverflow, 1, 13, ""},
		{"MATCH (a)-[r]>(c) RETURN c", SyntaxError, DetailInvalidRelationshipPattern, 1, 14, "expected '-' to continue the relationship pattern"},
		{"MATCH (a)<(c) RETURN c", SyntaxError, DetailUnexpectedSyntax, 1, 10, ""},
		{"MATCH (end) RETURN 1", SyntaxError, DetailUnexpectedSyntax, 1, 8, "END is a reserved word"},
		{"RETURN 1 AS end", SyntaxError, DetailUnexpectedSyntax, 1, 13, "reserved word"},
		{"RETURN match(1)", SyntaxError, DetailUnexpectedSyntax, 1, 8, "MATCH is a reserved word"},
		{"MATCH (n) RETURN n SKIP", SyntaxError, DetailUnexpectedSyntax, 1, 24, "expected an expression"},
		{"MATCH (n) RETURN n ORDER n", SyntaxError, DetailUnexpectedSyntax, 1, 26, "expected BY after ORDER"},
		{"UNWIND [1] x RETURN x", SyntaxError, DetailUnexpectedSyntax, 1, 12, "expected AS after the UNWIND expression"},
		{"RETURN a IS 1", SyntaxError, DetailUnexpectedSyntax, 1, 13, "expected NULL or NOT NULL after IS"},
		{"RETURN a STARTS 'x'", SyntaxError, DetailUnexpectedSyntax, 1, 17, "expected WITH after STARTS"},
		{"RETURN a = NOT b", SyntaxError, DetailUnexpectedSyntax, 1, 12, "expected an expression"},
		{"RETURN CASE END", SyntaxError, DetailUnexpectedSyntax, 1, 13, ""},
		{"RETURN CASE WHEN a THEN b", SyntaxError, DetailUnexpectedSyntax, 1, 26, "expected END to close CASE"},
		{"RETURN 1 RETURN 2", SyntaxError, DetailUnexpectedSyntax, 1, 10, "expected UNION or the end of the query after RETURN"},
		{"RETURN 1 UNION", SyntaxError, DetailUnexpectedSyntax, 1, 15, "expected a clause"},
		{"RETURN 1; RETURN 2", SyntaxError, DetailUnexpectedSyntax, 1, 11, "expected the end of the query"},
		{"MATCH (n)", SyntaxError, DetailInvalidClauseComposition, 1, 1, "a query cannot end with MATCH"},
		{"MATCH (n) WITH n", SyntaxError, DetailInvalidClauseComposition, 1, 11, "cannot end with WITH"},
		{"CREATE (n) MATCH (m) RETURN m", SyntaxError, DetailInvalidClauseComposition, 1, 12, "WITH is required between CREATE and MATCH"},
		{"MATCH (n) SET n RETURN n", SyntaxError, DetailUnexpectedSyntax, 1, 17, "expected '=', '+=' or a label after the variable in SET"},
		{"MATCH (n) SET n.x RETURN n", SyntaxError, DetailUnexpectedSyntax, 1, 19, "expected '=' after the property in SET"},
		{"MATCH (n) SET 1 = 2", SyntaxError, DetailUnexpectedSyntax, 1, 15, "expected a property, a variable or labels to SET"},
		{"MATCH (n) REMOVE n", SyntaxError, DetailUnexpectedSyntax, 1, 18, "expected a property or labels to REMOVE"},
		{"MATCH (n) DETACH n", SyntaxError, DetailUnexpectedSyntax, 1, 18, "expected DELETE after DETACH"},
		{"RETURN $", SyntaxError, DetailUnexpectedSyntax, 1, 8, "expected a parameter name"},
		{"RETURN a != b", SyntaxError, DetailUnexpectedSyntax, 1, 10, "unexpected character '!'"},
		// Not supported, with the construct and its position.
		{"MERGE (n) RETURN n", NotSupported, "MERGE", 1, 1, "MERGE is not supported"},
		{"MATCH (n)\n  MERGE (m)", NotSupported, "MERGE", 2, 3, "line 2, column 3: MERGE is not supported"},
		{"CALL db.labels()", NotSupported, "CALL", 1, 1, ""},
		{"OPTIONAL CALL db.labels()", NotSupported, "OPTIONAL CALL", 1, 1, ""},
		{"FOREACH (x IN [1] | CREATE ())", NotSupported, "FOREACH", 1, 1, ""},
		{"LOAD CSV FROM 'x' AS l RETURN l", NotSupported, "LOAD CSV", 1, 1, ""},
		{"CREATE INDEX FOR (n:A) ON (n.x)", NotSupported, "CREATE INDEX", 1, 1, ""},
		{"EXPLAIN MATCH (n) RETURN n", NotSupported, "EXPLAIN", 1, 1, ""},
		{"MATCH (n) USING INDEX n:A(x) RETURN n", NotSupported, "USING (planner hint)", 1, 11, ""},
		{"MATCH (n) WHERE EXISTS { MATCH (n)-->() } RETURN n", NotSupported, "EXISTS subquery", 1, 17, ""},
		{"MATCH (n) RETURN COUNT { (n)-->() }", NotSupported, "COUNT subquery", 1, 18, ""},
		{"MATCH (a) WHERE (a)-->() RETURN a", NotSupported, "pattern expression", 1, 17, ""},
		{"MATCH (a) WHERE NOT (a)-[:T]-(:B) RETURN a", NotSupported, "pattern expression", 1, 21, ""},
		{"MATCH (a) RETURN size((a)<--())", NotSupported, "pattern expression", 1, 23, ""},
		{"MATCH (a) RETURN [(a)-->(b) | b.name]", NotSupported, "pattern comprehension", 1, 18, ""},
		{"MATCH (a) RETURN [p = (a)-->(b) WHERE b.x | p]", NotSupported, "pattern comprehension", 1, 18, ""},
		{"RETURN any(x IN [1])", SyntaxError, DetailUnexpectedSyntax, 1, 20, "expected WHERE in the list predicate"},
		{"RETURN all(x IN [1] WHERE x | x)", SyntaxError, DetailUnexpectedSyntax, 1, 29, "expected ')' to close the list predicate"},
		{"RETURN filter(x IN [1] WHERE x > 0)", NotSupported, "FILTER(…)", 1, 8, ""},
		{"RETURN reduce(acc = 0, x IN [1] | acc + x)", NotSupported, "REDUCE(…)", 1, 8, ""},
		{"MATCH (n) RETURN n {.name}", NotSupported, "map projection", 1, 20, ""},
		{"RETURN 'a' =~ 'a.*'", NotSupported, "regular expression match (=~)", 1, 12, ""},
		{"MATCH p = shortestPath((a)-[*]-(b)) RETURN p", NotSupported, "shortestPath()", 1, 11, ""},
		{"MATCH ((a)-->(b)) RETURN a", NotSupported, "parenthesized path pattern", 1, 7, ""},
		{"MATCH (n:A|B) RETURN n", NotSupported, "label expression", 1, 11, ""},
		{"MATCH (n WHERE n.x > 1) RETURN n", NotSupported, "WHERE inside a node pattern", 1, 10, ""},
	}
	for _, tt := range tests {
		_, err := Parse(tt.in)
		if err == nil {
			t.Errorf("Parse(%q) succeeded, want an error", tt.in)
			continue
		}
		e := asError(t, err)
		got := e.Detail
		if tt.kind == NotSupported {
			got = e.Construct
		}
		if e.Kind != tt.kind || got != tt.detail || e.Line != tt.line || e.Column != tt.column || !strings.Contains(e.Error(), tt.msg) {
			t.Errorf("Parse(%q):\n got  %v %q at %d:%d: %v\n want %v %q at %d:%d: …%s…",
				tt.in, e.Kind, got, e.Line, e.Column, err, tt.kind, tt.detail, tt.line, tt.column, tt.msg)
		}
		if !strings.HasPrefix(err.Error(), "line ") {
			t.Errorf("error %q does not start with its position", err)
		}
	}
}

// TestErrorColumnsInRunes checks that columns count runes, not bytes.
func TestErrorColumnsInRunes(t *testing.T) {
	_, err := Parse("RETURN 'ééé', 'ü' +\n  'é' ) ")
	e := asError(t, err)
	if e.Line != 2 || e.Column != 7 {
		t.Errorf("error at %d:%d, want 2:7: %v", e.Line, e.Column, err)
	}
	if e.Offset != strings.Index("RETURN 'ééé', 'ü' +\n  'é' ) ", ")") {
		t.Errorf("offset %d", e.Offset)
	}
}
