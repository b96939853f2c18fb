package value

import (
	"math"
	"testing"
)

// agg folds vs with name (DISTINCT if distinct).
func agg(t *testing.T, name string, distinct bool, vs ...Value) out {
	t.Helper()
	a, err := NewAggregate(name, distinct)
	if err != nil {
		return out{err: err}
	}
	for _, v := range vs {
		if err := a.Add(v); err != nil {
			return out{err: err}
		}
	}
	return ok(a.Result())
}

// pct folds (v, p) pairs with a percentile aggregate.
func pct(t *testing.T, name string, distinct bool, p Value, vs ...Value) out {
	t.Helper()
	a, err := NewAggregate(name, distinct)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		if err := a.(BinaryAggregate).AddWith(v, p); err != nil {
			return out{err: err}
		}
	}
	return ok(a.Result())
}

func TestAggregates(t *testing.T) {
	mixed := []Value{I(1), S("a"), N, L(I(1), I(2)), D(0.2), S("b")}
	check(t, []row{
		// count
		{"count: skips null", agg(t, "count", false, I(1), N, I(1)), I(2)},
		{"count: empty", agg(t, "count", false), I(0)},
		{"count: DISTINCT", agg(t, "COUNT", true, I(1), D(1), I(2), N), I(2)},
		{"count: DISTINCT of nulls", agg(t, "count", true, N, N), I(0)},
		// sum
		{"sum: integers stay integers", agg(t, "sum", false, I(33), N, I(42)), I(75)},
		{"sum: empty is 0", agg(t, "sum", false), I(0)},
		{"sum: mixed becomes a float", agg(t, "sum", false, I(1), D(0.5), I(2)), D(3.5)},
		{"sum: integer overflow", agg(t, "sum", false, I(math.MaxInt64), I(1)), IntegerOverflow},
		{"sum: no overflow over 3000 values (TCK Aggregation3 [2])", agg(t, "sum", false, rangeValues(1000000, 1002999)...), I(3004498500)},
		{"sum: DISTINCT", agg(t, "sum", true, I(1), I(1), I(2)), I(3)},
		{"sum: string", agg(t, "sum", false, S("a")), InvalidArgumentValue},
		// avg
		{"avg: of integers is a float", agg(t, "avg", false, I(1), I(2)), D(1.5)},
		{"avg: skips null", agg(t, "avg", false, I(1), N, I(3)), D(2)},
		{"avg: empty is null", agg(t, "avg", false, N), N},
		{"avg: string", agg(t, "avg", false, S("a")), InvalidArgumentValue},
		// min and max (TCK Aggregation2)
		{"max: integers", agg(t, "max", false, I(1), I(2), I(0), N, I(-1)), I(2)},
		{"min: integers", agg(t, "min", false, I(1), I(2), I(0), N, I(-1)), I(-1)},
		{"max: floats", agg(t, "max", false, D(1), D(2), D(0.5), N), D(2)},
		{"min: floats", agg(t, "min", false, D(1), D(2), D(0.5), N), D(0.5)},
		{"max: mixed numbers", agg(t, "max", false, I(1), D(2), I(5), N, D(3.2), D(0.1)), I(5)},
		{"min: mixed numbers", agg(t, "min", false, I(1), D(2), I(5), N, D(3.2), D(0.1)), D(0.1)},
		{"max: strings", agg(t, "max", false, S("a"), S("b"), S("B"), N, S("abc"), S("abc1")), S("b")},
		{"min: strings", agg(t, "min", false, S("a"), S("b"), S("B"), N, S("abc"), S("abc1")), S("B")},
		{"max: lists", agg(t, "max", false, L(I(1)), L(I(2)), L(I(2), I(1))), L(I(2), I(1))},
		{"min: lists", agg(t, "min", false, L(I(1)), L(I(2)), L(I(2), I(1))), L(I(1))},
		{"max: mixed types", agg(t, "max", false, mixed...), I(1)},
		{"min: mixed types", agg(t, "min", false, mixed...), L(I(1), I(2))},
		{"max: empty is null", agg(t, "max", false, N), N},
		// collect (TCK Aggregation5, Aggregation8)
		{"collect: skips null", agg(t, "collect", false, N, I(1), N, I(1)), L(I(1), I(1))},
		{"collect: empty", agg(t, "collect", false), L()},
		{"collect: DISTINCT nulls", agg(t, "collect", true, N, N), L()},
		{"collect: DISTINCT mixed with nulls", agg(t, "collect", true, N, I(1), N), L(I(1))},
		{"collect: DISTINCT by equivalence", agg(t, "collect", true, I(1), D(1), NaN, NaN, L(N), L(N)), L(I(1), NaN, L(N))},
		// standard deviation
		{"stDev: sample", agg(t, "stDev", false, I(2), I(4), I(4), I(4), I(5), I(5), I(7), I(9)), approx(math.Sqrt(32.0 / 7))},
		{"stDevP: population", agg(t, "stDevP", false, I(2), I(4), I(4), I(4), I(5), I(5), I(7), I(9)), approx(2)},
		{"stDev: one value", agg(t, "stDev", false, I(3)), D(0)},
		{"stDevP: empty", agg(t, "stDevP", false), D(0)},
		// unknown
		{"unknown aggregate", agg(t, "median", false), UnknownFunction},
	})
}

func rangeValues(from, to int64) []Value {
	var vs []Value
	for i := from; i <= to; i++ {
		vs = append(vs, I(i))
	}
	return vs
}

func TestCountStar(t *testing.T) {
	a := NewCountStar()
	for _, v := range []Value{N, I(1), N} {
		if err := a.Add(v); err != nil {
			t.Fatal(err)
		}
	}
	if !same(a.Result(), I(3)) {
		t.Errorf("count(*) counts rows, nulls included: got %v", a.Result())
	}
}

func TestPercentiles(t *testing.T) {
	prices := []Value{D(10), D(20), D(30)}
	check(t, []row{
		// TCK Aggregation6 [1], [2]
		{"percentileDisc 0.0", pct(t, "percentileDisc", false, D(0), prices...), D(10)},
		{"percentileDisc 0.5", pct(t, "percentileDisc", false, D(0.5), prices...), D(20)},
		{"percentileDisc 1.0", pct(t, "percentileDisc", false, D(1), prices...), D(30)},
		{"percentileDisc keeps integers", pct(t, "percentileDisc", false, D(0.5), I(3), I(1), I(2), I(4)), I(2)},
		{"percentileCont 0.0", pct(t, "percentileCont", false, D(0), prices...), D(10)},
		{"percentileCont 0.5", pct(t, "percentileCont", false, D(0.5), prices...), D(20)},
		{"percentileCont 1.0", pct(t, "percentileCont", false, D(1), prices...), D(30)},
		{"percentileCont interpolates", pct(t, "percentileCont", false, D(0.25), prices...), approx(15)},
		{"percentileCont of integers is a float", pct(t, "percentileCont", false, D(0.5), I(1), I(2)), D(1.5)},
		{"percentiles skip nulls", pct(t, "percentileDisc", false, D(0.5), N, I(7), N), I(7)},
		{"percentiles of nothing are null", pct(t, "percentileCont", false, D(0.5), N), N},
		{"percentile DISTINCT", pct(t, "percentileCont", true, D(0.5), I(1), I(1), I(1), I(3)), D(2)},
		// TCK Aggregation6 [3], [4], [5]
		{"percentile 1000", pct(t, "percentileCont", false, I(1000), D(10)), NumberOutOfRange},
		{"percentile -1", pct(t, "percentileDisc", false, I(-1), D(10)), NumberOutOfRange},
		{"percentile 1.1", pct(t, "percentileDisc", false, D(1.1), D(10)), NumberOutOfRange},
		{"percentile NaN", pct(t, "percentileDisc", false, NaN, D(10)), NumberOutOfRange},
		{"percentile checked on null values too", pct(t, "percentileDisc", true, I(3), N), NumberOutOfRange},
		{"percentile of a string", pct(t, "percentileDisc", false, S("a"), D(10)), InvalidArgumentValue},
		{"percentile over strings", pct(t, "percentileDisc", false, D(0.5), S("a")), InvalidArgumentValue},
		{"percentile with one argument", agg(t, "percentileDisc", false, D(1)), InvalidNumberOfArguments},
	})
	if !IsAggregate("PercentileCont") || IsAggregate("abs") {
		t.Error("IsAggregate")
	}
}
