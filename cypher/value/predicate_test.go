package value

import "testing"

func TestPredicates(t *testing.T) {
	check(t, []row{
		// IN (TCK Null3 [4])
		{"IN: null IN null", r(In(N, N)), N},
		{"IN: null IN [1, 2, 3]", r(In(N, L(I(1), I(2), I(3)))), N},
		{"IN: null IN [1, 2, 3, null]", r(In(N, L(I(1), I(2), I(3), N))), N},
		{"IN: null IN [] is false", r(In(N, L())), F},
		{"IN: 1 IN [1, 2, 3, null]", r(In(I(1), L(I(1), I(2), I(3), N))), T},
		{"IN: 1 IN [null, 1]", r(In(I(1), L(N, I(1)))), T},
		{"IN: 5 IN [1, 2, 3, null] is null", r(In(I(5), L(I(1), I(2), I(3), N))), N},
		{"IN: 1 IN [null, 2] is null", r(In(I(1), L(N, I(2)))), N},
		{"IN: 1 IN [2, 3] is false", r(In(I(1), L(I(2), I(3)))), F},
		{"IN: 1 IN [1.0]", r(In(I(1), L(D(1)))), T},
		{"IN: NaN IN [NaN] is false", r(In(NaN, L(NaN))), F},
		{"IN: lists by equality", r(In(L(I(1)), L(L(I(1)), I(2)))), T},
		{"IN: [1, null] IN [[2, 2]] is false", r(In(L(I(1), N), L(L(I(2), I(2))))), F},
		{"IN: [1, null] IN [[1, 2]] is null", r(In(L(I(1), N), L(L(I(1), I(2))))), N},
		{"IN: a non-list is a TypeError", r(In(I(1), I(1))), InvalidArgumentType},
		{"IN: a string is not a list", r(In(S("a"), S("abc"))), InvalidArgumentType},
		// string predicates
		{"STARTS WITH", ok(StartsWith(S("abc"), S("ab"))), T},
		{"STARTS WITH the empty string", ok(StartsWith(S("abc"), S(""))), T},
		{"STARTS WITH is case-sensitive", ok(StartsWith(S("abc"), S("A"))), F},
		{"ENDS WITH", ok(EndsWith(S("abc"), S("bc"))), T},
		{"ENDS WITH false", ok(EndsWith(S("abc"), S("ab"))), F},
		{"CONTAINS", ok(Contains(S("abc"), S("b"))), T},
		{"CONTAINS false", ok(Contains(S("abc"), S("d"))), F},
		{"string predicates: null operand", ok(StartsWith(N, S("a"))), N},
		{"string predicates: null pattern", ok(Contains(S("a"), N)), N},
		{"string predicates: non-string is null", ok(EndsWith(I(1), S("1"))), N},
		{"string predicates: list is null", ok(Contains(L(S("a")), S("a"))), N},
		// IS NULL
		{"IS NULL of null", ok(IsNull(N)), T},
		{"IS NULL of a value", ok(IsNull(I(0))), F},
		{"IS NULL of [null]", ok(IsNull(L(N))), F},
		{"IS NOT NULL of null", ok(IsNotNull(N)), F},
		{"IS NOT NULL of false", ok(IsNotNull(F)), T},
	})
}
