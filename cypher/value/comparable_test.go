package value

import "testing"

func TestComparability(t *testing.T) {
	check(t, []row{
		// null and types
		{"null < 1 is null", ok(Less(N, I(1))), N},
		{"null >= null is null", ok(GreaterEq(N, N)), N},
		{"1 < 'a' is null", ok(Less(I(1), S("a"))), N},
		{"'1' < 1 is null", ok(Less(S("1"), I(1))), N},
		{"'1.0' < 1.0 is null", ok(Less(S("1.0"), D(1))), N},
		{"true < 1 is null", ok(Less(T, I(1))), N},
		{"[] < '' is null", ok(Less(L(), S(""))), N},
		{"maps are not comparable", ok(Less(M("a", I(1)), M("a", I(2)))), N},
		{"equal maps are not comparable", ok(LessEq(M(), M())), N},
		{"nodes are not comparable", ok(Less(nd(1), nd(2))), N},
		{"relationships are not comparable", ok(GreaterEq(rl(1, 1, 2), rl(1, 1, 2))), N},
		// numbers (TCK Comparison2 [3], [6])
		{"1 < 3.14", ok(Less(I(1), D(3.14))), T},
		{"3.14 > 1", ok(Greater(D(3.14), I(1))), T},
		{"1 < 1.0 is false", ok(Less(I(1), D(1))), F},
		{"1 <= 1.0", ok(LessEq(I(1), D(1))), T},
		{"1.0 < 1.0 is false", ok(Less(D(1), D(1))), F},
		{"2^53+1 > 2^53 as a float", ok(Greater(I(1<<53+1), D(1<<53))), T},
		{"-1e300 < MinInt64", ok(Less(D(-1e300), I(-1<<63))), T},
		// NaN (TCK Comparison2 [5])
		{"NaN > 1 is false", ok(Greater(NaN, I(1))), F},
		{"NaN >= 1.0 is false", ok(GreaterEq(NaN, D(1))), F},
		{"NaN < NaN is false", ok(Less(NaN, NaN)), F},
		{"NaN <= NaN is false", ok(LessEq(NaN, NaN)), F},
		{"NaN < 'a' is null", ok(Less(NaN, S("a"))), N},
		// strings and booleans
		{"strings by code point: 'B' < 'a'", ok(Less(S("B"), S("a"))), T},
		{"strings: prefix first", ok(Less(S("abc"), S("abc1"))), T},
		{"strings: code point, not UTF-16 unit", ok(Less(S("\uffff"), S("😀"))), T},
		{"'' < ' '", ok(Less(S(""), S(" "))), T},
		{"false < true", ok(Less(F, T)), T},
		{"true <= true", ok(LessEq(T, T)), T},
		// lists (TCK Comparison2 [4])
		{"lists: [1, 0] >= [1]", ok(GreaterEq(L(I(1), I(0)), L(I(1)))), T},
		{"lists: [1, null] >= [1]", ok(GreaterEq(L(I(1), N), L(I(1)))), T},
		{"lists: [1, 2] >= [1, null] is null", ok(GreaterEq(L(I(1), I(2)), L(I(1), N))), N},
		{"lists: [1, 'a'] >= [1, null] is null", ok(GreaterEq(L(I(1), S("a")), L(I(1), N))), N},
		{"lists: [1, 2] >= [3, null] is false", ok(GreaterEq(L(I(1), I(2)), L(I(3), N))), F},
		{"lists: first difference decides", ok(Less(L(I(1), I(9)), L(I(2), I(0)))), T},
		{"lists: incomparable first difference is null", ok(Less(L(I(1)), L(S("a")))), N},
		{"lists: equal maps inside are skipped", ok(Less(L(M(), I(1)), L(M(), I(2)))), T},
		{"lists: [1] <= [1.0]", ok(LessEq(L(I(1)), L(D(1)))), T},
		{"lists: [] < [null]", ok(Less(L(), L(N))), T},
		{"lists: NaN inside is false", ok(Less(L(NaN), L(I(1)))), F},
	})
}
