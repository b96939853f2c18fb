package gdi

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Value is a property value: a sequence of elements of one Datatype. It is
// the Go form of the specification's (buffer, count) pairs.
//
// A Value is immutable and comparable: two Values are == exactly when they
// have the same datatype and the same encoded elements, which is the
// specification's "matches exactly" used to detect duplicate (property
// type, value) pairs and by RemoveProperty and UpdateSpecificProperty.
// Decimals are encoded in canonical form, so equal decimals are ==.
//
// The encoding of the elements is fixed so that every backend stores and
// ships the same bytes: elements are laid out back to back, each
// Datatype.Size bytes long, integers and floats little-endian, Bool as 0 or
// 1, and Decimal, Time, Date and Datetime as described at their types. The
// zero Value has no datatype and no elements; it is only valid where a
// method says so.
type Value struct {
	dt  Datatype
	raw string
}

// NewValue returns the Value of datatype d whose encoded elements are raw.
// It checks that len(raw) is a multiple of the element size (ErrCount) and
// that every element is a valid encoding (ErrDatatype for d itself,
// ErrRange for a Bool other than 0 or 1, ErrDecimal, ErrTime, ErrDate or
// ErrDatetime). raw is copied.
func NewValue(d Datatype, raw []byte) (Value, error) {
	if err := d.CheckEncoded(raw); err != nil {
		return Value{}, err
	}
	return Value{d, string(raw)}, nil
}

// CheckEncoded reports, as NewValue does, whether raw is a valid encoding
// of a value of datatype d, without making the value.
func (d Datatype) CheckEncoded(raw []byte) error {
	size, err := d.Size()
	if err != nil {
		return err
	}
	if len(raw)%size != 0 {
		return Errorf(ErrCount, "%d bytes are not a whole number of %s elements", len(raw), d)
	}
	if checksElements(d) {
		for i := 0; i < len(raw); i += size {
			if err := validElement(d, raw[i:i+size]); err != nil {
				return err
			}
		}
	}
	return nil
}

// NewValueString is NewValue for encoded elements held in a string, which
// is not copied: a backend that decodes many values from one buffer
// converts it to a string once and slices it.
func NewValueString(d Datatype, raw string) (Value, error) {
	size, err := d.Size()
	if err != nil {
		return Value{}, err
	}
	if len(raw)%size != 0 {
		return Value{}, Errorf(ErrCount, "%d bytes are not a whole number of %s elements", len(raw), d)
	}
	if !checksElements(d) {
		return Value{d, raw}, nil
	}
	var buf [32]byte
	for i := 0; i < len(raw); i += size {
		el := buf[:0]
		if size > len(buf) {
			el = nil
		}
		if err := validElement(d, append(el, raw[i:i+size]...)); err != nil {
			return Value{}, err
		}
	}
	return Value{d, raw}, nil
}

// checksElements reports whether some encodings of an element of d are
// invalid (validElement has something to check): every bit pattern is an
// integer, a float or a character.
func checksElements(d Datatype) bool {
	switch d {
	case Bool, DecimalType, TimeType, DateType, DatetimeType:
		return true
	}
	return false
}

func validElement(d Datatype, b []byte) error {
	switch d {
	case Bool:
		if b[0] > 1 {
			return Errorf(ErrRange, "bool element %d is neither 0 nor 1", b[0])
		}
	case DecimalType:
		_, err := decodeDecimal(b)
		return err
	case TimeType:
		_, err := decodeTime(b)
		return err
	case DateType:
		_, err := decodeDate(b)
		return err
	case DatetimeType:
		_, err := decodeDatetime(b)
		return err
	}
	return nil
}

// Datatype returns the datatype of v's elements; 0 for the zero Value.
func (v Value) Datatype() Datatype { return v.dt }

// Len returns the number of elements of v: the specification's count.
func (v Value) Len() int {
	if !v.dt.Valid() {
		return 0
	}
	return len(v.raw) / v.dt.size()
}

// IsZero reports whether v is the zero Value.
func (v Value) IsZero() bool { return v == Value{} }

// Raw returns a copy of the encoded elements of v.
func (v Value) Raw() []byte { return []byte(v.raw) }

// RawString returns the encoded elements of v as a string, without a
// copy.
func (v Value) RawString() string { return v.raw }

// AppendRaw appends the encoded elements of v to b.
func (v Value) AppendRaw(b []byte) []byte { return append(b, v.raw...) }

// Element returns element i of v as a Value of one element. It panics if i
// is out of range, like an index expression.
func (v Value) Element(i int) Value {
	s := v.dt.size()
	return Value{v.dt, v.raw[i*s : (i+1)*s]}
}

// String formats v as a Go programmer reads it. A Char value is a quoted
// string ("abc"); a Byte value is a Go expression of its bytes,
// []byte("abc") if they are printable text and []byte{0x0, 0xff}
// otherwise. The elements of other values are formatted as Go formats
// numbers and bools, Decimals as their digits, and Dates, Times and
// Datetimes in ISO 8601 form (2024-02-29, 23:59:58.999,
// 1999-12-31T23:59:59.001-03:30); one element stands alone, and no
// elements or several are in brackets: [1 2 3]. The zero Value is
// "Value{}".
func (v Value) String() string {
	switch {
	case !v.dt.Valid():
		return "Value{}"
	case v.dt == Char:
		return strconv.Quote(v.raw)
	case v.dt == Byte && v.raw != "" && printable(v.raw):
		return "[]byte(" + strconv.Quote(v.raw) + ")"
	case v.dt == Byte:
		return fmt.Sprintf("%#v", []byte(v.raw))
	case v.Len() == 1:
		return elementString(v.dt, []byte(v.raw))
	}
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i < v.Len(); i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(elementString(v.dt, []byte(v.raw[i*v.dt.size():(i+1)*v.dt.size()])))
	}
	b.WriteByte(']')
	return b.String()
}

// printable reports whether s is UTF-8 text of printable characters
// (strconv.IsPrint), which strconv.Quote leaves as they are.
func printable(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || !strconv.IsPrint(r) {
			return false
		}
	}
	return true
}

// elementString formats one element of a value of datatype d other than
// Char and Byte (see Value.String).
func elementString(d Datatype, b []byte) string {
	switch d {
	case Bool:
		return strconv.FormatBool(b[0] == 1)
	case Int8, Int16, Int32, Int64:
		return strconv.FormatInt(decodeInt(d, b), 10)
	case Uint8, Uint16, Uint32, Uint64:
		return strconv.FormatUint(decodeUint(d, b), 10)
	case Float:
		return fmt.Sprint(math.Float32frombits(binary.LittleEndian.Uint32(b)))
	case Double:
		return fmt.Sprint(math.Float64frombits(binary.LittleEndian.Uint64(b)))
	case DecimalType:
		x, _ := decodeDecimal(b)
		return x.String()
	case TimeType:
		x, _ := decodeTime(b)
		return x.String()
	case DateType:
		x, _ := decodeDate(b)
		return x.String()
	}
	x, _ := decodeDatetime(b)
	return x.isoString()
}

func decodeInt(d Datatype, b []byte) int64 {
	switch d {
	case Int8:
		return int64(int8(b[0]))
	case Int16:
		return int64(int16(binary.LittleEndian.Uint16(b)))
	case Int32:
		return int64(int32(binary.LittleEndian.Uint32(b)))
	}
	return int64(binary.LittleEndian.Uint64(b))
}

func decodeUint(d Datatype, b []byte) uint64 {
	switch d {
	case Bool, Uint8:
		return uint64(b[0])
	case Uint16:
		return uint64(binary.LittleEndian.Uint16(b))
	case Uint32:
		return uint64(binary.LittleEndian.Uint32(b))
	}
	return binary.LittleEndian.Uint64(b)
}

// encodeInteger stores the low Size bytes of x, little-endian.
func encodeInteger(b []byte, d Datatype, x uint64) []byte {
	switch d.size() {
	case 1:
		return append(b, byte(x))
	case 2:
		return binary.LittleEndian.AppendUint16(b, uint16(x))
	case 4:
		return binary.LittleEndian.AppendUint32(b, uint32(x))
	}
	return binary.LittleEndian.AppendUint64(b, x)
}

func intValue[T int8 | int16 | int32 | int64](d Datatype, xs []T) Value {
	b := make([]byte, 0, len(xs)*d.size())
	for _, x := range xs {
		b = encodeInteger(b, d, uint64(int64(x)))
	}
	return Value{d, string(b)}
}

func uintValue[T uint8 | uint16 | uint32 | uint64](d Datatype, xs []T) Value {
	b := make([]byte, 0, len(xs)*d.size())
	for _, x := range xs {
		b = encodeInteger(b, d, uint64(x))
	}
	return Value{d, string(b)}
}

// Constructors of Values from Go values. They cannot fail.

// Chars returns the Char value holding the bytes of s, one element per
// byte. UTF-8 text is stored as its bytes.
func Chars(s string) Value { return Value{Char, s} }

// Bytes returns the Byte value holding a copy of b.
func Bytes(b []byte) Value { return Value{Byte, string(b)} }

// Bools returns a Bool value.
func Bools(xs ...bool) Value {
	b := make([]byte, len(xs))
	for i, x := range xs {
		if x {
			b[i] = 1
		}
	}
	return Value{Bool, string(b)}
}

// Int8s returns an Int8 value.
func Int8s(xs ...int8) Value { return intValue(Int8, xs) }

// Int16s returns an Int16 value.
func Int16s(xs ...int16) Value { return intValue(Int16, xs) }

// Int32s returns an Int32 value.
func Int32s(xs ...int32) Value { return intValue(Int32, xs) }

// Int64s returns an Int64 value.
func Int64s(xs ...int64) Value { return intValue(Int64, xs) }

// Uint8s returns a Uint8 value.
func Uint8s(xs ...uint8) Value { return uintValue(Uint8, xs) }

// Uint16s returns a Uint16 value.
func Uint16s(xs ...uint16) Value { return uintValue(Uint16, xs) }

// Uint32s returns a Uint32 value.
func Uint32s(xs ...uint32) Value { return uintValue(Uint32, xs) }

// Uint64s returns a Uint64 value.
func Uint64s(xs ...uint64) Value { return uintValue(Uint64, xs) }

// Floats returns a Float value.
func Floats(xs ...float32) Value {
	b := make([]byte, 0, 4*len(xs))
	for _, x := range xs {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return Value{Float, string(b)}
}

// Doubles returns a Double value.
func Doubles(xs ...float64) Value {
	b := make([]byte, 0, 8*len(xs))
	for _, x := range xs {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	return Value{Double, string(b)}
}

// Decimals returns a Decimal value.
func Decimals(xs ...Decimal) Value {
	b := make([]byte, 0, decimalSize*len(xs))
	for _, x := range xs {
		b = x.appendEncoding(b)
	}
	return Value{DecimalType, string(b)}
}

// Times returns a Time value.
func Times(xs ...Time) Value {
	b := make([]byte, 0, timeSize*len(xs))
	for _, x := range xs {
		b = x.appendEncoding(b)
	}
	return Value{TimeType, string(b)}
}

// Dates returns a Date value.
func Dates(xs ...Date) Value {
	b := make([]byte, 0, dateSize*len(xs))
	for _, x := range xs {
		b = x.appendEncoding(b)
	}
	return Value{DateType, string(b)}
}

// Datetimes returns a Datetime value.
func Datetimes(xs ...Datetime) Value {
	b := make([]byte, 0, datetimeSize*len(xs))
	for _, x := range xs {
		b = x.appendEncoding(b)
	}
	return Value{DatetimeType, string(b)}
}

// Accessors. Each returns ErrDatatype if v is not of the named datatype;
// use Convert first to change the datatype.

func (v Value) want(d Datatype) error {
	if v.dt != d {
		return Errorf(ErrDatatype, "value of %s read as %s", v.dt, d)
	}
	return nil
}

// Text returns the elements of a Char value as a string.
func (v Value) Text() (string, error) {
	if err := v.want(Char); err != nil {
		return "", err
	}
	return v.raw, nil
}

// ByteSlice returns a copy of the elements of a Byte value.
func (v Value) ByteSlice() ([]byte, error) {
	if err := v.want(Byte); err != nil {
		return nil, err
	}
	return []byte(v.raw), nil
}

// BoolSlice returns the elements of a Bool value.
func (v Value) BoolSlice() ([]bool, error) {
	if err := v.want(Bool); err != nil {
		return nil, err
	}
	xs := make([]bool, len(v.raw))
	for i := range xs {
		xs[i] = v.raw[i] == 1
	}
	return xs, nil
}

// Int64Slice returns the elements of a value of a signed integer datatype
// (Int8 to Int64), widened to int64.
func (v Value) Int64Slice() ([]int64, error) {
	switch v.dt {
	case Int8, Int16, Int32, Int64:
	default:
		return nil, Errorf(ErrDatatype, "value of %s read as a signed integer", v.dt)
	}
	s := v.dt.size()
	xs := make([]int64, v.Len())
	for i := range xs {
		xs[i] = decodeInt(v.dt, []byte(v.raw[i*s:(i+1)*s]))
	}
	return xs, nil
}

// Uint64Slice returns the elements of a value of an unsigned integer
// datatype (Bool, Uint8 to Uint64), widened to uint64.
func (v Value) Uint64Slice() ([]uint64, error) {
	switch v.dt {
	case Bool, Uint8, Uint16, Uint32, Uint64:
	default:
		return nil, Errorf(ErrDatatype, "value of %s read as an unsigned integer", v.dt)
	}
	s := v.dt.size()
	xs := make([]uint64, v.Len())
	for i := range xs {
		xs[i] = decodeUint(v.dt, []byte(v.raw[i*s:(i+1)*s]))
	}
	return xs, nil
}

// Float64Slice returns the elements of a Float or Double value, widened to
// float64 (exactly).
func (v Value) Float64Slice() ([]float64, error) {
	switch v.dt {
	case Float:
		xs := make([]float64, v.Len())
		for i := range xs {
			xs[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32([]byte(v.raw[4*i:]))))
		}
		return xs, nil
	case Double:
		xs := make([]float64, v.Len())
		for i := range xs {
			xs[i] = math.Float64frombits(binary.LittleEndian.Uint64([]byte(v.raw[8*i:])))
		}
		return xs, nil
	}
	return nil, Errorf(ErrDatatype, "value of %s read as floating point", v.dt)
}

// DecimalSlice returns the elements of a Decimal value.
func (v Value) DecimalSlice() ([]Decimal, error) {
	if err := v.want(DecimalType); err != nil {
		return nil, err
	}
	xs := make([]Decimal, v.Len())
	for i := range xs {
		x, err := decodeDecimal([]byte(v.raw[i*decimalSize : (i+1)*decimalSize]))
		if err != nil {
			return nil, err
		}
		xs[i] = x
	}
	return xs, nil
}

// TimeSlice returns the elements of a Time value.
func (v Value) TimeSlice() ([]Time, error) {
	if err := v.want(TimeType); err != nil {
		return nil, err
	}
	xs := make([]Time, v.Len())
	for i := range xs {
		x, err := decodeTime([]byte(v.raw[i*timeSize : (i+1)*timeSize]))
		if err != nil {
			return nil, err
		}
		xs[i] = x
	}
	return xs, nil
}

// DateSlice returns the elements of a Date value.
func (v Value) DateSlice() ([]Date, error) {
	if err := v.want(DateType); err != nil {
		return nil, err
	}
	xs := make([]Date, v.Len())
	for i := range xs {
		x, err := decodeDate([]byte(v.raw[i*dateSize : (i+1)*dateSize]))
		if err != nil {
			return nil, err
		}
		xs[i] = x
	}
	return xs, nil
}

// DatetimeSlice returns the elements of a Datetime value.
func (v Value) DatetimeSlice() ([]Datetime, error) {
	if err := v.want(DatetimeType); err != nil {
		return nil, err
	}
	xs := make([]Datetime, v.Len())
	for i := range xs {
		x, err := decodeDatetime([]byte(v.raw[i*datetimeSize : (i+1)*datetimeSize]))
		if err != nil {
			return nil, err
		}
		xs[i] = x
	}
	return xs, nil
}
