package value

import (
	"math"
	"testing"
)

func TestEqual(t *testing.T) {
	check(t, []row{
		// null
		{"null = null is null", ok(Equal(N, N)), N},
		{"null <> null is null", ok(NotEqual(N, N)), N},
		{"1 = null is null", ok(Equal(I(1), N)), N},
		// numbers
		{"1 = 1.0", ok(Equal(I(1), D(1))), T},
		{"1.0 = 1.0", ok(Equal(D(1), D(1))), T},
		{"0.0 = -0.0", ok(Equal(D(0), D(math.Copysign(0, -1)))), T},
		{"large integers compare exactly", ok(Equal(I(4611686018427387905), I(4611686018427387900))), F},
		{"2^53+1 <> 2^53 as a float", ok(Equal(I(1<<53+1), D(1<<53))), F},
		{"2^53 = 2^53 as a float", ok(Equal(I(1<<53), D(1<<53))), T},
		{"MaxInt64 <> 2^63 as a float", ok(Equal(I(math.MaxInt64), D(math.Exp2(63)))), F},
		{"1 = 1.5 is false", ok(Equal(I(1), D(1.5))), F},
		// NaN (TCK Comparison1 [8])
		{"NaN = 1 is false", ok(Equal(NaN, I(1))), F},
		{"NaN = 1.0 is false", ok(Equal(NaN, D(1))), F},
		{"NaN = NaN is false", ok(Equal(NaN, NaN)), F},
		{"NaN <> NaN is true", ok(NotEqual(NaN, NaN)), T},
		{"NaN = 'a' is false", ok(Equal(NaN, S("a"))), F},
		{"NaN <> 'a' is true", ok(NotEqual(NaN, S("a"))), T},
		// types (TCK Comparison1 [9])
		{"'1.0' = 1.0 is false", ok(Equal(S("1.0"), D(1))), F},
		{"'1' = 1 is false", ok(Equal(S("1"), I(1))), F},
		{"true = 1 is false", ok(Equal(T, I(1))), F},
		{"strings by code point", ok(Equal(S("é"), S("é"))), T},
		{"'a' <> 'b'", ok(NotEqual(S("a"), S("b"))), T},
		// lists (TCK Comparison1 [6])
		{"lists: [1, 2] = [1] is false", ok(Equal(L(I(1), I(2)), L(I(1)))), F},
		{"lists: [null] = [1] is null", ok(Equal(L(N), L(I(1)))), N},
		{"lists: ['a'] = [1] is false", ok(Equal(L(S("a")), L(I(1)))), F},
		{"lists: [[1]] = [[1], [null]] is false", ok(Equal(L(L(I(1))), L(L(I(1)), L(N)))), F},
		{"lists: [[1], [2]] = [[1], [null]] is null", ok(Equal(L(L(I(1)), L(I(2))), L(L(I(1)), L(N)))), N},
		{"lists: [[1], [2, 3]] = [[1], [null]] is false", ok(Equal(L(L(I(1)), L(I(2), I(3))), L(L(I(1)), L(N)))), F},
		{"lists: false wins over null", ok(Equal(L(N, I(1)), L(I(2), I(2)))), F},
		{"lists: [1] = [1.0]", ok(Equal(L(I(1)), L(D(1)))), T},
		{"lists: [] = []", ok(Equal(L(), L())), T},
		{"lists: [] = {} is false", ok(Equal(L(), M())), F},
		// maps (TCK Comparison1 [7])
		{"maps: {} = {}", ok(Equal(M(), M())), T},
		{"maps: {k: 'a', l: 2} equal", ok(Equal(M("k", S("a"), "l", I(2)), M("l", I(2), "k", S("a")))), T},
		{"maps: {} = {k: null} is false", ok(Equal(M(), M("k", N))), F},
		{"maps: {k: 1} = {k: 1, l: null} is false", ok(Equal(M("k", I(1)), M("k", I(1), "l", N))), F},
		{"maps: {k: null} = {k: null, l: null} is false", ok(Equal(M("k", N), M("k", N, "l", N))), F},
		{"maps: {k: null} = {k: null} is null", ok(Equal(M("k", N), M("k", N))), N},
		{"maps: {k: 1} = {k: null} is null", ok(Equal(M("k", I(1)), M("k", N))), N},
		{"maps: {k: 1, l: null} = {k: null, l: 1} is null", ok(Equal(M("k", I(1), "l", N), M("k", N, "l", I(1)))), N},
		{"maps: {k: 1, l: null} = {k: 2, l: 1} is false", ok(Equal(M("k", I(1), "l", N), M("k", I(2), "l", I(1)))), F},
		// graph elements, by identity
		{"nodes by identity", ok(Equal(nd(1), nd(1))), T},
		{"distinct nodes", ok(Equal(nd(1), nd(2))), F},
		{"relationships by ID, not endpoints", ok(Equal(rl(5, 1, 2), rl(5, 2, 1))), T},
		{"distinct relationships", ok(Equal(rl(5, 1, 2), rl(6, 1, 2))), F},
		{"node <> relationship", ok(Equal(nd(5), rl(5, 1, 2))), F},
		{"node <> its ID", ok(Equal(nd(5), I(5))), F},
	})
}

func TestEqualPaths(t *testing.T) {
	loop := rl(9, 1, 1)
	ab := rl(7, 1, 2)
	check(t, []row{
		// TCK Comparison1 [14]: direction is not significant.
		{"paths: a loop traversed both ways", ok(Equal(pth(t, 1, loop, 1), pth(t, 1, loop, 1))), T},
		{"paths: same elements", ok(Equal(pth(t, 1, ab, 2), pth(t, 1, ab, 2))), T},
		{"paths: reversed is another path", ok(Equal(pth(t, 1, ab, 2), pth(t, 2, ab, 1))), F},
		{"paths: lengths differ", ok(Equal(pth(t, 1), pth(t, 1, ab, 2))), F},
		{"paths: a node path <> the node", ok(Equal(pth(t, 1), nd(1))), F},
	})
}

func TestNewPathRejectsBrokenWalks(t *testing.T) {
	if _, err := NewPath([]Node{{1}, {3}}, []Relationship{{ID: RelID{7}, Start: 1, End: 2}}); err == nil {
		t.Error("a relationship that does not join its neighbours must be rejected")
	}
	if _, err := NewPath([]Node{{1}}, []Relationship{{ID: RelID{7}, Start: 1, End: 1}}); err == nil {
		t.Error("a path needs one node more than relationships")
	}
}

func TestEquivalent(t *testing.T) {
	for _, c := range []struct {
		rule string
		a, b Value
		want bool
	}{
		{"null is equivalent to null", N, N, true},
		{"NaN is equivalent to NaN", NaN, NaN, true},
		{"null is not equivalent to 0", N, I(0), false},
		{"1 is equivalent to 1.0", I(1), D(1), true},
		{"0.0 is equivalent to -0.0", D(0), D(math.Copysign(0, -1)), true},
		{"[null] is equivalent to [null]", L(N), L(N), true},
		{"[NaN, 1] is equivalent to [NaN, 1.0]", L(NaN, I(1)), L(NaN, D(1)), true},
		{"{k: null} is equivalent to {k: null}", M("k", N), M("k", N), true},
		{"{k: null} is not equivalent to {}", M("k", N), M(), false},
		{"[1] is not equivalent to [1, null]", L(I(1)), L(I(1), N), false},
		{"'1' is not equivalent to 1", S("1"), I(1), false},
		{"Inf is not equivalent to NaN", Inf, NaN, false},
		{"nodes by identity", nd(3), nd(3), true},
	} {
		if got := Equivalent(c.a, c.b); got != c.want {
			t.Errorf("%s: Equivalent(%v, %v) = %v", c.rule, c.a, c.b, got)
		}
		if got := Key(c.a) == Key(c.b); got != c.want {
			t.Errorf("%s: keys %q and %q", c.rule, Key(c.a), Key(c.b))
		}
	}
}
