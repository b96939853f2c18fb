package value

// Access: list indexing and slicing, map lookups. Node and relationship
// properties (n.k, n['k']) are the engine's: these functions treat nodes
// and relationships as the wrong type, so the engine must handle them
// before calling.

// Index returns x[i]. On a list, i must be an Integer, counted from the end
// when negative; out of range gives null. On a map, i must be a String and
// a missing key gives null. Null for x or i gives null. Errors (TypeError):
// ListElementAccessByNonInteger, MapElementAccessByNonString, and
// InvalidArgumentType when x is neither a list nor a map.
func Index(x, i Value) (Value, error) {
	if x.IsNull() || i.IsNull() {
		return Null, nil
	}
	switch x.kind {
	case KindList:
		if i.kind != KindInteger {
			return Null, newError(TypeError, ListElementAccessByNonInteger, "list index must be an Integer, not %s", i.kind)
		}
		l := x.List()
		n := i.Int()
		if n < 0 {
			n += int64(len(l))
		}
		if n < 0 || n >= int64(len(l)) {
			return Null, nil
		}
		return l[n], nil
	case KindMap:
		if i.kind != KindString {
			return Null, newError(TypeError, MapElementAccessByNonString, "map key must be a String, not %s", i.kind)
		}
		v, _ := x.Map().Get(i.Str())
		return v, nil
	}
	return Null, newError(TypeError, InvalidArgumentType, "cannot index %s", x.kind)
}

// Slice returns list[from..to]; a nil bound is absent (list[..2],
// list[1..]). Bounds are Integers, negative ones counted from the end,
// clamped to the list; from >= to gives []. A null list or a null bound
// gives null. A bound that is not an Integer raises TypeError
// (ListElementAccessByNonInteger); a list of another type TypeError
// (InvalidArgumentType).
func Slice(list Value, from, to *Value) (Value, error) {
	if list.IsNull() || (from != nil && from.IsNull()) || (to != nil && to.IsNull()) {
		return Null, nil
	}
	if list.kind != KindList {
		return Null, operandError("slicing", list)
	}
	l := list.List()
	lo, err := sliceBound(from, 0, len(l))
	if err != nil {
		return Null, err
	}
	hi, err := sliceBound(to, len(l), len(l))
	if err != nil {
		return Null, err
	}
	if lo >= hi {
		return NewList([]Value{}), nil
	}
	return NewList(l[lo:hi:hi]), nil
}

func sliceBound(b *Value, absent, n int) (int, error) {
	if b == nil {
		return absent, nil
	}
	if b.kind != KindInteger {
		return 0, newError(TypeError, ListElementAccessByNonInteger, "slice bound must be an Integer, not %s", b.kind)
	}
	i := b.Int()
	if i < 0 {
		i += int64(n)
	}
	return int(max(0, min(i, int64(n)))), nil
}

// Property returns x.key for a map x (null if the key is missing) or a null
// x (null). Other values raise TypeError (PropertyAccessOnNonMap).
func Property(x Value, key string) (Value, error) {
	switch x.kind {
	case KindNull:
		return Null, nil
	case KindMap:
		v, _ := x.Map().Get(key)
		return v, nil
	}
	return Null, newError(TypeError, PropertyAccessOnNonMap, "cannot read property %q of %s", key, x.kind)
}
