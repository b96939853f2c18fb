package value

import "math"

// Arithmetic. Null on either side gives null. Integer op Integer is an
// Integer, checked: a result outside int64 raises ArithmeticError
// (IntegerOverflow); / truncates toward zero and / or % by 0 raises
// ArithmeticError (DivisionByZero). When a Float is involved the Integer is
// converted and IEEE 754 applies (1.0 / 0 is Infinity, 0.0 / 0 NaN, %
// keeps the sign of the dividend). ^ always gives a Float. + also
// concatenates: two strings; a string and a number (the number as
// toString writes it: 'a' + 1 is 'a1', 1.5 + 'a' is '1.5a'); two lists;
// a list and an element (appended or prepended). Other operand types raise
// TypeError (InvalidArgumentType).

// Add returns a + b.
func Add(a, b Value) (Value, error) {
	switch {
	case a.IsNull() || b.IsNull():
		return Null, nil
	case a.kind == KindList && b.kind == KindList:
		return NewList(concat(a.List(), b.List())), nil
	case a.kind == KindList:
		return NewList(concat(a.List(), []Value{b})), nil
	case b.kind == KindList:
		return NewList(concat([]Value{a}, b.List())), nil
	case a.kind == KindString && (b.kind == KindString || b.IsNumber()):
		return Str(a.Str() + scalarString(b)), nil
	case b.kind == KindString && a.IsNumber():
		return Str(scalarString(a) + b.Str()), nil
	}
	return numeric("+", a, b, addInt, func(x, y float64) float64 { return x + y })
}

// Sub returns a - b.
func Sub(a, b Value) (Value, error) {
	return numeric("-", a, b, subInt, func(x, y float64) float64 { return x - y })
}

// Mul returns a * b.
func Mul(a, b Value) (Value, error) {
	return numeric("*", a, b, mulInt, func(x, y float64) float64 { return x * y })
}

// Div returns a / b.
func Div(a, b Value) (Value, error) {
	return numeric("/", a, b, divInt, func(x, y float64) float64 { return x / y })
}

// Mod returns a % b.
func Mod(a, b Value) (Value, error) {
	return numeric("%", a, b, modInt, math.Mod)
}

// Pow returns a ^ b, always a Float.
func Pow(a, b Value) (Value, error) {
	if a.IsNull() || b.IsNull() {
		return Null, nil
	}
	if !a.IsNumber() || !b.IsNumber() {
		return Null, operandError("^", a, b)
	}
	return Float(pow(a.Float(), b.Float())), nil
}

// pow is math.Pow with Java's (and so Neo4j's) answers where they differ:
// NaN for 1 ^ NaN and for (±1) ^ (±Infinity).
func pow(x, y float64) float64 {
	if math.IsNaN(y) || (math.Abs(x) == 1 && math.IsInf(y, 0)) {
		return math.NaN()
	}
	return math.Pow(x, y)
}

// Neg returns -a.
func Neg(a Value) (Value, error) {
	switch a.kind {
	case KindNull:
		return Null, nil
	case KindInteger:
		if a.Int() == math.MinInt64 {
			return Null, overflow("-", a)
		}
		return Int(-a.Int()), nil
	case KindFloat:
		return Float(-a.f()), nil
	}
	return Null, operandError("unary -", a)
}

// Pos returns +a: a itself if it is a number or null.
func Pos(a Value) (Value, error) {
	if a.IsNull() || a.IsNumber() {
		return a, nil
	}
	return Null, operandError("unary +", a)
}

type intOp func(x, y int64) (int64, error)

// numeric applies an arithmetic operator to two numbers.
func numeric(op string, a, b Value, i intOp, f func(x, y float64) float64) (Value, error) {
	switch {
	case a.IsNull() || b.IsNull():
		return Null, nil
	case !a.IsNumber() || !b.IsNumber():
		return Null, operandError(op, a, b)
	case a.kind == KindInteger && b.kind == KindInteger:
		r, err := i(a.Int(), b.Int())
		if err != nil {
			return Null, err
		}
		return Int(r), nil
	}
	return Float(f(a.Float(), b.Float())), nil
}

func concat(a, b []Value) []Value {
	r := make([]Value, 0, len(a)+len(b))
	return append(append(r, a...), b...)
}

func overflow(op string, vs ...Value) error {
	if len(vs) == 1 {
		return newError(ArithmeticError, IntegerOverflow, "integer overflow in %s%d", op, vs[0].Int())
	}
	return newError(ArithmeticError, IntegerOverflow, "integer overflow in %d %s %d", vs[0].Int(), op, vs[1].Int())
}

func addInt(x, y int64) (int64, error) {
	r := x + y
	if (x^r)&(y^r) < 0 {
		return 0, overflow("+", Int(x), Int(y))
	}
	return r, nil
}

func subInt(x, y int64) (int64, error) {
	r := x - y
	if (x^y)&(x^r) < 0 {
		return 0, overflow("-", Int(x), Int(y))
	}
	return r, nil
}

func mulInt(x, y int64) (int64, error) {
	if x == 0 || y == 0 {
		return 0, nil
	}
	r := x * y
	if r/y != x || (x == -1 && y == math.MinInt64) || (y == -1 && x == math.MinInt64) {
		return 0, overflow("*", Int(x), Int(y))
	}
	return r, nil
}

func divInt(x, y int64) (int64, error) {
	switch {
	case y == 0:
		return 0, newError(ArithmeticError, DivisionByZero, "/ by zero")
	case x == math.MinInt64 && y == -1:
		return 0, overflow("/", Int(x), Int(y))
	}
	return x / y, nil
}

func modInt(x, y int64) (int64, error) {
	if y == 0 {
		return 0, newError(ArithmeticError, DivisionByZero, "%% by zero")
	}
	return x % y, nil
}
