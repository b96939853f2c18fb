package value

import (
	"errors"
	"math"
	"testing"
)

// Shorthands for building values in tables.
var (
	T   = Bool(true)
	F   = Bool(false)
	N   = Null
	NaN = Float(math.NaN())
	Inf = Float(math.Inf(1))
)

func I(i int64) Value   { return Int(i) }
func D(f float64) Value { return Float(f) }
func S(s string) Value  { return Str(s) }
func L(vs ...Value) Value {
	if vs == nil {
		vs = []Value{}
	}
	return NewList(vs)
}

// M builds a map from alternating keys and values: M("a", I(1)).
func M(kv ...any) Value {
	m := map[string]Value{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1].(Value)
	}
	return NewMap(m)
}

func nd(id NodeID) Value { return NodeValue(Node{ID: id}) }

func rl(id uint64, start, end NodeID) Value {
	return RelValue(Relationship{ID: RelID{id, 0}, Start: start, End: end})
}

// pth builds a path from alternating node IDs and relationships: pth(1,
// rl(7, 1, 2), 2).
func pth(t testing.TB, elems ...any) Value {
	t.Helper()
	var nodes []Node
	var rels []Relationship
	for i, e := range elems {
		if i%2 == 0 {
			nodes = append(nodes, Node{ID: NodeID(e.(int))})
		} else {
			rels = append(rels, e.(Value).Relationship())
		}
	}
	p, err := NewPath(nodes, rels)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// out is the result of an operation: a value or an error.
type out struct {
	v   Value
	err error
}

func r(v Value, err error) out { return out{v, err} }
func ok(v Value) out           { return out{v: v} }

// approx is a wanted Float known to within a relative 1e-12 (for results
// whose last bit may depend on the platform's fused multiply-add).
type approx float64

// row is one rule of a table: got must be want, a Value or an approx, or
// fail with want, a Detail.
type row struct {
	rule string
	got  out
	want any
}

func check(t *testing.T, rows []row) {
	t.Helper()
	for _, rw := range rows {
		switch w := rw.want.(type) {
		case Detail:
			var e *Error
			if !errors.As(rw.got.err, &e) || e.Detail != w {
				t.Errorf("%s: got %v, %v; want error %s", rw.rule, rw.got.v, rw.got.err, w)
			}
		case approx:
			g := rw.got.v
			if rw.got.err != nil || g.kind != KindFloat || math.Abs(g.f()-float64(w)) > 1e-12*math.Abs(float64(w)) {
				t.Errorf("%s: got %v, %v; want about %v", rw.rule, g, rw.got.err, float64(w))
			}
		case Value:
			if rw.got.err != nil || !same(rw.got.v, w) {
				t.Errorf("%s: got %v, %v; want %v", rw.rule, rw.got.v, rw.got.err, w)
			}
		default:
			t.Fatalf("%s: bad want %T", rw.rule, rw.want)
		}
	}
}

// same reports whether a and b are the same value: same kinds throughout
// (1 is not 1.0), floats bit for bit (but any NaN is NaN).
func same(a, b Value) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case KindFloat:
		return a.bits == b.bits || (a.isNaN() && b.isNaN())
	case KindList:
		x, y := a.List(), b.List()
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if !same(x[i], y[i]) {
				return false
			}
		}
		return true
	case KindMap:
		x, y := a.Map(), b.Map()
		if !sameKeys(x, y) {
			return false
		}
		for i := 0; i < x.Len(); i++ {
			if !same(x.val(i), y.val(i)) {
				return false
			}
		}
		return true
	}
	return Equivalent(a, b)
}
