package value

import (
	"math"
	"testing"
)

func TestArithmetic(t *testing.T) {
	negZero := D(math.Copysign(0, -1))
	check(t, []row{
		// null
		{"null propagates: 1 + null", r(Add(I(1), N)), N},
		{"null propagates: null * 'a'", r(Mul(N, S("a"))), N},
		{"null propagates: [1] + null", r(Add(L(I(1)), N)), N},
		{"null propagates: null ^ 2", r(Pow(N, I(2))), N},
		{"null propagates: -null", r(Neg(N)), N},
		// integers
		{"int + int is an int", r(Add(I(2), I(3))), I(5)},
		{"int - int", r(Sub(I(2), I(3))), I(-1)},
		{"int * int", r(Mul(I(-4), I(3))), I(-12)},
		{"int / int truncates toward zero", r(Div(I(7), I(2))), I(3)},
		{"int / int truncates toward zero (negative)", r(Div(I(-7), I(2))), I(-3)},
		{"int % int keeps the dividend's sign", r(Mod(I(-7), I(3))), I(-1)},
		{"int % int", r(Mod(I(7), I(-3))), I(1)},
		{"overflow: MaxInt64 + 1", r(Add(I(math.MaxInt64), I(1))), IntegerOverflow},
		{"overflow: MinInt64 - 1", r(Sub(I(math.MinInt64), I(1))), IntegerOverflow},
		{"overflow: 0 - MinInt64", r(Sub(I(0), I(math.MinInt64))), IntegerOverflow},
		{"overflow: 2^32 * 2^31", r(Mul(I(1<<32), I(1<<31))), IntegerOverflow},
		{"overflow: MinInt64 * -1", r(Mul(I(math.MinInt64), I(-1))), IntegerOverflow},
		{"overflow: MinInt64 / -1", r(Div(I(math.MinInt64), I(-1))), IntegerOverflow},
		{"overflow: -MinInt64", r(Neg(I(math.MinInt64))), IntegerOverflow},
		{"no overflow: MinInt64 + MaxInt64", r(Add(I(math.MinInt64), I(math.MaxInt64))), I(-1)},
		{"no overflow: 2^31 * -2^32", r(Mul(I(1<<31), I(-1<<32))), I(math.MinInt64)},
		{"no overflow: MinInt64 % -1", r(Mod(I(math.MinInt64), I(-1))), I(0)},
		{"int / 0 is DivisionByZero", r(Div(I(1), I(0))), DivisionByZero},
		{"int % 0 is DivisionByZero", r(Mod(I(1), I(0))), DivisionByZero},
		// floats
		{"int + float is a float", r(Add(I(1), D(0.5))), D(1.5)},
		{"float * int", r(Mul(D(1.5), I(2))), D(3)},
		{"int / float", r(Div(I(1), D(2))), D(0.5)},
		{"float / 0 is Infinity", r(Div(D(1), I(0))), Inf},
		{"-1 / 0.0 is -Infinity", r(Div(I(-1), D(0))), D(math.Inf(-1))},
		{"0.0 / 0 is NaN", r(Div(D(0), I(0))), NaN},
		{"float % keeps the dividend's sign", r(Mod(D(-7.5), I(2))), D(-1.5)},
		{"float % 0 is NaN", r(Mod(D(1), D(0))), NaN},
		{"float overflow is Infinity", r(Mul(D(1e308), I(10))), Inf},
		// power
		{"^ is always a float", r(Pow(I(2), I(3))), D(8)},
		{"^ with a negative exponent", r(Pow(I(2), I(-1))), D(0.5)},
		{"^: 0 ^ 0 is 1.0", r(Pow(I(0), I(0))), D(1)},
		{"^: 1 ^ NaN is NaN (Java)", r(Pow(I(1), NaN)), NaN},
		{"^: (-8) ^ (1/3) is NaN", r(Pow(I(-8), D(1.0/3))), NaN},
		// unary
		{"unary minus of an int", r(Neg(I(3))), I(-3)},
		{"unary minus of a float", r(Neg(D(0))), negZero},
		{"unary plus of a number", r(Pos(D(2.5))), D(2.5)},
		{"unary minus of a string is a TypeError", r(Neg(S("a"))), InvalidArgumentType},
		{"unary plus of a bool is a TypeError", r(Pos(T)), InvalidArgumentType},
		// concatenation
		{"string + string", r(Add(S("a"), S("b"))), S("ab")},
		{"string + int", r(Add(S("a"), I(1))), S("a1")},
		{"int + string", r(Add(I(1), S("a"))), S("1a")},
		{"string + float", r(Add(S("a"), D(1.5))), S("a1.5")},
		{"float + string keeps the decimal point", r(Add(D(2), S("x"))), S("2.0x")},
		{"string + NaN", r(Add(S("a"), NaN)), S("aNaN")},
		{"string + bool is a TypeError", r(Add(S("a"), T)), InvalidArgumentType},
		{"list + list", r(Add(L(I(1)), L(I(2), I(3)))), L(I(1), I(2), I(3))},
		{"list + element appends", r(Add(L(I(1)), S("a"))), L(I(1), S("a"))},
		{"element + list prepends", r(Add(I(0), L(I(1)))), L(I(0), I(1))},
		{"list + list nests nothing", r(Add(L(), L(L()))), L(L())},
		{"string + list prepends the string", r(Add(S("a"), L())), L(S("a"))},
		// types
		{"types: 1 + true", r(Add(I(1), T)), InvalidArgumentType},
		{"types: 'a' - 'b'", r(Sub(S("a"), S("b"))), InvalidArgumentType},
		{"types: [1] * 2", r(Mul(L(I(1)), I(2))), InvalidArgumentType},
		{"types: {} / 1", r(Div(M(), I(1))), InvalidArgumentType},
		{"types: 1 % 'a'", r(Mod(I(1), S("a"))), InvalidArgumentType},
		{"types: 2 ^ true", r(Pow(I(2), T)), InvalidArgumentType},
		{"types: node + 1", r(Add(nd(1), I(1))), InvalidArgumentType},
	})
}

func TestConcatDoesNotAlias(t *testing.T) {
	base := NewList(make([]Value, 1, 8))
	a, _ := Add(base, I(1))
	b, _ := Add(base, I(2))
	if !same(a, L(N, I(1))) || !same(b, L(N, I(2))) {
		t.Errorf("list + element must copy: got %v and %v", a, b)
	}
}
