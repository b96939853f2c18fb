package check

import (
	"errors"
	"testing"

	"github.com/gdi-go/gdi/cypher/parse"
)

// TestIndexTypeErrors checks that an index of the wrong type for the
// value indexed, known before running, is a TypeError (InvalidArgumentType),
// as the same mistake found at run time is.
func TestIndexTypeErrors(t *testing.T) {
	for _, q := range []string{
		"WITH ['x', 'y'] AS l RETURN l[false]",
		"WITH [0] AS l, {k: 1} AS i RETURN l[i]",
		"WITH {k: 1} AS m RETURN m[2.5]",
	} {
		_, err := Check(mustParse(t, q))
		var pe *parse.Error
		if !errors.As(err, &pe) || pe.Kind != parse.TypeError || pe.Detail != DetailInvalidArgumentType {
			t.Errorf("%q: got %v, want a TypeError (InvalidArgumentType)", q, err)
		}
	}
}
