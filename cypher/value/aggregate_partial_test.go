package value

import (
	"math/rand/v2"
	"testing"
)

// TestPartialAggregates folds random values, nulls among them, once whole
// and once in shares of every size (empty ones too), merging the shares'
// states, and requires the same result.
func TestPartialAggregates(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, name := range []string{"count", "sum", "avg", "min", "max", "collect", "*"} {
		for trial := range 200 {
			vs := randomValues(rng, trial%2 == 0)
			whole := newAgg(t, name)
			for _, v := range vs {
				must(t, whole.Add(v))
			}
			merged := newAgg(t, name).(Partial)
			for _, share := range cut(rng, vs) {
				part := newAgg(t, name)
				for _, v := range share {
					must(t, part.Add(v))
				}
				must(t, merged.Merge(part.(Partial).State()))
			}
			if w, m := whole.Result(), merged.Result(); !sameResult(w, m) {
				t.Fatalf("%s of %v: whole %v, merged shares %v", name, vs, w, m)
			}
		}
	}
}

// TestNotPartial: a value of a DISTINCT aggregate may be in several
// shares, so no DISTINCT aggregate is Partial; nor are those with no
// mergeable state.
func TestNotPartial(t *testing.T) {
	for _, c := range []struct {
		name     string
		distinct bool
	}{{"count", true}, {"collect", true}, {"sum", true}, {"stDev", false}, {"percentileDisc", false}} {
		a, err := NewAggregate(c.name, c.distinct)
		must(t, err)
		if _, ok := a.(Partial); ok {
			t.Errorf("%s (distinct %v) is Partial", c.name, c.distinct)
		}
	}
	if err := NewCountStar().(Partial).Merge(Str("x")); err == nil {
		t.Error("count(*) merged a string state")
	}
}

func newAgg(t *testing.T, name string) Aggregate {
	if name == "*" {
		return NewCountStar()
	}
	a, err := NewAggregate(name, false)
	must(t, err)
	return a
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// randomValues are up to 20 small integers, or floats, and nulls.
func randomValues(rng *rand.Rand, floats bool) []Value {
	vs := make([]Value, rng.IntN(21))
	for i := range vs {
		switch {
		case rng.IntN(5) == 0:
			vs[i] = Null
		case floats:
			vs[i] = Float(float64(rng.IntN(64)) / 4) // exact in binary: sums do not round
		default:
			vs[i] = Int(rng.Int64N(1000) - 500)
		}
	}
	return vs
}

// cut splits vs, in order, into up to 4 shares, some maybe empty.
func cut(rng *rand.Rand, vs []Value) [][]Value {
	var out [][]Value
	for range rng.IntN(4) {
		n := rng.IntN(len(vs) + 1)
		out, vs = append(out, vs[:n]), vs[n:]
	}
	return append(out, vs)
}

// sameResult is equality, with floats (avg's mean) equal to 1e-9.
func sameResult(a, b Value) bool {
	if a.Kind() == KindFloat && b.Kind() == KindFloat {
		d := a.Float() - b.Float()
		return d < 1e-9 && d > -1e-9
	}
	return Equivalent(a, b)
}
