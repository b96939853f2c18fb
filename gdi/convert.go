package gdi

import (
	"encoding/binary"
	"math"
)

// Conversion and comparison follow sections 10.8 and 10.9 of the
// specification. "C rules" there means the rules of C99 on an LP64 machine
// (int is 32 bits, long 64 bits, two's complement), which these functions
// reproduce exactly where C defines the result and report ErrRange where C
// leaves it undefined.

// CanConvert reports whether the specification allows converting values of
// datatype from to datatype to:
//
//	integers (and Bool), Float, Double  ->  integers, Float, Double, Decimal
//	Decimal                             ->  integers, Float, Double
//	Time, Date                          ->  Datetime
//	Datetime                            ->  Time, Date
//
// and every datatype to itself.
func CanConvert(from, to Datatype) bool {
	if !from.Valid() || !to.Valid() {
		return false
	}
	if from == to {
		return true
	}
	fg, tg := from.Group(), to.Group()
	switch fg {
	case GroupInteger, GroupFloat:
		return tg == GroupInteger || tg == GroupFloat || tg == GroupDecimal
	case GroupDecimal:
		return tg == GroupInteger || tg == GroupFloat
	case GroupTime:
		if from == DatetimeType {
			return to == TimeType || to == DateType
		}
		return to == DatetimeType
	}
	return false
}

// Convert converts every element of v to datatype to:
//
//   - integer to integer: C rules: the value modulo 2^n for n-bit targets
//     (two's complement), and to Bool: 0 stays false, anything else is true;
//   - integer to Float or Double: the nearest representable value;
//   - Float or Double to integer: truncated toward zero; NaN or a result
//     outside the target's range returns ErrRange (undefined in C); to
//     Bool: 0 is false, anything else (NaN included) true;
//   - Double to Float: rounded to nearest, overflowing to infinity;
//   - integer to Decimal: exactly;
//   - Float or Double to Decimal: see DecimalFromFloat64 (ErrRange for NaN,
//     infinities and magnitudes of 10^65 or more);
//   - Decimal to integer: the fraction is cut off (toward zero); ErrRange if
//     the rest does not fit; to Bool: 0 is false, anything else true;
//   - Decimal to Float or Double: the nearest representable value;
//   - Time to Datetime: date 0000-01-01, zone +0000; Date to Datetime: time
//     00:00:00.000, zone +0000; Datetime to Time or Date: the other part and
//     the zone are dropped.
//
// Other pairs return ErrConversion, and an invalid to returns ErrDatatype.
// Converting v to its own datatype returns v.
func Convert(v Value, to Datatype) (Value, error) {
	if !to.Valid() {
		return Value{}, Errorf(ErrDatatype, "conversion to datatype %d", uint8(to))
	}
	if !v.dt.Valid() {
		return Value{}, Errorf(ErrDatatype, "conversion of a zero Value")
	}
	if v.dt == to {
		return v, nil
	}
	if !CanConvert(v.dt, to) {
		return Value{}, Errorf(ErrConversion, "%v cannot be converted to %v", v.dt, to)
	}
	n := v.Len()
	out := make([]byte, 0, n*to.size())
	var err error
	for i := 0; i < n; i++ {
		out, err = convertElement(out, v.dt, []byte(v.raw[i*v.dt.size():(i+1)*v.dt.size()]), to)
		if err != nil {
			return Value{}, err
		}
	}
	return Value{to, string(out)}, nil
}

// number is one numeric element: exactly one of the forms is used.
type number struct {
	kind     Group // GroupInteger, GroupFloat or GroupDecimal
	dt       Datatype
	signed   bool
	bits     uint64 // integer: the value as int64 (signed) or uint64
	f        float64
	dec      Decimal
	isSingle bool // f came from a Float
}

func decodeNumber(d Datatype, b []byte) (number, error) {
	switch d {
	case Int8, Int16, Int32, Int64:
		return number{kind: GroupInteger, dt: d, signed: true, bits: uint64(decodeInt(d, b))}, nil
	case Bool, Uint8, Uint16, Uint32, Uint64:
		return number{kind: GroupInteger, dt: d, bits: decodeUint(d, b)}, nil
	case Float:
		return number{kind: GroupFloat, dt: d, f: float64(math.Float32frombits(binary.LittleEndian.Uint32(b))), isSingle: true}, nil
	case Double:
		return number{kind: GroupFloat, dt: d, f: math.Float64frombits(binary.LittleEndian.Uint64(b))}, nil
	case DecimalType:
		x, err := decodeDecimal(b)
		return number{kind: GroupDecimal, dt: d, dec: x}, err
	}
	return number{}, Errorf(ErrDatatype, "%v is not numeric", d)
}

func convertElement(out []byte, from Datatype, b []byte, to Datatype) ([]byte, error) {
	if from.Group() == GroupTime {
		return convertTimeElement(out, from, b, to)
	}
	x, err := decodeNumber(from, b)
	if err != nil {
		return nil, err
	}
	switch to.Group() {
	case GroupInteger:
		return appendAsInteger(out, x, to)
	case GroupFloat:
		var f float64
		switch {
		case x.kind == GroupFloat:
			f = x.f
		case x.kind == GroupDecimal:
			f = x.dec.Float64()
			if to == Float {
				f = float64(float32(f))
			}
		case x.signed:
			if to == Float {
				f = float64(float32(int64(x.bits)))
			} else {
				f = float64(int64(x.bits))
			}
		default:
			if to == Float {
				f = float64(float32(x.bits))
			} else {
				f = float64(x.bits)
			}
		}
		if to == Float {
			return binary.LittleEndian.AppendUint32(out, math.Float32bits(float32(f))), nil
		}
		return binary.LittleEndian.AppendUint64(out, math.Float64bits(f)), nil
	case GroupDecimal:
		var d Decimal
		switch {
		case x.kind == GroupFloat:
			d, err = DecimalFromFloat64(x.f)
			if err != nil {
				return nil, err
			}
		case x.signed:
			d = DecimalFromInt64(int64(x.bits))
		default:
			d = DecimalFromUint64(x.bits)
		}
		return d.appendEncoding(out), nil
	}
	return nil, Errorf(ErrConversion, "%v cannot be converted to %v", from, to)
}

// intRange returns the range of an integer datatype as float64 bounds
// [lo, hi) such that the truncated value t fits iff lo <= t < hi.
func intRange(d Datatype) (lo, hi float64) {
	bitsN := float64(8 * d.size())
	if isSignedInt(d) {
		return -math.Exp2(bitsN - 1), math.Exp2(bitsN - 1)
	}
	return 0, math.Exp2(bitsN)
}

func isSignedInt(d Datatype) bool { return d == Int8 || d == Int16 || d == Int32 || d == Int64 }

func appendAsInteger(out []byte, x number, to Datatype) ([]byte, error) {
	switch x.kind {
	case GroupInteger:
		if to == Bool {
			return append(out, b2u(x.bits != 0)), nil
		}
		return encodeInteger(out, to, x.bits), nil
	case GroupFloat:
		if to == Bool {
			return append(out, b2u(x.f != 0 || math.IsNaN(x.f))), nil
		}
		t := math.Trunc(x.f)
		lo, hi := intRange(to)
		if math.IsNaN(t) || t < lo || t >= hi {
			return nil, Errorf(ErrRange, "%g does not fit in %v", x.f, to)
		}
		if t < 0 {
			return encodeInteger(out, to, uint64(int64(t))), nil
		}
		return encodeInteger(out, to, uint64(t)), nil
	case GroupDecimal:
		if to == Bool {
			return append(out, b2u(x.dec.Sign() != 0)), nil
		}
		neg, mag, ok := x.dec.truncated()
		if ok {
			bitsN := uint(8 * to.size())
			switch {
			case isSignedInt(to) && !neg && mag <= 1<<(bitsN-1)-1:
				return encodeInteger(out, to, mag), nil
			case isSignedInt(to) && neg && mag <= 1<<(bitsN-1):
				return encodeInteger(out, to, -mag), nil
			case !isSignedInt(to) && (!neg || mag == 0) && (bitsN == 64 || mag < 1<<bitsN):
				return encodeInteger(out, to, mag), nil
			}
		}
		return nil, Errorf(ErrRange, "%v does not fit in %v", x.dec, to)
	}
	return nil, Errorf(ErrConversion, "cannot convert to %v", to)
}

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}

func convertTimeElement(out []byte, from Datatype, b []byte, to Datatype) ([]byte, error) {
	switch from {
	case TimeType:
		t, err := decodeTime(b)
		if err != nil {
			return nil, err
		}
		return Datetime{date: Date{0, 1, 1}, time: t}.appendEncoding(out), nil
	case DateType:
		d, err := decodeDate(b)
		if err != nil {
			return nil, err
		}
		return Datetime{date: d}.appendEncoding(out), nil
	}
	dt, err := decodeDatetime(b)
	if err != nil {
		return nil, err
	}
	if to == TimeType {
		return dt.time.appendEncoding(out), nil
	}
	return dt.date.appendEncoding(out), nil
}

// Compare evaluates "a op b" as the specification defines it (section
// 10.9). The operation must be defined for both datatypes (see
// Op.Defined), and the datatypes must be comparable with each other:
//
//   - integers and floating point among themselves: C rules, that is the
//     usual arithmetic conversions of C (so, as in C, an Int64 -1 is
//     greater than a Uint64 1, and integers compared with a Float are
//     rounded to float32 first);
//   - Decimal with integers, floating point and Decimal: the other operand
//     is converted to Decimal and the numbers are compared exactly (NaN
//     compares false; infinities and floats beyond the range of Decimal
//     compare by sign);
//   - within the Time group: Time with Time, Date with Date, Datetime with
//     Datetime (as instants, so the zone counts), Time with the time part
//     of a Datetime, Date with the date part of a Datetime; Date with Time
//     is not allowed;
//   - Char with Char and Byte with Byte: byte by byte.
//
// Otherwise it returns ErrOp for an invalid op and ErrOpDatatypeMismatch
// for an operation or a pair of datatypes that is not allowed.
//
// Values with several elements: if the lengths differ the result is false;
// otherwise it is true exactly when op holds for every pair of elements at
// the same position (so NotEqual needs every element to differ). Two empty
// values satisfy every op.
func Compare(op Op, a, b Value) (bool, error) {
	if !op.Valid() {
		return false, Errorf(ErrOp, "%v", op)
	}
	if !op.Defined(a.dt) || !op.Defined(b.dt) {
		return false, Errorf(ErrOpDatatypeMismatch, "%v is not defined for %v and %v", op, a.dt, b.dt)
	}
	if !comparableTypes(a.dt, b.dt) {
		return false, Errorf(ErrOpDatatypeMismatch, "%v and %v cannot be compared", a.dt, b.dt)
	}
	if a.Len() != b.Len() {
		return false, nil
	}
	as, bs := a.dt.size(), b.dt.size()
	for i := 0; i < a.Len(); i++ {
		c, ok, err := compareElements(a.dt, []byte(a.raw[i*as:(i+1)*as]), b.dt, []byte(b.raw[i*bs:(i+1)*bs]))
		if err != nil {
			return false, err
		}
		if !ok || !opHolds(op, c) {
			return false, nil
		}
	}
	return true, nil
}

func comparableTypes(x, y Datatype) bool {
	gx, gy := x.Group(), y.Group()
	numeric := func(g Group) bool { return g == GroupInteger || g == GroupFloat || g == GroupDecimal }
	switch {
	case numeric(gx) && numeric(gy):
		return true
	case gx == GroupTime && gy == GroupTime:
		return !(x == DateType && y == TimeType || x == TimeType && y == DateType)
	case gx == GroupChar || gx == GroupByte:
		return x == y
	}
	return false
}

func opHolds(op Op, c int) bool {
	switch op {
	case Equal:
		return c == 0
	case NotEqual:
		return c != 0
	case Greater:
		return c > 0
	case EqGreater:
		return c >= 0
	case Smaller:
		return c < 0
	case EqSmaller:
		return c <= 0
	}
	return false
}

func cmp3[T int64 | uint64 | float64 | float32 | uint32 | int32](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// compareElements returns the three-way comparison of two elements; ok is
// false if they are unordered (a NaN is involved), which makes every op
// false as in C.
func compareElements(ad Datatype, a []byte, bd Datatype, b []byte) (c int, ok bool, err error) {
	switch ad.Group() {
	case GroupChar, GroupByte:
		return bytesCompare(a, b), true, nil
	case GroupTime:
		return compareTimes(ad, a, bd, b)
	}
	x, err := decodeNumber(ad, a)
	if err != nil {
		return 0, false, err
	}
	y, err := decodeNumber(bd, b)
	if err != nil {
		return 0, false, err
	}
	if x.kind == GroupDecimal || y.kind == GroupDecimal {
		return compareWithDecimal(x, y)
	}
	if x.kind == GroupFloat || y.kind == GroupFloat {
		// The usual arithmetic conversions: float if neither is double.
		single := (x.kind != GroupFloat || x.isSingle) && (y.kind != GroupFloat || y.isSingle)
		fx, fy := x.asFloat(single), y.asFloat(single)
		if math.IsNaN(fx) || math.IsNaN(fy) {
			return 0, false, nil
		}
		return cmp3(fx, fy), true, nil
	}
	return compareCIntegers(x, y), true, nil
}

func bytesCompare(a, b []byte) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return cmp3(int32(a[i]), int32(b[i]))
		}
	}
	return cmp3(int64(len(a)), int64(len(b)))
}

// asFloat returns x converted to float (single) or double, as C would.
func (x number) asFloat(single bool) float64 {
	var f float64
	switch {
	case x.kind == GroupFloat:
		f = x.f
	case x.signed:
		if single {
			return float64(float32(int64(x.bits)))
		}
		return float64(int64(x.bits))
	default:
		if single {
			return float64(float32(x.bits))
		}
		return float64(x.bits)
	}
	if single {
		f = float64(float32(f))
	}
	return f
}

// cType is an integer type after C's integer promotions: int, unsigned
// int, long or unsigned long (LP64).
type cType struct {
	wide   bool // 64 bits
	signed bool
}

func promoted(x number) cType {
	switch x.dt {
	case Int64:
		return cType{true, true}
	case Uint64:
		return cType{true, false}
	case Uint32:
		return cType{false, false}
	}
	return cType{false, true} // Bool, 8- and 16-bit types and Int32 promote to int
}

// compareCIntegers compares two integers after the usual arithmetic
// conversions of C.
func compareCIntegers(x, y number) int {
	tx, ty := promoted(x), promoted(y)
	var common cType
	switch {
	case tx == ty:
		common = tx
	case tx.signed == ty.signed:
		common = cType{tx.wide || ty.wide, tx.signed}
	default:
		s, u := tx, ty
		if !tx.signed {
			s, u = ty, tx
		}
		switch {
		case u.wide || !s.wide: // unsigned rank >= signed rank
			common = u
		default: // long can hold every unsigned int
			common = s
		}
	}
	a, b := x.bits, y.bits
	switch {
	case !common.wide && common.signed:
		return cmp3(int32(a), int32(b))
	case !common.wide:
		return cmp3(uint32(a), uint32(b))
	case common.signed:
		return cmp3(int64(a), int64(b))
	}
	return cmp3(a, b)
}

func compareWithDecimal(x, y number) (int, bool, error) {
	toDec := func(n number) (d Decimal, inf int, ok bool) {
		switch {
		case n.kind == GroupDecimal:
			return n.dec, 0, true
		case n.kind == GroupFloat:
			if math.IsNaN(n.f) {
				return Decimal{}, 0, false
			}
			if math.IsInf(n.f, 0) || math.Abs(n.f) >= 1e65 {
				if n.f > 0 {
					return Decimal{}, 1, true
				}
				return Decimal{}, -1, true
			}
			d, _ := DecimalFromFloat64(n.f)
			return d, 0, true
		case n.signed:
			return DecimalFromInt64(int64(n.bits)), 0, true
		}
		return DecimalFromUint64(n.bits), 0, true
	}
	dx, ix, okx := toDec(x)
	dy, iy, oky := toDec(y)
	if !okx || !oky {
		return 0, false, nil
	}
	if ix != 0 || iy != 0 {
		return cmp3(int64(ix), int64(iy)), true, nil
	}
	return dx.Cmp(dy), true, nil
}

func compareTimes(ad Datatype, a []byte, bd Datatype, b []byte) (int, bool, error) {
	// Reduce both to the common part: time of day, date, or instant.
	key := func(d Datatype, raw []byte, part Datatype) (int64, error) {
		switch d {
		case TimeType:
			t, err := decodeTime(raw)
			return t.millis(), err
		case DateType:
			x, err := decodeDate(raw)
			return x.days(), err
		}
		dt, err := decodeDatetime(raw)
		switch part {
		case TimeType:
			return dt.time.millis(), err
		case DateType:
			return dt.date.days(), err
		}
		return dt.instant(), err
	}
	part := DatetimeType
	if ad != DatetimeType {
		part = ad
	} else if bd != DatetimeType {
		part = bd
	}
	ka, err := key(ad, a, part)
	if err != nil {
		return 0, false, err
	}
	kb, err := key(bd, b, part)
	if err != nil {
		return 0, false, err
	}
	return cmp3(ka, kb), true, nil
}
