package value

import (
	"fmt"
	"strings"
)

// Binary applies a binary operator named as in the parser's AST (the
// strings of parse.BinaryOp and parse.CompareOp): OR XOR AND IN, STARTS
// WITH, ENDS WITH, CONTAINS, + - * / % ^, and = <> < <= > >=. Keywords are
// matched case-insensitively. It does not short-circuit: an executor that
// wants to skip the right operand of false AND … may, since the result
// does not depend on it.
func Binary(op string, a, b Value) (Value, error) {
	switch strings.ToUpper(op) {
	case "AND":
		return And(a, b)
	case "OR":
		return Or(a, b)
	case "XOR":
		return Xor(a, b)
	case "IN":
		return In(a, b)
	case "STARTS WITH":
		return StartsWith(a, b), nil
	case "ENDS WITH":
		return EndsWith(a, b), nil
	case "CONTAINS":
		return Contains(a, b), nil
	case "+":
		return Add(a, b)
	case "-":
		return Sub(a, b)
	case "*":
		return Mul(a, b)
	case "/":
		return Div(a, b)
	case "%":
		return Mod(a, b)
	case "^":
		return Pow(a, b)
	}
	return Comparison(op, a, b)
}

// Comparison applies = <> < <= > or >=.
func Comparison(op string, a, b Value) (Value, error) {
	switch op {
	case "=":
		return Equal(a, b), nil
	case "<>":
		return NotEqual(a, b), nil
	case "<":
		return Less(a, b), nil
	case "<=":
		return LessEq(a, b), nil
	case ">":
		return Greater(a, b), nil
	case ">=":
		return GreaterEq(a, b), nil
	}
	return Null, fmt.Errorf("value: unknown operator %q", op)
}

// Unary applies NOT, - or + (the strings of parse.UnaryOp).
func Unary(op string, a Value) (Value, error) {
	switch strings.ToUpper(op) {
	case "NOT":
		return Not(a)
	case "-":
		return Neg(a)
	case "+":
		return Pos(a)
	}
	return Null, fmt.Errorf("value: unknown operator %q", op)
}
