package value

import "strings"

// Aggregating functions. An Aggregate folds the values of one group: the
// engine creates one per group and aggregating call, Adds the argument of
// every row of the group and reads Result at the end. Null values are
// skipped by every aggregate except count(*), which counts rows. With
// DISTINCT, values equivalent to one already added are skipped too (see
// Equivalent).
//
// Results on a group with no (non-null) values: count 0, sum 0, avg null,
// min and max null, collect [], stDev and stDevP 0.0, percentiles null.
type Aggregate interface {
	Add(v Value) error
	Result() Value
}

// BinaryAggregate is an aggregate of two arguments, percentileDisc(v, p)
// and percentileCont(v, p): AddWith adds v with the row's p; Add fails.
type BinaryAggregate interface {
	Aggregate
	AddWith(v, arg Value) error
}

var aggregates = map[string]func() Aggregate{
	"count":          func() Aggregate { return &count{} },
	"sum":            func() Aggregate { return &sum{} },
	"avg":            func() Aggregate { return &avg{} },
	"min":            func() Aggregate { return &extreme{want: -1} },
	"max":            func() Aggregate { return &extreme{want: 1} },
	"collect":        func() Aggregate { return &collect{list: []Value{}} },
	"stdev":          func() Aggregate { return &stDev{sample: true} },
	"stdevp":         func() Aggregate { return &stDev{} },
	"percentiledisc": func() Aggregate { return &percentile{name: "percentileDisc"} },
	"percentilecont": func() Aggregate { return &percentile{name: "percentileCont", cont: true} },
}

// IsAggregate reports whether name is an aggregating function NewAggregate
// knows (count, sum, avg, min, max, collect, stDev, stDevP, percentileDisc,
// percentileCont), in any case.
func IsAggregate(name string) bool {
	_, ok := aggregates[strings.ToLower(name)]
	return ok
}

// NewAggregate returns a new aggregate for name(…) or, with distinct,
// name(DISTINCT …). An unknown name raises SyntaxError (UnknownFunction).
// count(*) is NewCountStar.
func NewAggregate(name string, distinct bool) (Aggregate, error) {
	mk, ok := aggregates[strings.ToLower(name)]
	if !ok {
		return nil, newError(SyntaxError, UnknownFunction, "unknown aggregating function %s", name)
	}
	a := mk()
	if !distinct {
		return a, nil
	}
	d := distinctOf{inner: a, seen: map[string]struct{}{}}
	if b, ok := a.(BinaryAggregate); ok {
		return &distinctBinary{distinctOf: d, inner: b}, nil
	}
	return &d, nil
}

// NewCountStar returns the aggregate of count(*), which counts every Add,
// nulls included.
func NewCountStar() Aggregate { return &countStar{} }

// distinctOf passes each non-null value to inner once, up to equivalence.
type distinctOf struct {
	inner Aggregate
	seen  map[string]struct{}
}

// first reports whether v is non-null and not seen before, and marks it.
func (d *distinctOf) first(v Value) bool {
	if v.IsNull() {
		return false
	}
	k := Key(v)
	if _, dup := d.seen[k]; dup {
		return false
	}
	d.seen[k] = struct{}{}
	return true
}

func (d *distinctOf) Add(v Value) error {
	if !d.first(v) {
		return nil
	}
	return d.inner.Add(v)
}

func (d *distinctOf) Result() Value { return d.inner.Result() }

type distinctBinary struct {
	distinctOf
	inner BinaryAggregate
}

func (d *distinctBinary) AddWith(v, arg Value) error {
	if err := d.inner.AddWith(Null, arg); err != nil { // check arg on every row
		return err
	}
	if !d.first(v) {
		return nil
	}
	return d.inner.AddWith(v, arg)
}

type count struct{ n int64 }

func (c *count) Add(v Value) error {
	if !v.IsNull() {
		c.n++
	}
	return nil
}

func (c *count) Result() Value { return Int(c.n) }

type countStar struct{ n int64 }

func (c *countStar) Add(Value) error { c.n++; return nil }
func (c *countStar) Result() Value   { return Int(c.n) }
