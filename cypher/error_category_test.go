package cypher

import "testing"

// TestCheckErrorCategory checks that the errors of the semantic checker
// keep their kind as the TCK category: a property read on a value of a
// known type without properties is a TypeError, on a path a SyntaxError.
func TestCheckErrorCategory(t *testing.T) {
	runCases(t, []tcase{
		{"property of a string", nil, "WITH 'abc' AS s RETURN s.len", nil, false,
			"error TypeError/InvalidArgumentType"},
		{"property of a list", nil, "UNWIND [1] AS i WITH [i, i] AS pair RETURN pair.left", nil, false,
			"error TypeError/InvalidArgumentType"},
		{"property of a path", nil, "MATCH q = (a)-->(b) RETURN q.len", nil, false,
			"error SyntaxError/InvalidArgumentType"},
	})
}
