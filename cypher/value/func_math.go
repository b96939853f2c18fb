package value

import (
	"cmp"
	"math"
	"strconv"
	"strings"
)

// Mathematical functions: abs and sign keep Integers Integers (sign of a
// Float is an Integer too); ceil, floor and round always return a Float;
// the others convert their argument to a Float. Domain errors give NaN or
// an infinity, as IEEE 754 does (sqrt(-1) is NaN, log(0) is -Infinity).
func init() {
	register("abs", 1, 1, abs)
	register("sign", 1, 1, signFn)
	register("round", 1, 2, round)
	register("e", 0, 0, func([]Value) (Value, error) { return Float(math.E), nil })
	register("pi", 0, 0, func([]Value) (Value, error) { return Float(math.Pi), nil })
	register("atan2", 2, 2, atan2)
	for name, f := range map[string]func(float64) float64{
		"ceil": math.Ceil, "floor": math.Floor, "sqrt": math.Sqrt,
		"exp": math.Exp, "log": math.Log, "log10": math.Log10,
		"sin": math.Sin, "cos": math.Cos, "tan": math.Tan,
		"asin": math.Asin, "acos": math.Acos, "atan": math.Atan,
		"cot":      func(x float64) float64 { return 1 / math.Tan(x) },
		"degrees":  func(x float64) float64 { return x * 180 / math.Pi },
		"radians":  func(x float64) float64 { return x * math.Pi / 180 },
		"haversin": func(x float64) float64 { return (1 - math.Cos(x)) / 2 },
	} {
		register(name, 1, 1, floatFunc(name, f))
	}
}

func floatFunc(name string, f func(float64) float64) func([]Value) (Value, error) {
	return func(args []Value) (Value, error) {
		if !args[0].IsNumber() {
			return Null, argError(name, args[0])
		}
		return Float(f(args[0].Float())), nil
	}
}

func abs(args []Value) (Value, error) {
	x := args[0]
	switch x.kind {
	case KindInteger:
		if x.Int() < 0 {
			return Neg(x)
		}
		return x, nil
	case KindFloat:
		return Float(math.Abs(x.f())), nil
	}
	return Null, argError("abs", x)
}

func signFn(args []Value) (Value, error) {
	x := args[0]
	switch x.kind {
	case KindInteger:
		return Int(int64(cmp.Compare(x.Int(), 0))), nil
	case KindFloat:
		if x.isNaN() {
			return Int(0), nil
		}
		return Int(int64(cmp.Compare(x.f(), 0))), nil
	}
	return Null, argError("sign", x)
}

func atan2(args []Value) (Value, error) {
	for _, a := range args {
		if !a.IsNumber() {
			return Null, argError("atan2", a)
		}
	}
	return Float(math.Atan2(args[0].Float(), args[1].Float())), nil
}

// round(x) rounds to the nearest integer, halves away from zero
// (round(-1.5) is -2.0); round(x, p) keeps p decimals, rounding the
// shortest decimal form of x half away from zero (round(2.675, 2) is 2.68).
func round(args []Value) (Value, error) {
	if !args[0].IsNumber() {
		return Null, argError("round", args[0])
	}
	p := int64(0)
	if len(args) == 2 {
		var err error
		if p, err = intArg("round", args[1]); err != nil {
			return Null, err
		}
	}
	return Float(roundHalfUp(args[0].Float(), p)), nil
}

func roundHalfUp(x float64, p int64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) || x == 0 {
		return x
	}
	// |x| = 0.d1d2d3… × 10^(exp+1); keep the first exp+1+p digits.
	mant, expStr, _ := strings.Cut(strconv.FormatFloat(math.Abs(x), 'e', -1, 64), "e")
	exp, _ := strconv.Atoi(expStr)
	digits := strings.Replace(mant, ".", "", 1)
	keep := int64(exp) + 1 + p
	switch {
	case keep >= int64(len(digits)):
		return x
	case keep < 0:
		return math.Copysign(0, x)
	}
	n, _ := strconv.ParseUint("0"+digits[:keep], 10, 64)
	if digits[keep] >= '5' {
		n++
	}
	r, _ := strconv.ParseFloat(strconv.FormatUint(n, 10)+"e"+strconv.FormatInt(int64(exp)+1-keep, 10), 64)
	return math.Copysign(r, x)
}
