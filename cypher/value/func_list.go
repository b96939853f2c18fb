package value

import (
	"slices"
	"unicode/utf8"
)

// List, map and path functions.
func init() {
	register("size", 1, 1, size)
	register("length", 1, 1, length)
	register("head", 1, 1, listFunc("head", func(l []Value) Value { return at(l, 0) }))
	register("last", 1, 1, listFunc("last", func(l []Value) Value { return at(l, len(l)-1) }))
	register("tail", 1, 1, listFunc("tail", tail))
	register("range", 2, 3, rangeFn)
	register("reverse", 1, 1, reverse)
	registerNullable("coalesce", 1, -1, coalesce)
	register("keys", 1, 1, keys)
	register("properties", 1, 1, properties)
	register("nodes", 1, 1, pathFunc("nodes", pathNodes))
	register("relationships", 1, 1, pathFunc("relationships", pathRels))
}

// MaxRangeLength bounds the length of the list range builds; a longer one
// raises ArgumentError (NumberOutOfRange) instead of exhausting memory.
var MaxRangeLength int64 = 1 << 26

func listFunc(name string, f func([]Value) Value) func([]Value) (Value, error) {
	return func(args []Value) (Value, error) {
		if args[0].kind != KindList {
			return Null, argError(name, args[0])
		}
		return f(args[0].List()), nil
	}
}

func at(l []Value, i int) Value {
	if i < 0 || i >= len(l) {
		return Null
	}
	return l[i]
}

func tail(l []Value) Value {
	if len(l) == 0 {
		return NewList([]Value{})
	}
	return NewList(l[1:])
}

// size: the number of elements of a list or of code points of a string.
func size(args []Value) (Value, error) {
	switch x := args[0]; x.kind {
	case KindList:
		return Int(int64(len(x.List()))), nil
	case KindString:
		return Int(int64(utf8.RuneCountInString(x.Str()))), nil
	default:
		return Null, argError("size", x)
	}
}

// length: the number of relationships of a path.
func length(args []Value) (Value, error) {
	if args[0].kind != KindPath {
		return Null, argError("length", args[0])
	}
	return Int(int64(args[0].Path().Len())), nil
}

// range(start, end[, step]): the Integers from start to end inclusive, by
// step (1 by default; 0 raises ArgumentError (NumberOutOfRange)). An
// argument that is not an Integer raises ArgumentError
// (InvalidArgumentType), as the TCK has it for range.
func rangeFn(args []Value) (Value, error) {
	var n [3]int64
	n[2] = 1
	for i, a := range args {
		if a.kind != KindInteger {
			return Null, newError(ArgumentError, InvalidArgumentType, "range cannot take a %s argument", a.kind)
		}
		n[i] = a.Int()
	}
	start, end, step := n[0], n[1], n[2]
	if step == 0 {
		return Null, rangeError("range", "step must not be 0")
	}
	count := rangeCount(start, end, step)
	if count > MaxRangeLength {
		return Null, rangeError("range", "%d elements exceed MaxRangeLength", count)
	}
	l := make([]Value, count)
	for i := range l {
		l[i] = Int(start + int64(i)*step)
	}
	return NewList(l), nil
}

// rangeCount is the number of elements of range(start, end, step), computed
// without overflow (in uint64, since end-start fits there).
func rangeCount(start, end, step int64) int64 {
	var span, by uint64
	switch {
	case step > 0 && end >= start:
		span, by = uint64(end)-uint64(start), uint64(step)
	case step < 0 && end <= start:
		span, by = uint64(start)-uint64(end), -uint64(step)
	default:
		return 0
	}
	if c := span / by; c < uint64(MaxRangeLength) {
		return int64(c) + 1
	}
	return MaxRangeLength + 1 // too long (span/by + 1 may not fit)
}

// reverse: a list's elements or a string's code points in reverse order.
func reverse(args []Value) (Value, error) {
	switch x := args[0]; x.kind {
	case KindList:
		l := slices.Clone(x.List())
		slices.Reverse(l)
		return NewList(l), nil
	case KindString:
		r := []rune(x.Str())
		slices.Reverse(r)
		return Str(string(r)), nil
	default:
		return Null, argError("reverse", x)
	}
}

// coalesce: the first argument that is not null, or null.
func coalesce(args []Value) (Value, error) {
	for _, a := range args {
		if !a.IsNull() {
			return a, nil
		}
	}
	return Null, nil
}

// keys of a map, in ascending order (a node's or relationship's are the
// engine's).
func keys(args []Value) (Value, error) {
	if args[0].kind != KindMap {
		return Null, argError("keys", args[0])
	}
	ks := args[0].Map().Keys()
	l := make([]Value, len(ks))
	for i, k := range ks {
		l[i] = Str(k)
	}
	return NewList(l), nil
}

// properties of a map: the map itself.
func properties(args []Value) (Value, error) {
	if args[0].kind != KindMap {
		return Null, argError("properties", args[0])
	}
	return args[0], nil
}

func pathFunc(name string, f func(Path) Value) func([]Value) (Value, error) {
	return func(args []Value) (Value, error) {
		if args[0].kind != KindPath {
			return Null, argError(name, args[0])
		}
		return f(args[0].Path()), nil
	}
}

func pathNodes(p Path) Value {
	l := make([]Value, len(p.Nodes))
	for i, n := range p.Nodes {
		l[i] = NodeValue(n)
	}
	return NewList(l)
}

func pathRels(p Path) Value {
	l := make([]Value, len(p.Rels))
	for i, r := range p.Rels {
		l[i] = RelValue(r)
	}
	return NewList(l)
}
