package value

import "strings"

// In returns x IN list: true if some element equals x; otherwise null if
// some comparison was null (x is null and the list not empty, or the list
// holds a null or a value whose equality with x is unknown); otherwise
// false. A null list gives null; a list operand of another type raises
// TypeError (InvalidArgumentType).
func In(x, list Value) (Value, error) {
	switch list.kind {
	case KindNull:
		return Null, nil
	case KindList:
	default:
		return Null, operandError("IN", x, list)
	}
	unknown := false
	for _, e := range list.List() {
		switch r := Equal(x, e); {
		case r.IsTrue():
			return Bool(true), nil
		case r.IsNull():
			unknown = true
		}
	}
	if unknown {
		return Null, nil
	}
	return Bool(false), nil
}

// StartsWith returns a STARTS WITH b: null unless both are strings.
func StartsWith(a, b Value) Value { return stringPredicate(a, b, strings.HasPrefix) }

// EndsWith returns a ENDS WITH b: null unless both are strings.
func EndsWith(a, b Value) Value { return stringPredicate(a, b, strings.HasSuffix) }

// Contains returns a CONTAINS b: null unless both are strings.
func Contains(a, b Value) Value { return stringPredicate(a, b, strings.Contains) }

func stringPredicate(a, b Value, f func(s, t string) bool) Value {
	if a.kind != KindString || b.kind != KindString {
		return Null
	}
	return Bool(f(a.Str(), b.Str()))
}

// IsNull returns x IS NULL, never null itself.
func IsNull(x Value) Value { return Bool(x.IsNull()) }

// IsNotNull returns x IS NOT NULL.
func IsNotNull(x Value) Value { return Bool(!x.IsNull()) }
