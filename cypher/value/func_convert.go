package value

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Conversion functions. A string that does not hold a value of the target
// type converts to null; values of types that have no conversion (lists,
// maps, graph elements, and Floats for toBoolean, Booleans for toFloat)
// raise TypeError (InvalidArgumentValue).
func init() {
	register("toInteger", 1, 1, toInteger)
	register("toFloat", 1, 1, toFloat)
	register("toString", 1, 1, toStringFn)
	register("toBoolean", 1, 1, toBoolean)
}

// decimal is the syntax of a number in a string: optional sign, digits
// with an optional fraction, optional exponent; surrounding white space is
// trimmed before matching.
var decimal = regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$`)

// parseNumber parses a string as toInteger and toFloat read it.
func parseNumber(s string) (Value, bool) {
	s = strings.TrimSpace(s)
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return Int(i), true
	}
	if !decimal.MatchString(s) {
		return Null, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !math.IsInf(f, 0) {
		return Null, false
	}
	return Float(f), true
}

// toInteger: Integers unchanged; Floats truncated toward zero (NaN, the
// infinities and Floats beyond int64 raise ArgumentError
// (NumberOutOfRange)); strings parsed as numbers, then truncated (null if
// not a number or beyond int64); true is 1 and false 0.
func toInteger(args []Value) (Value, error) {
	x := args[0]
	switch x.kind {
	case KindInteger:
		return x, nil
	case KindFloat:
		if i, ok := floatToInt(math.Trunc(x.f())); ok {
			return Int(i), nil
		}
		return Null, rangeError("toInteger", "%s has no Integer value", x)
	case KindBoolean:
		return Int(int64(x.bits)), nil
	case KindString:
		n, ok := parseNumber(x.Str())
		if !ok || n.kind == KindInteger {
			return n, nil
		}
		if i, ok := floatToInt(math.Trunc(n.f())); ok {
			return Int(i), nil
		}
		return Null, nil
	}
	return Null, argError("toInteger", x)
}

// toFloat: numbers as Floats; strings parsed (null if not a number).
func toFloat(args []Value) (Value, error) {
	x := args[0]
	switch x.kind {
	case KindInteger, KindFloat:
		return Float(x.Float()), nil
	case KindString:
		n, ok := parseNumber(x.Str())
		if !ok {
			return Null, nil
		}
		return Float(n.Float()), nil
	}
	return Null, argError("toFloat", x)
}

// toString: strings unchanged; numbers and Booleans written as literals
// (1, 1.5, 1.0, 1e21, NaN, Infinity, true).
func toStringFn(args []Value) (Value, error) {
	x := args[0]
	switch x.kind {
	case KindString:
		return x, nil
	case KindInteger, KindFloat, KindBoolean:
		return Str(scalarString(x)), nil
	}
	return Null, argError("toString", x)
}

// toBoolean: Booleans unchanged; 'true' and 'false' in any case, white
// space trimmed, and null for other strings; Integers true unless 0.
func toBoolean(args []Value) (Value, error) {
	x := args[0]
	switch x.kind {
	case KindBoolean:
		return x, nil
	case KindInteger:
		return Bool(x.Int() != 0), nil
	case KindString:
		switch strings.ToLower(strings.TrimSpace(x.Str())) {
		case "true":
			return Bool(true), nil
		case "false":
			return Bool(false), nil
		}
		return Null, nil
	}
	return Null, argError("toBoolean", x)
}
