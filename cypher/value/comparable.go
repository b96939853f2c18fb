package value

import "strings"

// Comparability, the operators < <= > >= (openCypher CIP2016-06-14). The
// result is a Boolean or null:
//
//   - null if either side is null, or if the two sides are of different
//     types (1 < 'a') — Integer and Float are one type here;
//   - numbers by value; NaN compared with a number is false both ways
//     (NaN < 1, NaN >= NaN are false);
//   - strings lexicographically by code point, booleans with false < true;
//   - lists lexicographically: the first pair of elements that are not
//     equal decides, by comparing them (null if that is null or
//     incomparable); a list that is a prefix of the other is smaller
//     ([1, null] >= [1] is true, [1, 2] >= [1, null] is null);
//   - maps, nodes, relationships and paths are not comparable: null.

type order int8

const (
	less order = iota - 1
	equal
	greater
	unordered // NaN: every comparison is false
	unknown   // null: every comparison is null
)

func sign(c int) order {
	switch {
	case c < 0:
		return less
	case c > 0:
		return greater
	}
	return equal
}

// compare3 compares a and b under comparability.
func compare3(a, b Value) order {
	switch {
	case a.IsNull() || b.IsNull():
		return unknown
	case a.IsNumber() && b.IsNumber():
		if a.isNaN() || b.isNaN() {
			return unordered
		}
		return sign(cmpNumbers(a, b))
	case a.kind != b.kind:
		return unknown
	}
	switch a.kind {
	case KindString:
		return sign(strings.Compare(a.Str(), b.Str()))
	case KindBoolean:
		return sign(int(a.bits) - int(b.bits))
	case KindList:
		return compareLists3(a.List(), b.List())
	}
	return unknown
}

func compareLists3(a, b []Value) order {
	for i := 0; i < min(len(a), len(b)); i++ {
		switch e := Equal(a[i], b[i]); {
		case e.IsTrue():
			continue
		case e.IsNull():
			return unknown
		}
		return compare3(a[i], b[i])
	}
	return sign(len(a) - len(b))
}

func decide(a, b Value, holds func(order) bool) Value {
	switch o := compare3(a, b); o {
	case unknown:
		return Null
	case unordered:
		return Bool(false)
	default:
		return Bool(holds(o))
	}
}

// Less returns a < b.
func Less(a, b Value) Value {
	return decide(a, b, func(o order) bool { return o == less })
}

// LessEq returns a <= b.
func LessEq(a, b Value) Value {
	return decide(a, b, func(o order) bool { return o != greater })
}

// Greater returns a > b.
func Greater(a, b Value) Value {
	return decide(a, b, func(o order) bool { return o == greater })
}

// GreaterEq returns a >= b.
func GreaterEq(a, b Value) Value {
	return decide(a, b, func(o order) bool { return o != less })
}
