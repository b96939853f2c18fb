package graph

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/gdi-go/gdi/cypher/value"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/internal/wire"
)

// InvalidPropertyType is the TCK's detail for a value that cannot be
// stored as a property.
const InvalidPropertyType value.Detail = "InvalidPropertyType"

// Encode returns the kind and the GDI value that store v as a property.
// Integers, floats, strings and booleans are one element of their kind's
// datatype; a list of them is Composite: a Byte value, each element a tag
// byte and its bytes (compositeTags). Null is not stored (ok is false): a
// property set to null is removed. Maps, nodes, relationships, paths,
// nested lists and lists holding null are no property values (TypeError,
// InvalidPropertyType).
func Encode(v value.Value) (k Kind, g gdi.Value, ok bool, err error) {
	switch v.Kind() {
	case value.KindNull:
		return 0, gdi.Value{}, false, nil
	case value.KindInteger:
		return Integer, gdi.Int64s(v.Int()), true, nil
	case value.KindFloat:
		return Float, gdi.Doubles(v.Float()), true, nil
	case value.KindString:
		return String, gdi.Chars(v.Str()), true, nil
	case value.KindBoolean:
		return Boolean, gdi.Bools(v.Bool()), true, nil
	case value.KindList:
		b, err := appendList(nil, v.List())
		return Composite, gdi.Bytes(b), err == nil, err
	}
	return 0, gdi.Value{}, false, notProperty(v)
}

func notProperty(v value.Value) error {
	return &value.Error{Category: value.TypeError, Detail: InvalidPropertyType,
		Msg: fmt.Sprintf("a %v cannot be a property value (only numbers, strings, booleans and lists of them)", v.Kind())}
}

// The tags of a Composite value's elements.
const (
	tagInteger byte = 'I' // 8 bytes, little-endian
	tagFloat   byte = 'F' // 8 bytes of IEEE 754 bits, little-endian
	tagString  byte = 'S' // a uvarint length, then the bytes (internal/wire)
	tagBoolean byte = 'B' // one byte, 0 or 1
)

func appendList(b []byte, elems []value.Value) ([]byte, error) {
	for _, e := range elems {
		switch e.Kind() {
		case value.KindInteger:
			b = binary.LittleEndian.AppendUint64(append(b, tagInteger), uint64(e.Int()))
		case value.KindFloat:
			b = binary.LittleEndian.AppendUint64(append(b, tagFloat), math.Float64bits(e.Float()))
		case value.KindString:
			b = wire.AppendString(append(b, tagString), e.Str())
		case value.KindBoolean:
			x := byte(0)
			if e.Bool() {
				x = 1
			}
			b = append(b, tagBoolean, x)
		default:
			return nil, &value.Error{Category: value.TypeError, Detail: InvalidPropertyType,
				Msg: fmt.Sprintf("a list holding a %v cannot be a property value", e.Kind())}
		}
	}
	return b, nil
}

// Decode returns the Cypher value of g, a value of member m. The engine
// writes one element; a value of another number of elements, in a member
// made by another program (an Int32 array, say), is a list.
func Decode(m Member, g gdi.Value) (value.Value, error) {
	switch m.Kind {
	case Composite:
		b, err := g.ByteSlice()
		if err != nil {
			return value.Null, err
		}
		return decodeList(b)
	case String:
		if m.Datatype == gdi.Byte { // the application-level ID (IDKey): its bytes, as they are
			return value.Str(g.RawString()), nil
		}
		s, err := g.Text()
		return value.Str(s), err
	}
	xs, err := elements(m.Kind, g)
	switch {
	case err != nil:
		return value.Null, err
	case len(xs) == 1:
		return xs[0], nil
	}
	return value.NewList(xs), nil
}

// elements decodes the elements of g, of a member of kind k (Integer,
// Float or Boolean).
func elements(k Kind, g gdi.Value) ([]value.Value, error) {
	var out []value.Value
	switch {
	case k == Float:
		xs, err := g.Float64Slice()
		for _, x := range xs {
			out = append(out, value.Float(x))
		}
		return out, err
	case k == Boolean:
		xs, err := g.BoolSlice()
		for _, x := range xs {
			out = append(out, value.Bool(x))
		}
		return out, err
	case g.Datatype() == gdi.Uint64 || g.Datatype() == gdi.Uint32 || g.Datatype() == gdi.Uint16 || g.Datatype() == gdi.Uint8:
		xs, err := g.Uint64Slice()
		for _, x := range xs {
			if x > math.MaxInt64 {
				return nil, gdi.Errorf(gdi.ErrConversion, "unsigned property value %d is beyond Cypher's Integer", x)
			}
			out = append(out, value.Int(int64(x)))
		}
		return out, err
	}
	xs, err := g.Int64Slice()
	for _, x := range xs {
		out = append(out, value.Int(x))
	}
	return out, err
}

// decodeList decodes a Composite value. Only the encoding appendList
// writes decodes: a boolean byte is 0 or 1 and a length is a minimal
// uvarint, so a damaged value is an error, not a different list.
func decodeList(b []byte) (value.Value, error) {
	var out []value.Value
	for len(b) > 0 {
		tag := b[0]
		b = b[1:]
		var e value.Value
		switch {
		case (tag == tagInteger || tag == tagFloat) && len(b) >= 8:
			x := binary.LittleEndian.Uint64(b)
			e, b = value.Int(int64(x)), b[8:]
			if tag == tagFloat {
				e = value.Float(math.Float64frombits(x))
			}
		case tag == tagBoolean && len(b) >= 1 && b[0] <= 1:
			e, b = value.Bool(b[0] == 1), b[1:]
		case tag == tagString:
			n, w := binary.Uvarint(b)
			if w <= 0 || w != len(binary.AppendUvarint(nil, n)) || uint64(len(b)-w) < n {
				return value.Null, corrupt(tag)
			}
			e, b = value.Str(string(b[w:w+int(n)])), b[w+int(n):]
		default:
			return value.Null, corrupt(tag)
		}
		out = append(out, e)
	}
	return value.NewList(out), nil
}

func corrupt(tag byte) error {
	return gdi.Errorf(gdi.ErrIntern, "a Composite property value is damaged at an element tagged %q", tag)
}
