package value

import "testing"

func TestIndex(t *testing.T) {
	l := L(I(1), I(2), I(3))
	m := M("name", S("Mats"), "name2", N)
	check(t, []row{
		{"index: first", r(Index(l, I(0))), I(1)},
		{"index: negative counts from the end", r(Index(l, I(-1))), I(3)},
		{"index: -len is the first", r(Index(l, I(-3))), I(1)},
		{"index: past the end is null", r(Index(l, I(3))), N},
		{"index: before the start is null", r(Index(l, I(-4))), N},
		{"index: nested", r(Index(L(L(I(1))), I(0))), L(I(1))},
		{"index: null list", r(Index(N, I(0))), N},
		{"index: null index", r(Index(l, N)), N},
		{"index: string index into a list", r(Index(l, S("name"))), ListElementAccessByNonInteger},
		{"index: list index into a list", r(Index(l, L(S("Apa")))), ListElementAccessByNonInteger},
		{"index: float index into a list", r(Index(l, D(1))), ListElementAccessByNonInteger},
		{"index: map by key", r(Index(m, S("name"))), S("Mats")},
		{"index: map missing key is null", r(Index(m, S("other"))), N},
		{"index: map key bound to null", r(Index(m, S("name2"))), N},
		{"index: map by an integer", r(Index(m, I(0))), MapElementAccessByNonString},
		{"index: map by a float", r(Index(m, D(12.3))), MapElementAccessByNonString},
		{"index: into an integer", r(Index(I(100), I(0))), InvalidArgumentType},
		{"index: into a string", r(Index(S("abc"), I(0))), InvalidArgumentType},
		{"index: into a boolean", r(Index(T, I(0))), InvalidArgumentType},
		{"index: into a node (the engine's)", r(Index(nd(1), S("k"))), InvalidArgumentType},
	})
}

func TestSlice(t *testing.T) {
	l := L(I(1), I(2), I(3), I(4), I(5))
	p := func(v Value) *Value { return &v }
	check(t, []row{
		{"slice: [1..3]", r(Slice(l, p(I(1)), p(I(3)))), L(I(2), I(3))},
		{"slice: [..2]", r(Slice(l, nil, p(I(2)))), L(I(1), I(2))},
		{"slice: [3..]", r(Slice(l, p(I(3)), nil)), L(I(4), I(5))},
		{"slice: [..]", r(Slice(l, nil, nil)), l},
		{"slice: negative bounds from the end", r(Slice(l, p(I(-3)), p(I(-1)))), L(I(3), I(4))},
		{"slice: bounds are clamped", r(Slice(l, p(I(-10)), p(I(10)))), l},
		{"slice: from >= to is empty", r(Slice(l, p(I(3)), p(I(1)))), L()},
		{"slice: from past the end is empty", r(Slice(l, p(I(7)), nil)), L()},
		{"slice: null from", r(Slice(l, p(N), p(I(2)))), N},
		{"slice: null to", r(Slice(l, p(I(1)), p(N))), N},
		{"slice: null list", r(Slice(N, p(I(1)), nil)), N},
		{"slice: non-integer bound", r(Slice(l, p(S("a")), nil)), ListElementAccessByNonInteger},
		{"slice: non-list", r(Slice(S("abc"), p(I(1)), nil)), InvalidArgumentType},
	})
	if s, _ := Slice(l, nil, p(I(2))); true {
		if a, _ := Add(s, I(9)); !same(l, L(I(1), I(2), I(3), I(4), I(5))) || !same(a, L(I(1), I(2), I(9))) {
			t.Error("slice: appending to a slice must not change the list")
		}
	}
}

func TestProperty(t *testing.T) {
	// TCK Null1 [5]: map.key IS NULL.
	check(t, []row{
		{"property: present", r(Property(M("name", S("Mats"), "name2", S("Pontus")), "name")), S("Mats")},
		{"property: bound to null", r(Property(M("name", S("Mats"), "name2", N), "name2")), N},
		{"property: missing", r(Property(M("notName", I(0)), "name")), N},
		{"property: empty map", r(Property(M(), "name")), N},
		{"property: of null", r(Property(N, "name")), N},
		{"property: of an integer", r(Property(I(1), "num")), PropertyAccessOnNonMap},
		{"property: of a list", r(Property(L(), "num")), PropertyAccessOnNonMap},
		{"property: of a node (the engine's)", r(Property(nd(1), "num")), PropertyAccessOnNonMap},
	})
}
