package value

import (
	"math"
	"slices"
	"testing"
)

// sorted sorts a copy of vs by Compare, stably.
func sorted(vs []Value) []Value {
	s := slices.Clone(vs)
	slices.SortStableFunc(s, Compare)
	return s
}

func checkOrder(t *testing.T, rule string, want []Value) {
	t.Helper()
	in := slices.Clone(want)
	slices.Reverse(in)
	got := sorted(in)
	for i := range want {
		if !same(got[i], want[i]) {
			t.Errorf("%s: sorted to %v, want %v", rule, L(got...), L(want...))
			return
		}
	}
}

func TestOrderAcrossTypes(t *testing.T) {
	ab := rl(7, 1, 2)
	// TCK ReturnOrderBy1 [11]
	checkOrder(t, "types: map < node < relationship < list < path < string < boolean < number < NaN < null", []Value{
		M("a", S("map")), nd(1), ab, L(S("list")), pth(t, 1, ab, 2), S("text"), F, D(1.5), NaN, N,
	})
}

func TestOrderWithinTypes(t *testing.T) {
	negZero := D(math.Copysign(0, -1))
	checkOrder(t, "booleans: false < true", []Value{F, T})
	checkOrder(t, "strings: by code point (TCK ReturnOrderBy1 [3])", []Value{S(""), S(" "), S(".*"), S("B"), S("one")})
	checkOrder(t, "numbers: integers and floats together, NaN last", []Value{
		D(math.Inf(-1)), I(math.MinInt64), I(-1), negZero, D(0.5), I(1), D(1.3), D(999.99), I(1<<53 + 1), I(math.MaxInt64), Inf, NaN,
	})
	// TCK ReturnOrderBy1 [9]
	checkOrder(t, "lists: lexicographic under the global order", []Value{
		L(), L(S("a")), L(S("a"), I(1)), L(I(1)), L(I(1), S("a")), L(I(1), N), L(N, I(1)), L(N, I(2)),
	})
	checkOrder(t, "maps: by sorted keys, then values", []Value{
		M(), M("a", I(1)), M("a", I(2)), M("a", I(1), "b", I(0)), M("b", I(0)),
	})
	checkOrder(t, "nodes: by ID", []Value{nd(1), nd(2), nd(10)})
	checkOrder(t, "relationships: by ID", []Value{rl(1, 5, 5), rl(2, 1, 1), rl(3, 9, 9)})
	ab, ba := rl(1, 1, 2), rl(2, 2, 1)
	checkOrder(t, "paths: as the list of their elements", []Value{
		pth(t, 1), pth(t, 1, ab, 2), pth(t, 1, ba, 2), pth(t, 2), pth(t, 2, ab, 1),
	})
}

func TestCompareTies(t *testing.T) {
	for _, c := range []struct {
		rule string
		a, b Value
	}{
		{"1 ties with 1.0", I(1), D(1)},
		{"0.0 ties with -0.0", D(0), D(math.Copysign(0, -1))},
		{"NaN ties with NaN", NaN, NaN},
		{"null ties with null", N, N},
		{"[1] ties with [1.0]", L(I(1)), L(D(1))},
		{"relationships tie on ID whatever their endpoints", rl(4, 1, 2), rl(4, 2, 1)},
	} {
		if Compare(c.a, c.b) != 0 {
			t.Errorf("%s: Compare(%v, %v) = %d", c.rule, c.a, c.b, Compare(c.a, c.b))
		}
	}
}
