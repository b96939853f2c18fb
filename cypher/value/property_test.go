package value

import (
	"cmp"
	"math"
	"math/rand/v2"
	"testing"
)

// gen makes random values of every kind, from small domains so that ties,
// shared prefixes and int/float collisions are frequent.
type gen struct{ r *rand.Rand }

func (g gen) value(depth int) Value {
	k := g.r.IntN(12)
	if depth <= 0 && k >= 8 {
		k = g.r.IntN(8)
	}
	switch k {
	case 0:
		return Null
	case 1:
		return Bool(g.r.IntN(2) == 0)
	case 2:
		return Int(int64(g.r.IntN(5)) - 2)
	case 3:
		return Float(g.float())
	case 4:
		return Str([]string{"", "a", "ab", "b", "B", "é"}[g.r.IntN(6)])
	case 5:
		return nd(NodeID(g.r.IntN(3)))
	case 6:
		return rl(uint64(g.r.IntN(3)), 1, 2)
	case 7:
		return Int([]int64{math.MinInt64, math.MaxInt64, 1 << 53, 1<<53 + 1}[g.r.IntN(4)])
	case 8, 9:
		l := make([]Value, g.r.IntN(4))
		for i := range l {
			l[i] = g.value(depth - 1)
		}
		return NewList(l)
	case 10:
		m := map[string]Value{}
		for range g.r.IntN(3) {
			m[[]string{"a", "b", "c"}[g.r.IntN(3)]] = g.value(depth - 1)
		}
		return NewMap(m)
	}
	return g.path()
}

func (g gen) float() float64 {
	return []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1),
		-2, -1.5, 1, 2, 0.5, 1 << 53, math.Exp2(63), -math.Exp2(63)}[g.r.IntN(13)]
}

func (g gen) path() Value {
	n := g.r.IntN(3)
	nodes := []Node{{NodeID(g.r.IntN(2))}}
	var rels []Relationship
	for range n {
		next := NodeID(g.r.IntN(2))
		rels = append(rels, Relationship{ID: RelID{uint64(g.r.IntN(2))}, Start: nodes[len(nodes)-1].ID, End: next})
		nodes = append(nodes, Node{next})
	}
	p, _ := NewPath(nodes, rels)
	return p
}

func (g gen) values(n int) []Value {
	vs := make([]Value, n)
	for i := range vs {
		vs[i] = g.value(3)
	}
	return vs
}

func sgn(c int) int { return cmp.Compare(int64(c), 0) }

// TestCompareIsATotalOrder checks on random values of mixed types that
// Compare is reflexive, antisymmetric and transitive, and that its ties are
// exactly the equivalences.
func TestCompareIsATotalOrder(t *testing.T) {
	g := gen{rand.New(rand.NewPCG(1, 2))}
	vs := g.values(150)
	for _, a := range vs {
		if Compare(a, a) != 0 {
			t.Fatalf("reflexive: Compare(%v, %v) != 0", a, a)
		}
		for _, b := range vs {
			ab := Compare(a, b)
			if sgn(ab) != -sgn(Compare(b, a)) {
				t.Fatalf("antisymmetric: Compare(%v, %v) = %d, reverse %d", a, b, ab, Compare(b, a))
			}
			if (ab == 0) != Equivalent(a, b) || (ab == 0) != (Key(a) == Key(b)) {
				t.Fatalf("ties are equivalences: Compare(%v, %v) = %d, Equivalent %v, keys %q %q",
					a, b, ab, Equivalent(a, b), Key(a), Key(b))
			}
			for _, c := range vs {
				if ab <= 0 && Compare(b, c) <= 0 && Compare(a, c) > 0 {
					t.Fatalf("transitive: %v <= %v <= %v but Compare(a, c) > 0", a, b, c)
				}
			}
		}
	}
}

// hasNaN reports whether v holds a NaN anywhere.
func hasNaN(v Value) bool {
	switch v.kind {
	case KindFloat:
		return v.isNaN()
	case KindList:
		for _, e := range v.List() {
			if hasNaN(e) {
				return true
			}
		}
	case KindMap:
		for _, e := range v.Map().All() {
			if hasNaN(e) {
				return true
			}
		}
	}
	return false
}

// TestOperatorsAgreeWithCompare checks that where = and < give an answer,
// the total order agrees with it.
func TestOperatorsAgreeWithCompare(t *testing.T) {
	g := gen{rand.New(rand.NewPCG(3, 4))}
	vs := g.values(300)
	for _, a := range vs {
		for _, b := range vs {
			c := Compare(a, b)
			eq := Equal(a, b)
			switch {
			case eq.IsTrue() && c != 0:
				t.Fatalf("%v = %v but Compare = %d", a, b, c)
			case eq.kind == KindBoolean && !eq.Bool() && c == 0 && !hasNaN(a):
				t.Fatalf("%v <> %v but Compare = 0", a, b)
			}
			if Less(a, b).IsTrue() && c >= 0 || Greater(a, b).IsTrue() && c <= 0 {
				t.Fatalf("%v < %v is %v, > is %v, but Compare = %d", a, b, Less(a, b), Greater(a, b), c)
			}
			if LessEq(a, b).IsTrue() && c > 0 || GreaterEq(a, b).IsTrue() && c < 0 {
				t.Fatalf("%v <= %v is %v, >= is %v, but Compare = %d", a, b, LessEq(a, b), GreaterEq(a, b), c)
			}
			if lt, ge := Less(a, b), GreaterEq(a, b); lt.IsNull() != ge.IsNull() || (!lt.IsNull() && !hasNaN(a) && !hasNaN(b) && lt.Bool() == ge.Bool()) {
				t.Fatalf("%v < %v is %v but >= is %v", a, b, lt, ge)
			}
		}
	}
}
