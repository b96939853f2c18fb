package value

import (
	"strconv"
)

// Equivalence is the identity DISTINCT, grouping keys, UNION and
// collect(DISTINCT …) use. It is equality made total: null is equivalent to
// null and NaN to NaN, and lists and maps are equivalent when their
// elements are, pairwise. Otherwise it agrees with equality (1 is
// equivalent to 1.0). Equivalent(a, b) holds exactly when Compare(a, b) is
// 0 and when Key(a) == Key(b).

// Equivalent reports whether a and b are equivalent.
func Equivalent(a, b Value) bool {
	if a.IsNull() || b.IsNull() {
		return a.IsNull() && b.IsNull()
	}
	if a.isNaN() || b.isNaN() {
		return a.isNaN() && b.isNaN()
	}
	switch {
	case a.kind == KindList && b.kind == KindList:
		x, y := a.List(), b.List()
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if !Equivalent(x[i], y[i]) {
				return false
			}
		}
		return true
	case a.kind == KindMap && b.kind == KindMap:
		x, y := a.Map(), b.Map()
		if !sameKeys(x, y) {
			return false
		}
		for i := 0; i < x.Len(); i++ {
			if !Equivalent(x.val(i), y.val(i)) {
				return false
			}
		}
		return true
	}
	return Equal(a, b).IsTrue()
}

// Key returns a string that identifies v up to equivalence: Key(a) ==
// Key(b) exactly when Equivalent(a, b). Use it as a Go map key for
// DISTINCT and grouping.
func Key(v Value) string { return string(AppendKey(nil, v)) }

// AppendKey appends Key(v) to buf.
func AppendKey(buf []byte, v Value) []byte {
	switch v.kind {
	case KindNull:
		return append(buf, 'z')
	case KindBoolean:
		return append(buf, 'b', byte('0'+v.bits))
	case KindInteger:
		return appendIntKey(buf, v.Int())
	case KindFloat:
		return appendFloatKey(buf, v.f())
	case KindString:
		return appendStrKey(buf, 's', v.Str())
	case KindNode:
		return append(strconv.AppendUint(append(buf, 'v'), v.bits, 16), ';')
	case KindRelationship:
		id := v.Relationship().ID
		buf = strconv.AppendUint(append(buf, 'e'), id[0], 16)
		return append(strconv.AppendUint(append(buf, '.'), id[1], 16), ';')
	case KindList:
		buf = strconv.AppendInt(append(buf, '['), int64(len(v.List())), 10)
		for _, e := range v.List() {
			buf = AppendKey(append(buf, ','), e)
		}
		return append(buf, ']')
	case KindMap:
		return appendMapKey(buf, v.Map())
	case KindPath:
		return appendPathKey(buf, v.Path())
	}
	return buf
}

// Numbers and graph elements end with ';', strings carry their length:
// every key is self-delimiting.
func appendIntKey(buf []byte, i int64) []byte {
	return append(strconv.AppendInt(append(buf, 'i'), i, 10), ';')
}

func appendFloatKey(buf []byte, f float64) []byte {
	if i, ok := floatToInt(f); ok {
		return appendIntKey(buf, i) // 1.0 is equivalent to 1, -0.0 to 0
	}
	if f != f {
		return append(buf, 'N')
	}
	return append(strconv.AppendFloat(append(buf, 'f'), f, 'g', -1, 64), ';')
}

func appendStrKey(buf []byte, tag byte, s string) []byte {
	buf = strconv.AppendInt(append(buf, tag), int64(len(s)), 10)
	return append(append(buf, ':'), s...)
}

func appendMapKey(buf []byte, m Map) []byte {
	buf = strconv.AppendInt(append(buf, '{'), int64(m.Len()), 10)
	for i := 0; i < m.Len(); i++ {
		buf = appendStrKey(append(buf, ','), 'k', m.key(i))
		buf = AppendKey(buf, m.val(i))
	}
	return append(buf, '}')
}

func appendPathKey(buf []byte, p Path) []byte {
	buf = strconv.AppendInt(append(buf, '<'), int64(len(p.Rels)), 10)
	for i, n := range p.Nodes {
		buf = AppendKey(append(buf, ','), NodeValue(n))
		if i < len(p.Rels) {
			buf = AppendKey(buf, RelValue(p.Rels[i]))
		}
	}
	return append(buf, '>')
}
