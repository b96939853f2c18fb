package graph

import (
	"fmt"

	"github.com/gdi-go/gdi/gdi"
)

// Kind is the kind of a stored property value. It picks the member of a
// key's family that holds the value.
type Kind uint8

// The kinds, each with the datatype of its own property type.
const (
	Integer   Kind = iota // Int64
	Float                 // Double
	String                // Char
	Boolean               // Bool
	Composite             // Byte: lists and maps, encoded
	numKinds
)

var kindInfo = [numKinds]struct {
	name     string
	datatype gdi.Datatype
}{
	Integer:   {"Integer", gdi.Int64},
	Float:     {"Float", gdi.Double},
	String:    {"String", gdi.Char},
	Boolean:   {"Boolean", gdi.Bool},
	Composite: {"Composite", gdi.Byte},
}

// Kinds are all kinds, in the order in which a key's family is searched.
var Kinds = [numKinds]Kind{Integer, Float, String, Boolean, Composite}

func (k Kind) String() string {
	if k >= numKinds {
		return fmt.Sprintf("Kind(%d)", uint8(k))
	}
	return kindInfo[k].name
}

// Datatype returns the datatype of the kind's own property type.
func (k Kind) Datatype() gdi.Datatype { return kindInfo[k].datatype }

// reads reports whether a single-entity property type of datatype d,
// made by another program, holds values of kind k.
func (k Kind) reads(d gdi.Datatype) bool {
	switch k {
	case Integer:
		return d != gdi.Bool && d.Group() == gdi.GroupInteger
	case Float:
		return d.Group() == gdi.GroupFloat
	case String:
		return d == gdi.Char
	case Boolean:
		return d == gdi.Bool
	}
	return false // Composite values are ours alone
}

// memberName is the name of kind k's own property type in the family of
// key.
func memberName(key string, k Kind) string { return key + "#" + k.String() }
