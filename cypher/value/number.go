package value

import (
	"cmp"
	"math"
)

// Numbers: Integer (int64) and Float (float64) form one ordered domain in
// which they are compared by their exact mathematical values (1 = 1.0, and
// 2^53+1 > 2^53 as a Float), with NaN apart: NaN is equal to nothing and
// unordered in comparisons, but sorts after every other number.

// f returns the float64 of a Float value.
func (v Value) f() float64 { return math.Float64frombits(v.bits) }

// isNaN reports whether v is a Float NaN.
func (v Value) isNaN() bool { return v.kind == KindFloat && math.IsNaN(v.f()) }

// cmpNumbers compares two numbers, neither of them NaN, exactly.
func cmpNumbers(a, b Value) int {
	switch {
	case a.kind == KindInteger && b.kind == KindInteger:
		return cmp.Compare(a.Int(), b.Int())
	case a.kind == KindInteger:
		return cmpIntFloat(a.Int(), b.f())
	case b.kind == KindInteger:
		return -cmpIntFloat(b.Int(), a.f())
	}
	return cmp.Compare(a.f(), b.f())
}

// cmpIntFloat compares i with a non-NaN f without rounding i to a float.
func cmpIntFloat(i int64, f float64) int {
	const two63 = 9223372036854775808.0
	switch {
	case f >= two63:
		return -1
	case f < -two63:
		return 1
	}
	t := math.Trunc(f)
	if c := cmp.Compare(i, int64(t)); c != 0 {
		return c
	}
	return cmp.Compare(0, f-t)
}

// floatToInt returns the int64 equal to f, if there is one.
func floatToInt(f float64) (int64, bool) {
	const two63 = 9223372036854775808.0
	if f != math.Trunc(f) || f >= two63 || f < -two63 {
		return 0, false // also NaN and the infinities
	}
	return int64(f), true
}
