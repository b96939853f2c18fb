package value

import "math"

// Numeric aggregates: sum, avg, stDev, stDevP. Their values must be
// numbers (TypeError (InvalidArgumentValue) otherwise).

func numberArg(fn string, v Value) error {
	if !v.IsNumber() {
		return argError(fn, v)
	}
	return nil
}

// sum stays an Integer while every value is one (overflow raises
// ArithmeticError (IntegerOverflow)) and becomes a Float from the first
// Float on.
type sum struct {
	isFloat bool
	i       int64
	f       float64
}

func (s *sum) Add(v Value) error {
	if v.IsNull() {
		return nil
	}
	if err := numberArg("sum", v); err != nil {
		return err
	}
	if v.kind == KindFloat && !s.isFloat {
		s.isFloat, s.f = true, float64(s.i)
	}
	if s.isFloat {
		s.f += v.Float()
		return nil
	}
	r, err := addInt(s.i, v.Int())
	s.i = r
	return err
}

func (s *sum) Result() Value {
	if s.isFloat {
		return Float(s.f)
	}
	return Int(s.i)
}

// avg is the mean as a Float, null for no values.
type avg struct {
	n    int64
	mean float64
}

func (a *avg) Add(v Value) error {
	if v.IsNull() {
		return nil
	}
	if err := numberArg("avg", v); err != nil {
		return err
	}
	a.n++
	a.mean += (v.Float() - a.mean) / float64(a.n)
	return nil
}

func (a *avg) Result() Value {
	if a.n == 0 {
		return Null
	}
	return Float(a.mean)
}

// stDev is the standard deviation, of a sample (stDev, dividing by n-1) or
// of a population (stDevP, dividing by n), by Welford's method.
type stDev struct {
	sample bool
	n      int64
	mean   float64
	m2     float64
}

func (s *stDev) Add(v Value) error {
	if v.IsNull() {
		return nil
	}
	if err := numberArg("stDev", v); err != nil {
		return err
	}
	x := v.Float()
	s.n++
	d := x - s.mean
	s.mean += d / float64(s.n)
	s.m2 += d * (x - s.mean)
	return nil
}

func (s *stDev) Result() Value {
	n := float64(s.n)
	if s.sample {
		n--
	}
	if n <= 0 {
		return Float(0)
	}
	return Float(math.Sqrt(s.m2 / n))
}
