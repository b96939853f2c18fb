package value

import (
	"math"
	"unsafe"
)

// Kind is the openCypher type of a Value.
type Kind uint8

// The kinds, in declaration order (not the sort order: see Compare).
const (
	KindNull Kind = iota
	KindBoolean
	KindInteger
	KindFloat
	KindString
	KindList
	KindMap
	KindNode
	KindRelationship
	KindPath
)

var kindNames = [...]string{
	KindNull:         "Null",
	KindBoolean:      "Boolean",
	KindInteger:      "Integer",
	KindFloat:        "Float",
	KindString:       "String",
	KindList:         "List",
	KindMap:          "Map",
	KindNode:         "Node",
	KindRelationship: "Relationship",
	KindPath:         "Path",
}

// String returns the openCypher name of the kind, e.g. "Integer".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(?)"
}

// Value is one openCypher value. The zero Value is null. Values are
// immutable: the slices handed to NewList and returned by List must not be
// changed afterwards. Booleans, integers, floats, strings, lists and nodes
// are held without allocation; maps, relationships and paths behind a
// pointer. Do not compare Values with ==; use Equal, Equivalent or Compare.
//
// A Value is three words, because rows hold one per variable and every
// operator copies them: the kind, a number, and a pointer whose type the
// kind gives. A String is its bytes and their length, a List its first
// element and their number; only the accessors below look inside.
type Value struct {
	kind Kind
	bits uint64         // Boolean (0 or 1), Integer, Float (IEEE bits), Node (NodeID), the length of a String or List
	ptr  unsafe.Pointer // String (its bytes), List (its first element), Map (*mapData), *Relationship, *Path
}

// Null is the null value (the zero Value).
var Null = Value{}

// Bool returns a Boolean.
func Bool(b bool) Value {
	if b {
		return Value{kind: KindBoolean, bits: 1}
	}
	return Value{kind: KindBoolean}
}

// Int returns an Integer.
func Int(i int64) Value { return Value{kind: KindInteger, bits: uint64(i)} }

// Float returns a Float.
func Float(f float64) Value { return Value{kind: KindFloat, bits: math.Float64bits(f)} }

// Str returns a String.
func Str(s string) Value {
	return Value{kind: KindString, bits: uint64(len(s)), ptr: unsafe.Pointer(unsafe.StringData(s))}
}

// NewList returns a List holding elems, which it keeps (no copy).
func NewList(elems []Value) Value {
	return Value{kind: KindList, bits: uint64(len(elems)), ptr: unsafe.Pointer(unsafe.SliceData(elems))}
}

// ListOf returns a List of the arguments.
func ListOf(elems ...Value) Value { return NewList(elems) }

// MapValue returns a Map value.
func MapValue(m Map) Value { return Value{kind: KindMap, ptr: unsafe.Pointer(m.d)} }

// NodeValue returns a Node value.
func NodeValue(n Node) Value { return Value{kind: KindNode, bits: uint64(n.ID)} }

// RelValue returns a Relationship value.
func RelValue(r Relationship) Value { return RelValueOf(&r) }

// RelValueOf returns a Relationship value holding r, which it keeps (no
// copy): r must not change afterwards.
func RelValueOf(r *Relationship) Value { return Value{kind: KindRelationship, ptr: unsafe.Pointer(r)} }

// Kind returns the type of v.
func (v Value) Kind() Kind { return v.kind }

// IsNull reports whether v is null.
func (v Value) IsNull() bool { return v.kind == KindNull }

// IsTrue reports whether v is the Boolean true: the test of WHERE, which
// drops rows whose predicate is false or null.
func (v Value) IsTrue() bool { return v.kind == KindBoolean && v.bits == 1 }

// IsNumber reports whether v is an Integer or a Float.
func (v Value) IsNumber() bool { return v.kind == KindInteger || v.kind == KindFloat }

// Bool returns the Boolean held by v (false if v is not a Boolean).
func (v Value) Bool() bool { return v.kind == KindBoolean && v.bits == 1 }

// Int returns the Integer held by v (0 if v is not an Integer).
func (v Value) Int() int64 {
	if v.kind != KindInteger {
		return 0
	}
	return int64(v.bits)
}

// Float returns the Float held by v, or an Integer converted to float64
// (0 for other kinds).
func (v Value) Float() float64 {
	switch v.kind {
	case KindFloat:
		return math.Float64frombits(v.bits)
	case KindInteger:
		return float64(int64(v.bits))
	}
	return 0
}

// Str returns the String held by v ("" if v is not a String).
func (v Value) Str() string {
	if v.kind != KindString {
		return ""
	}
	return unsafe.String((*byte)(v.ptr), int(v.bits))
}

// List returns the elements of a List (nil for other kinds); do not modify
// them.
func (v Value) List() []Value {
	if v.kind != KindList {
		return nil
	}
	return unsafe.Slice((*Value)(v.ptr), int(v.bits))
}

// Map returns the Map held by v (the empty Map for other kinds).
func (v Value) Map() Map {
	if v.kind != KindMap {
		return Map{}
	}
	return Map{(*mapData)(v.ptr)}
}

// Node returns the Node held by v (the zero Node for other kinds).
func (v Value) Node() Node {
	if v.kind != KindNode {
		return Node{}
	}
	return Node{ID: NodeID(v.bits)}
}

// Relationship returns the Relationship held by v (the zero Relationship
// for other kinds).
func (v Value) Relationship() Relationship {
	if v.kind == KindRelationship {
		return *(*Relationship)(v.ptr)
	}
	return Relationship{}
}

// Path returns the Path held by v (the zero Path for other kinds).
func (v Value) Path() Path {
	if v.kind == KindPath {
		return *(*Path)(v.ptr)
	}
	return Path{}
}
