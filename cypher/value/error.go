package value

import "fmt"

// Error is a Cypher error raised while evaluating: the TCK's error type
// (Category) and its detail, so that a scenario's "Then a TypeError should
// be raised at runtime: InvalidArgumentValue" can be checked by comparing
// the two fields.
type Error struct {
	Category Category
	Detail   Detail
	Msg      string
}

// Category is the TCK's error type.
type Category string

// The categories this package raises.
const (
	SyntaxError     Category = "SyntaxError"
	TypeError       Category = "TypeError"
	ArgumentError   Category = "ArgumentError"
	ArithmeticError Category = "ArithmeticError"
)

// Detail is the TCK's fine-grained error detail.
type Detail string

// The details this package raises.
const (
	// InvalidArgumentType: an operator applied to operands of the wrong
	// types, e.g. 1 + true, -'a', NOT 1, 1 IN 2, 1[0].
	InvalidArgumentType Detail = "InvalidArgumentType"
	// InvalidArgumentValue: a function applied to an argument of the wrong
	// type at runtime, e.g. toInteger([]), abs('a') (the TCK's detail for
	// these runtime failures).
	InvalidArgumentValue Detail = "InvalidArgumentValue"
	// NumberOutOfRange: a numeric argument outside its domain, e.g.
	// range(1, 5, 0), percentileDisc(x, 1.5), substring('a', -1).
	NumberOutOfRange Detail = "NumberOutOfRange"
	// IntegerOverflow: Integer arithmetic whose result leaves int64.
	IntegerOverflow Detail = "IntegerOverflow"
	// DivisionByZero: Integer / 0 or Integer % 0.
	DivisionByZero Detail = "DivisionByZero"
	// ListElementAccessByNonInteger: list[x] with x not an Integer.
	ListElementAccessByNonInteger Detail = "ListElementAccessByNonInteger"
	// MapElementAccessByNonString: map[x] with x not a String.
	MapElementAccessByNonString Detail = "MapElementAccessByNonString"
	// PropertyAccessOnNonMap: x.k with x not a map (nor a node or a
	// relationship, which the engine handles).
	PropertyAccessOnNonMap Detail = "PropertyAccessOnNonMap"
	// UnknownFunction: Call or NewAggregate with a name it does not know.
	UnknownFunction Detail = "UnknownFunction"
	// InvalidNumberOfArguments: a known function called with too few or
	// too many arguments.
	InvalidNumberOfArguments Detail = "InvalidNumberOfArguments"
)

func (e *Error) Error() string {
	return fmt.Sprintf("%s (%s): %s", e.Category, e.Detail, e.Msg)
}

func newError(c Category, d Detail, format string, args ...any) *Error {
	return &Error{Category: c, Detail: d, Msg: fmt.Sprintf(format, args...)}
}

// operandError is the TypeError of an operator applied to the wrong types.
func operandError(op string, vs ...Value) *Error {
	switch len(vs) {
	case 1:
		return newError(TypeError, InvalidArgumentType, "cannot apply %s to %s", op, vs[0].kind)
	default:
		return newError(TypeError, InvalidArgumentType, "cannot apply %s to %s and %s", op, vs[0].kind, vs[1].kind)
	}
}
