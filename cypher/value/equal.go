package value

// Equality, the = and <> operators (openCypher CIP2016-06-14). The result
// is a Boolean or null:
//
//   - null = anything is null;
//   - numbers are equal when their mathematical values are (1 = 1.0), and
//     NaN is equal to nothing, itself included;
//   - values of different types are not equal ('1' = 1 is false), except
//     Integer and Float;
//   - strings are equal when they hold the same code points, booleans and
//     graph elements (by identity) as expected; paths when their nodes and
//     relationships are pairwise equal;
//   - lists of different lengths are not equal; otherwise they are
//     compared pairwise: false if some pair is not equal, else null if some
//     pair is null, else true. Maps likewise, by the values of their keys,
//     after checking that the key sets are the same ({k: null} = {} is
//     false, {k: null} = {k: null} is null).

// Equal returns a = b.
func Equal(a, b Value) Value {
	if a.IsNull() || b.IsNull() {
		return Null
	}
	if a.IsNumber() && b.IsNumber() {
		if a.isNaN() || b.isNaN() {
			return Bool(false)
		}
		return Bool(cmpNumbers(a, b) == 0)
	}
	if a.kind != b.kind {
		return Bool(false)
	}
	switch a.kind {
	case KindBoolean, KindNode:
		return Bool(a.bits == b.bits)
	case KindString:
		return Bool(a.Str() == b.Str())
	case KindRelationship:
		return Bool(a.Relationship().ID == b.Relationship().ID)
	case KindPath:
		return Bool(equalPaths(a.Path(), b.Path()))
	case KindList:
		return equalLists(a.List(), b.List())
	case KindMap:
		return equalMaps(a.Map(), b.Map())
	}
	return Bool(false)
}

// NotEqual returns a <> b, the negation of a = b.
func NotEqual(a, b Value) Value { return not3(Equal(a, b)) }

// equalAll combines pairwise results: false wins over null, null over true.
func equalAll(n int, pair func(i int) Value) Value {
	unknown := false
	for i := 0; i < n; i++ {
		switch e := pair(i); {
		case e.IsNull():
			unknown = true
		case !e.Bool():
			return Bool(false)
		}
	}
	if unknown {
		return Null
	}
	return Bool(true)
}

func equalLists(a, b []Value) Value {
	if len(a) != len(b) {
		return Bool(false)
	}
	return equalAll(len(a), func(i int) Value { return Equal(a[i], b[i]) })
}

func equalMaps(a, b Map) Value {
	if !sameKeys(a, b) {
		return Bool(false)
	}
	return equalAll(a.Len(), func(i int) Value { return Equal(a.val(i), b.val(i)) })
}

func sameKeys(a, b Map) bool {
	if a.Len() != b.Len() {
		return false
	}
	for i := 0; i < a.Len(); i++ {
		if a.key(i) != b.key(i) {
			return false
		}
	}
	return true
}

func equalPaths(a, b Path) bool {
	if len(a.Rels) != len(b.Rels) {
		return false
	}
	for i, n := range a.Nodes {
		if n.ID != b.Nodes[i].ID {
			return false
		}
	}
	for i, r := range a.Rels {
		if r.ID != b.Rels[i].ID {
			return false
		}
	}
	return true
}
