package value

import (
	"math"
	"slices"
)

// min and max pick the least and the greatest value in the order of
// ORDER BY (see Compare), across types: max of [1, 'a', [1]] is 1.
type extreme struct {
	want int // -1 for min, +1 for max
	best Value
}

func (e *extreme) Add(v Value) error {
	if !v.IsNull() && (e.best.IsNull() || Compare(v, e.best) == e.want) {
		e.best = v
	}
	return nil
}

func (e *extreme) Result() Value { return e.best }

// collect lists the values in the order added.
type collect struct{ list []Value }

func (c *collect) Add(v Value) error {
	if !v.IsNull() {
		c.list = append(c.list, v)
	}
	return nil
}

func (c *collect) Result() Value { return NewList(slices.Clone(c.list)) }

// percentile is percentileDisc (cont false) or percentileCont. The
// percentile p must be a number in [0, 1], checked on every row
// (ArgumentError (NumberOutOfRange) otherwise); the last one is used.
type percentile struct {
	name   string
	cont   bool
	p      float64
	values []Value
}

func (q *percentile) Add(Value) error {
	return newError(SyntaxError, InvalidNumberOfArguments, "%s takes 2 arguments", q.name)
}

func (q *percentile) AddWith(v, p Value) error {
	if !p.IsNumber() {
		return argError(q.name, p)
	}
	if f := p.Float(); !(f >= 0 && f <= 1) {
		return rangeError(q.name, "percentile %s is not between 0.0 and 1.0", p)
	}
	q.p = p.Float()
	if v.IsNull() {
		return nil
	}
	if err := numberArg(q.name, v); err != nil {
		return err
	}
	q.values = append(q.values, v)
	return nil
}

// Result: percentileDisc returns the value at rank ceil(p·n) (the first
// for p = 0); percentileCont interpolates linearly between the values
// around position p·(n-1) and returns a Float.
func (q *percentile) Result() Value {
	n := len(q.values)
	if n == 0 {
		return Null
	}
	s := slices.Clone(q.values)
	slices.SortFunc(s, Compare)
	if !q.cont {
		i := max(int(math.Ceil(q.p*float64(n)))-1, 0)
		return s[i]
	}
	pos := q.p * float64(n-1)
	lo, hi := int(math.Floor(pos)), int(math.Ceil(pos))
	a, b := s[lo].Float(), s[hi].Float()
	return Float(a + (b-a)*(pos-float64(lo)))
}
