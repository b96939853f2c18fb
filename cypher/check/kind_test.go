package check

import (
	"errors"
	"testing"

	"github.com/gdi-go/gdi/cypher/parse"
)

// TestPropertyAccessErrorKinds checks the kind of the error of a property
// read on something without properties: a TypeError for a value of a known
// type, a SyntaxError for a variable a pattern bound to a path or to the
// relationships of a variable-length relationship.
func TestPropertyAccessErrorKinds(t *testing.T) {
	cases := []struct {
		query string
		want  parse.ErrorKind
	}{
		{"WITH 'abc' AS s RETURN s.len", parse.TypeError},
		{"WITH 2.5 AS f, 7 AS i RETURN i.x", parse.TypeError},
		{"UNWIND [1] AS one WITH false AS b RETURN b.x", parse.TypeError},
		{"WITH [0, 'x'] AS l RETURN l.first", parse.TypeError},
		{"RETURN (1 + 2).sum", parse.TypeError},
		{"MATCH q = (a)-->(b) RETURN q.weight", parse.SyntaxError},
		{"MATCH q = (a) WITH q AS q2 RETURN q2.weight", parse.SyntaxError},
		{"MATCH (a)-[rs*2]->(b) WHERE rs.weight > 1 RETURN a", parse.SyntaxError},
	}
	for _, c := range cases {
		_, err := Check(mustParse(t, c.query))
		var pe *parse.Error
		if !errors.As(err, &pe) || pe.Kind != c.want || pe.Detail != DetailInvalidArgumentType {
			t.Errorf("%q: got %v (%#v), want a %s InvalidArgumentType", c.query, err, err, c.want)
		}
	}
}
