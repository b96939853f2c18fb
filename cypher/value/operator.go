package value

import (
	"fmt"
	"strings"
)

// An Operator is a binary operator: it applies to two values.
type Operator func(a, b Value) (Value, error)

// total makes an Operator of a function that cannot fail.
func total(f func(a, b Value) Value) Operator {
	return func(a, b Value) (Value, error) { return f(a, b), nil }
}

// binaryOperators are the binary operators, by upper-case name.
var binaryOperators = map[string]Operator{
	"AND": And, "OR": Or, "XOR": Xor, "IN": In,
	"STARTS WITH": total(StartsWith), "ENDS WITH": total(EndsWith), "CONTAINS": total(Contains),
	"+": Add, "-": Sub, "*": Mul, "/": Div, "%": Mod, "^": Pow,
	"=": total(Equal), "<>": total(NotEqual), "<": total(Less),
	"<=": total(LessEq), ">": total(Greater), ">=": total(GreaterEq),
}

// BinaryOperator returns the binary operator named as in the parser's AST
// (the strings of parse.BinaryOp and parse.CompareOp): OR XOR AND IN,
// STARTS WITH, ENDS WITH, CONTAINS, + - * / % ^, and = <> < <= > >=.
// Keywords are matched case-insensitively. An engine looks an operator up
// once, when it compiles an expression. No operator short-circuits: an
// executor that wants to skip the right operand of false AND … may, since
// the result does not depend on it.
func BinaryOperator(op string) (Operator, error) {
	if f, ok := binaryOperators[strings.ToUpper(op)]; ok {
		return f, nil
	}
	return nil, fmt.Errorf("value: unknown operator %q", op)
}

// Binary applies the binary operator op (see BinaryOperator).
func Binary(op string, a, b Value) (Value, error) {
	f, err := BinaryOperator(op)
	if err != nil {
		return Null, err
	}
	return f(a, b)
}

// UnaryOperator returns the unary operator NOT, - or + (the strings of
// parse.UnaryOp).
func UnaryOperator(op string) (func(Value) (Value, error), error) {
	switch strings.ToUpper(op) {
	case "NOT":
		return Not, nil
	case "-":
		return Neg, nil
	case "+":
		return Pos, nil
	}
	return nil, fmt.Errorf("value: unknown operator %q", op)
}

// Unary applies the unary operator op (see UnaryOperator).
func Unary(op string, a Value) (Value, error) {
	f, err := UnaryOperator(op)
	if err != nil {
		return Null, err
	}
	return f(a)
}
