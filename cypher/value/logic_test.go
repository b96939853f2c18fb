package value

import "testing"

func TestLogic(t *testing.T) {
	check(t, []row{
		{"AND: true AND true", r(And(T, T)), T},
		{"AND: false wins over null", r(And(F, N)), F},
		{"AND: false wins over null (right)", r(And(N, F)), F},
		{"AND: true AND null is null", r(And(T, N)), N},
		{"AND: null AND null is null", r(And(N, N)), N},
		{"AND: true AND false", r(And(T, F)), F},
		{"OR: true wins over null", r(Or(N, T)), T},
		{"OR: false OR null is null", r(Or(F, N)), N},
		{"OR: false OR false", r(Or(F, F)), F},
		{"OR: null OR null", r(Or(N, N)), N},
		{"XOR: null either side is null", r(Xor(T, N)), N},
		{"XOR: true XOR false", r(Xor(T, F)), T},
		{"XOR: true XOR true", r(Xor(T, T)), F},
		{"NOT: null is null", r(Not(N)), N},
		{"NOT: NOT false", r(Not(F)), T},
		{"types: 1 AND true is a TypeError", r(And(I(1), T)), InvalidArgumentType},
		{"types: false AND 'a' is a TypeError", r(And(F, S("a"))), InvalidArgumentType},
		{"types: OR of a list", r(Or(L(), F)), InvalidArgumentType},
		{"types: XOR of a number", r(Xor(T, D(1))), InvalidArgumentType},
		{"types: NOT 1", r(Not(I(1))), InvalidArgumentType},
	})
}

func TestIsTrue(t *testing.T) {
	for _, c := range []struct {
		v    Value
		want bool
	}{{T, true}, {F, false}, {N, false}, {I(1), false}, {S("true"), false}} {
		if got := c.v.IsTrue(); got != c.want {
			t.Errorf("WHERE keeps only true: IsTrue(%v) = %v", c.v, got)
		}
	}
}
