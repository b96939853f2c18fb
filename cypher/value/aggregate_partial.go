package value

// Partial is an aggregate that can be computed in parts, each over a share
// of a group's rows, as a query spread over several processes does: each
// part folds its share, its State travels as a Value, and one aggregate
// Merges the States of all the parts. Result is then that of one
// aggregate over all the rows, but for the order of collect's list and
// the rounding of floats.
//
// count, count(*), sum, avg, min, max and collect are Partial; an
// aggregate with DISTINCT is not (a value may be in several shares), nor
// are stDev, stDevP and the percentiles.
type Partial interface {
	Aggregate
	// State is the aggregate's state so far.
	State() Value
	// Merge folds the State of another aggregate of the same function.
	Merge(state Value) error
}

func (c *count) State() Value { return Int(c.n) }

func (c *count) Merge(s Value) error {
	n, err := intState(s)
	c.n += n
	return err
}

func (c *countStar) State() Value { return Int(c.n) }

func (c *countStar) Merge(s Value) error {
	n, err := intState(s)
	c.n += n
	return err
}

// The state of sum, min and max is their result, which Add takes.
func (s *sum) State() Value            { return s.Result() }
func (s *sum) Merge(state Value) error { return s.Add(state) }

func (e *extreme) State() Value            { return e.best }
func (e *extreme) Merge(state Value) error { return e.Add(state) }

// The state of avg is [n, mean].
func (a *avg) State() Value { return NewList([]Value{Int(a.n), Float(a.mean)}) }

func (a *avg) Merge(s Value) error {
	l := s.List()
	if s.Kind() != KindList || len(l) != 2 || l[0].Kind() != KindInteger || l[1].Kind() != KindFloat {
		return badState("avg", s)
	}
	n := l[0].Int()
	if n == 0 {
		return nil
	}
	a.n += n
	a.mean += (l[1].Float() - a.mean) * float64(n) / float64(a.n)
	return nil
}

// The state of collect is its list.
func (c *collect) State() Value { return c.Result() }

func (c *collect) Merge(s Value) error {
	if s.Kind() != KindList {
		return badState("collect", s)
	}
	c.list = append(c.list, s.List()...)
	return nil
}

func intState(s Value) (int64, error) {
	if s.Kind() != KindInteger {
		return 0, badState("count", s)
	}
	return s.Int(), nil
}

func badState(fn string, s Value) error {
	return newError(TypeError, InvalidArgumentValue, "%s: %s is not the state of a part of it", fn, s)
}
