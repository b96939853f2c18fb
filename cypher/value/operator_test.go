package value

import "testing"

func TestOperatorNames(t *testing.T) {
	bin := func(op string, a, b Value) out { return r(Binary(op, a, b)) }
	un := func(op string, a Value) out { return r(Unary(op, a)) }
	check(t, []row{
		{"dispatch: AND", bin("AND", T, N), N},
		{"dispatch: keywords in any case", bin("or", F, T), T},
		{"dispatch: XOR", bin("XOR", T, T), F},
		{"dispatch: IN", bin("IN", I(1), L(I(1))), T},
		{"dispatch: STARTS WITH", bin("STARTS WITH", S("ab"), S("a")), T},
		{"dispatch: ENDS WITH", bin("ENDS WITH", S("ab"), S("a")), F},
		{"dispatch: CONTAINS", bin("CONTAINS", S("ab"), I(1)), N},
		{"dispatch: +", bin("+", I(1), I(2)), I(3)},
		{"dispatch: -", bin("-", I(1), I(2)), I(-1)},
		{"dispatch: *", bin("*", I(2), I(2)), I(4)},
		{"dispatch: /", bin("/", I(1), I(0)), DivisionByZero},
		{"dispatch: %", bin("%", I(5), I(3)), I(2)},
		{"dispatch: ^", bin("^", I(2), I(2)), D(4)},
		{"dispatch: =", bin("=", I(1), D(1)), T},
		{"dispatch: <>", bin("<>", I(1), N), N},
		{"dispatch: <", bin("<", I(1), I(2)), T},
		{"dispatch: <=", bin("<=", I(2), I(2)), T},
		{"dispatch: >", bin(">", I(1), S("a")), N},
		{"dispatch: >=", bin(">=", S("b"), S("a")), T},
		{"dispatch: NOT", un("NOT", F), T},
		{"dispatch: unary -", un("-", I(1)), I(-1)},
		{"dispatch: unary +", un("+", I(1)), I(1)},
	})
	if _, err := Binary("=~", S("a"), S("a")); err == nil {
		t.Error("an unknown binary operator must fail")
	}
	if _, err := Unary("~", I(1)); err == nil {
		t.Error("an unknown unary operator must fail")
	}
}

func TestErrorText(t *testing.T) {
	_, err := Div(I(1), I(0))
	if got, want := err.Error(), "ArithmeticError (DivisionByZero): / by zero"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	_, err = Mod(I(1), I(0))
	if got, want := err.Error(), "ArithmeticError (DivisionByZero): % by zero"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if Kind(200).String() != "Kind(?)" || KindRelationship.String() != "Relationship" {
		t.Error("Kind.String")
	}
}
