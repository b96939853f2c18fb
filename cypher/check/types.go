package check

import "strings"

// Type is the static type of an expression: the set of runtime types its
// value may have. The checker infers it from literals, variable bindings,
// operators and function results; anything it cannot tell is Any. A rule
// about types rejects an expression only when no type in its set is
// acceptable, so Any never fails a check, and null is acceptable
// everywhere (a null argument gives a null result, not an error).
type Type uint16

// The runtime types. TOther stands for every value type the checker does
// not distinguish (dates, times, durations, points, …).
const (
	TNull Type = 1 << iota
	TBoolean
	TInteger
	TFloat
	TString
	TList
	TMap
	TNode
	TRelationship
	TPath
	TOther

	// TNumber is an integer or a float.
	TNumber = TInteger | TFloat
	// TEntity is a node or a relationship.
	TEntity = TNode | TRelationship
	// TAny is every type: nothing is known.
	TAny Type = 1<<iota - 1
)

var typeNames = []string{"Null", "Boolean", "Integer", "Float", "String", "List", "Map",
	"Node", "Relationship", "Path", "Other"}

// String names the types of the set, e.g. "Integer|Float", or "Any".
func (t Type) String() string {
	if t == TAny {
		return "Any"
	}
	var names []string
	for i, n := range typeNames {
		if t&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return "Nothing"
	}
	return strings.Join(names, "|")
}

// accepts reports whether a value of static type t may be acceptable where
// the types allowed are expected: some type of t is allowed, or t can only
// be null.
func (t Type) accepts(allowed Type) bool {
	return t&(allowed|TNull) != 0
}

// arithmetic is the result type of + - * / % on operands of types l and r:
// integer for two integers, float for two numbers of which one is a float,
// a number for two numbers, and unknown otherwise (strings, lists,
// temporal values, …).
func arithmetic(l, r Type) Type {
	l, r = l&^TNull, r&^TNull
	numbers := l != 0 && r != 0 && (l|r)&^TNumber == 0
	switch {
	case l == TInteger && r == TInteger:
		return TInteger
	case numbers && (l == TFloat || r == TFloat):
		return TFloat
	case numbers:
		return TNumber
	}
	return TAny
}
