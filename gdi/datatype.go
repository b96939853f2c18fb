package gdi

import "fmt"

// Datatype is a basic datatype: the type of each element of a property
// value. The zero Datatype is invalid.
type Datatype uint8

// The basic datatypes. The comment gives the Go type of one element and the
// size of its encoding in bytes (see Value for the encoding).
const (
	Char         Datatype = iota + 1 // byte, 1: a character; a string is a value of several
	Bool                             // bool, 1: 0 or 1
	Int8                             // int8, 1
	Int16                            // int16, 2
	Int32                            // int32, 4
	Int64                            // int64, 8
	Uint8                            // uint8, 1
	Uint16                           // uint16, 2
	Uint32                           // uint32, 4
	Uint64                           // uint64, 8
	Float                            // float32, 4: IEEE 754 binary32
	Double                           // float64, 8: IEEE 754 binary64
	DecimalType                      // Decimal, 67: fixed point, up to 65 digits, 30 after the point
	TimeType                         // Time, 5
	DateType                         // Date, 4
	DatetimeType                     // Datetime, 11
	Byte                             // byte, 1: arbitrary binary data

	lastDatatype = Byte
)

var datatypeInfo = [...]struct {
	name, spec string
	size       int
}{
	Char:         {"Char", "GDI_CHAR", 1},
	Bool:         {"Bool", "GDI_BOOL", 1},
	Int8:         {"Int8", "GDI_INT8_T", 1},
	Int16:        {"Int16", "GDI_INT16_T", 2},
	Int32:        {"Int32", "GDI_INT32_T", 4},
	Int64:        {"Int64", "GDI_INT64_T", 8},
	Uint8:        {"Uint8", "GDI_UINT8_T", 1},
	Uint16:       {"Uint16", "GDI_UINT16_T", 2},
	Uint32:       {"Uint32", "GDI_UINT32_T", 4},
	Uint64:       {"Uint64", "GDI_UINT64_T", 8},
	Float:        {"Float", "GDI_FLOAT", 4},
	Double:       {"Double", "GDI_DOUBLE", 8},
	DecimalType:  {"DecimalType", "GDI_DECIMAL", decimalSize},
	TimeType:     {"TimeType", "GDI_TIME", timeSize},
	DateType:     {"DateType", "GDI_DATE", dateSize},
	DatetimeType: {"DatetimeType", "GDI_DATETIME", datetimeSize},
	Byte:         {"Byte", "GDI_BYTE", 1},
}

// Datatypes returns all valid datatypes in ascending order.
func Datatypes() []Datatype {
	ds := make([]Datatype, 0, lastDatatype)
	for d := Char; d <= lastDatatype; d++ {
		ds = append(ds, d)
	}
	return ds
}

// Valid reports whether d is one of the defined datatypes.
func (d Datatype) Valid() bool { return d >= Char && d <= lastDatatype }

// Size returns the number of bytes one element of d occupies in a Value:
// GDI_GetSizeOfDatatype. It returns ErrDatatype for an invalid datatype.
func (d Datatype) Size() (int, error) {
	if !d.Valid() {
		return 0, Errorf(ErrDatatype, "datatype %d", uint8(d))
	}
	return datatypeInfo[d].size, nil
}

// size is Size for datatypes already known to be valid.
func (d Datatype) size() int { return datatypeInfo[d].size }

// String returns the name of the constant d is in this package, such as
// "Int64" or "DecimalType", and "Datatype(n)" for an invalid datatype.
func (d Datatype) String() string {
	if !d.Valid() {
		return fmt.Sprintf("Datatype(%d)", uint8(d))
	}
	return datatypeInfo[d].name
}

// SpecName returns the specification's name of d, such as "GDI_INT64_T",
// and "Datatype(n)" for an invalid datatype.
func (d Datatype) SpecName() string {
	if !d.Valid() {
		return fmt.Sprintf("Datatype(%d)", uint8(d))
	}
	return datatypeInfo[d].spec
}

// Group is a group of datatypes that the conversion and comparison rules
// treat alike.
type Group uint8

// Datatype groups. Char, Decimal and Byte form groups of their own.
const (
	GroupNone    Group = iota // invalid datatype
	GroupInteger              // Bool and the signed and unsigned integers ("C integer")
	GroupFloat                // Float and Double
	GroupTime                 // Time, Date and Datetime
	GroupChar                 // Char
	GroupDecimal              // Decimal
	GroupByte                 // Byte
)

// Group returns the group of d.
func (d Datatype) Group() Group {
	switch d {
	case Bool, Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64:
		return GroupInteger
	case Float, Double:
		return GroupFloat
	case TimeType, DateType, DatetimeType:
		return GroupTime
	case Char:
		return GroupChar
	case DecimalType:
		return GroupDecimal
	case Byte:
		return GroupByte
	}
	return GroupNone
}

// Op is a comparison operation of a property or label condition. The
// property value of the object is the left operand, the value of the
// condition the right one. The zero Op is invalid.
type Op uint8

// Operations.
const (
	Equal     Op = iota + 1 // left == right
	NotEqual                // left != right
	Greater                 // left > right
	EqGreater               // left >= right
	Smaller                 // left < right
	EqSmaller               // left <= right
)

var opNames = [...]string{Equal: "GDI_EQUAL", NotEqual: "GDI_NOTEQUAL", Greater: "GDI_GREATER",
	EqGreater: "GDI_EQGREATER", Smaller: "GDI_SMALLER", EqSmaller: "GDI_EQSMALLER"}

// Valid reports whether o is a defined operation.
func (o Op) Valid() bool { return o >= Equal && o <= EqSmaller }

func (o Op) String() string {
	if !o.Valid() {
		return fmt.Sprintf("Op(%d)", uint8(o))
	}
	return opNames[o]
}

// Defined reports whether the specification defines o for operands of
// datatype d (section 10.9):
//
//	Equal, NotEqual         integers, Time group, Char, Decimal, Byte
//	Greater, Smaller        integers, Float group, Time group, Decimal
//	EqGreater, EqSmaller    integers, Time group, Decimal
//
// Floating-point values thus support only strict ordering. Label conditions
// support Equal and NotEqual; see LabelCondition.
func (o Op) Defined(d Datatype) bool {
	g := d.Group()
	switch o {
	case Equal, NotEqual:
		return g == GroupInteger || g == GroupTime || g == GroupChar || g == GroupDecimal || g == GroupByte
	case Greater, Smaller:
		return g == GroupInteger || g == GroupFloat || g == GroupTime || g == GroupDecimal
	case EqGreater, EqSmaller:
		return g == GroupInteger || g == GroupTime || g == GroupDecimal
	}
	return false
}
