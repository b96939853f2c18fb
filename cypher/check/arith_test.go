package check

import (
	"errors"
	"testing"

	"github.com/gdi-go/gdi/cypher/parse"
)

// TestArithmeticOperandRules checks that - * / % ^ and unary minus reject,
// at compile time, an operand known to be no number (nor anything else
// they apply to), and accept numbers, nulls and operands of unknown type.
func TestArithmeticOperandRules(t *testing.T) {
	runRules(t, []ruleCase{
		{"mod", "RETURN 'abc' % 2", DetailInvalidArgumentType},
		{"mod", "RETURN 5 % false", DetailInvalidArgumentType},
		{"pow", "RETURN true ^ 2", DetailInvalidArgumentType},
		{"mul", "WITH 'x' AS s RETURN s * 3", DetailInvalidArgumentType},
		{"div", "RETURN [1] / 2", DetailInvalidArgumentType},
		{"sub", "RETURN {a: 1} - 1", DetailInvalidArgumentType},
		{"neg", "RETURN -'a'", DetailInvalidArgumentType},
		{"numbers", "RETURN 7 % 2, 2.0 ^ 3, 9 / 4.5, -(1 - 2) * 3", ""},
		{"unknown", "MATCH (n) RETURN n.x % 2, -n.y, $p * 2, null - 1, date() - duration('P1D')", ""},
		{"plus", "RETURN 'a' + 1, [1] + 2, 'a' + 'b', +3", ""},
	})
}

// TestComprehensionElementTypes checks that the variable of a list
// comprehension or list predicate over a list literal has the types of the
// literal's elements, so that their misuse is found at compile time, and
// that a mixed or empty literal rejects nothing.
func TestComprehensionElementTypes(t *testing.T) {
	runRules(t, []ruleCase{
		{"strings", "RETURN [s IN ['ab', 'cd'] | s % 2] AS l", DetailInvalidArgumentType},
		{"booleans", "RETURN any(b IN [true, false] WHERE b - 1 > 0) AS r", DetailInvalidArgumentType},
		{"lists", "RETURN none(v IN [[1], [2]] WHERE v % 2 = 0) AS r", DetailInvalidArgumentType},
		{"predicate", "RETURN [v IN [1, 2] WHERE v] AS l", DetailInvalidArgumentType},
		{"property", "RETURN [n IN [1, 2] | n.size] AS l", DetailInvalidArgumentType},
		{"mixed", "RETURN single(v IN [1, 'one'] WHERE v % 2 = 0) AS r", ""},
		{"nulls", "RETURN all(v IN [null, 3] WHERE v % 2 = 1) AS r", ""},
		{"empty", "RETURN all(v IN [] WHERE v) AS a, [v IN [] | v % 2] AS b", ""},
		{"maps", "RETURN [v IN [{a: 1}] WHERE v.a = 1 | v.a % 2] AS l", ""},
		{"variable", "WITH ['a'] AS l RETURN [v IN l | v % 2] AS r", ""},
	})
}

// TestArithmeticErrorKind checks that an arithmetic operand of a wrong
// static type is a SyntaxError.
func TestArithmeticErrorKind(t *testing.T) {
	_, err := Check(mustParse(t, "RETURN [w IN ['x'] | w ^ 2] AS l"))
	var pe *parse.Error
	if !errors.As(err, &pe) || pe.Kind != parse.SyntaxError || pe.Detail != DetailInvalidArgumentType {
		t.Errorf("got %v, want a SyntaxError InvalidArgumentType", err)
	}
}
