package gdi_test

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gdi-go/gdi/gdi"
)

// The fuzz tests feed the parsers and the type model arbitrary input. None
// may panic, every error must carry a GDI error code, and results keep the
// properties stated in the comments. go test runs the seeds; make fuzz runs
// each fuzzer longer.

func coded(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil && gdi.ErrorClass(err) == gdi.ErrErrorCode {
		t.Fatalf("%s: error without a GDI code: %v", what, err)
	}
}

// datatype maps a fuzzed byte to a valid datatype.
func datatype(b uint8) gdi.Datatype {
	all := gdi.Datatypes()
	return all[int(b)%len(all)]
}

// FuzzSplitCSVLine: joining the fields with the delimiter gives the line
// back, since fields keep their escapes.
func FuzzSplitCSVLine(f *testing.F) {
	for _, s := range []string{"", "a|b|c", `a\|b|c`, `x\\|y`, `\`, "||", "é|\x00|\xff"} {
		f.Add(s, byte('|'))
	}
	f.Add("1,2;3,4", byte(','))
	f.Fuzz(func(t *testing.T, line string, delim byte) {
		fields := gdi.SplitCSVLine(line, delim)
		if got := strings.Join(fields, string([]byte{delim})); got != line {
			t.Fatalf("SplitCSVLine(%q, %q) = %q, which joins to %q", line, delim, fields, got)
		}
	})
}

// FuzzUnescapeCSV: only a trailing lone backslash is an error, and the
// result is never longer than the input.
func FuzzUnescapeCSV(f *testing.F) {
	for _, s := range []string{"", `a\nb`, `\\`, `\`, `a\|b`, `\t\r\n\x`, "\xff\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, err := gdi.UnescapeCSV(s)
		coded(t, "UnescapeCSV", err)
		trailing := len(s) - len(strings.TrimRight(s, `\`))
		if (err != nil) != (trailing%2 == 1) {
			t.Fatalf("UnescapeCSV(%q) = %q, %v: an error exactly for an odd run of trailing backslashes", s, out, err)
		}
		if len(out) > len(s) {
			t.Fatalf("UnescapeCSV(%q) = %q grew", s, out)
		}
	})
}

// FuzzParseCSVValue: a parsed value has the requested datatype, and an
// absent one has no error.
func FuzzParseCSVValue(f *testing.F) {
	seeds := []struct {
		dt    gdi.Datatype
		field string
	}{
		{gdi.Int64, "-12;34"}, {gdi.Uint8, "256"}, {gdi.Double, "1e308;NaN"}, {gdi.DecimalType, "-1.5"},
		{gdi.DateType, "2020-02-30"}, {gdi.TimeType, "23:59:59.999"}, {gdi.DatetimeType, "+0100 2020-01-01 00:00:00.000"},
		{gdi.Byte, "aGVsbG8="}, {gdi.Byte, "!!"}, {gdi.Char, `a\;b`}, {gdi.Bool, "true;0"}, {gdi.Float, ""},
	}
	for _, s := range seeds {
		f.Add(uint8(s.dt), s.field, byte(';'))
	}
	f.Fuzz(func(t *testing.T, dt uint8, field string, delim byte) {
		d := datatype(dt)
		v, present, err := gdi.ParseCSVValue(d, field, delim)
		coded(t, "ParseCSVValue", err)
		if err == nil && present && v.Datatype() != d {
			t.Fatalf("ParseCSVValue(%v, %q) gave a %v", d, field, v.Datatype())
		}
		if !present && err == nil && field != "" {
			t.Fatalf("ParseCSVValue(%v, %q): a non-empty field is absent", d, field)
		}
	})
}

// FuzzConvertCompare builds a value of one datatype from raw bytes, converts
// it to another and compares the two. A conversion keeps the number of
// elements; a value equals itself unless it holds a floating-point NaN.
func FuzzConvertCompare(f *testing.F) {
	f.Add(uint8(gdi.Int64), uint8(gdi.Double), []byte{1, 0, 0, 0, 0, 0, 0, 0x80}, uint8(gdi.Equal))
	f.Add(uint8(gdi.Double), uint8(gdi.Int8), []byte{0, 0, 0, 0, 0, 0, 0xf8, 0x7f}, uint8(gdi.Smaller))
	f.Add(uint8(gdi.DatetimeType), uint8(gdi.DateType), make([]byte, 11), uint8(gdi.EqGreater))
	f.Add(uint8(gdi.DecimalType), uint8(gdi.Uint16), make([]byte, 67), uint8(gdi.NotEqual))
	f.Add(uint8(gdi.Char), uint8(gdi.Byte), []byte("abc"), uint8(99))
	f.Fuzz(func(t *testing.T, from, to uint8, raw []byte, op uint8) {
		a, b := datatype(from), datatype(to)
		v, err := gdi.NewValue(a, raw)
		coded(t, "NewValue", err)
		vs, errS := gdi.NewValueString(a, string(raw))
		if vs != v || gdi.ErrorClass(errS) != gdi.ErrorClass(err) {
			t.Fatalf("NewValueString(%v, %x) = %v, %v; NewValue gives %v, %v", a, raw, vs, errS, v, err)
		}
		if err != nil {
			return
		}
		_ = v.String()
		w, err := gdi.Convert(v, b)
		coded(t, "Convert", err)
		if err == nil && (w.Datatype() != b || w.Len() != v.Len()) {
			t.Fatalf("Convert(%v %v, %v) = %v %v", a, v, b, w.Datatype(), w)
		}
		switch c := gdi.ErrorClass(err); {
		case !gdi.CanConvert(a, b) && c != gdi.ErrConversion:
			t.Fatalf("Convert(%v %v, %v) = %v, want ErrConversion", a, v, b, err)
		case gdi.CanConvert(a, b) && c != gdi.Success && c != gdi.ErrRange:
			t.Fatalf("Convert(%v %v, %v) = %v, want success or ErrRange", a, v, b, err)
		}
		_, err = gdi.Compare(gdi.Op(op), v, w)
		coded(t, "Compare", err)
		if err == nil {
			// The mirrored operation on swapped operands agrees.
			mirror := map[gdi.Op]gdi.Op{gdi.Equal: gdi.Equal, gdi.NotEqual: gdi.NotEqual, gdi.Greater: gdi.Smaller,
				gdi.Smaller: gdi.Greater, gdi.EqGreater: gdi.EqSmaller, gdi.EqSmaller: gdi.EqGreater}
			r1, _ := gdi.Compare(gdi.Op(op), v, w)
			r2, err2 := gdi.Compare(mirror[gdi.Op(op)], w, v)
			if err2 != nil || r1 != r2 {
				t.Fatalf("Compare(%v, %v %v, %v %v) = %v but the mirror gives %v, %v", gdi.Op(op), a, v, b, w, r1, r2, err2)
			}
		}
		if a.Group() == gdi.GroupFloat {
			return // NaN != NaN
		}
		if eq, err := gdi.Compare(gdi.Equal, v, v); err == nil && !eq {
			t.Fatalf("%v %v does not equal itself", a, v)
		}
	})
}

// FuzzDecimal: a parsed decimal prints as a string that parses to an equal
// decimal; integers convert exactly and keep their order; floats convert
// within the rules of DecimalFromFloat64.
func FuzzDecimal(f *testing.F) {
	f.Add("-1.50", int64(-7), 0.1)
	f.Add("0", int64(0), -0.0)
	f.Add("99999999999999999999999999999999999.999999999999999999999999999999", int64(math.MaxInt64), 1e64)
	f.Add("-0.000", int64(math.MinInt64), math.Inf(-1))
	f.Add("01", int64(1), math.NaN())
	f.Add("1e3", int64(-1), 9.999999999999999e64)
	f.Add("7.", int64(10), 5e-324)
	f.Fuzz(func(t *testing.T, s string, x int64, fl float64) {
		d, err := gdi.ParseDecimal(s)
		coded(t, "ParseDecimal", err)
		if err != nil && gdi.ErrorClass(err) != gdi.ErrDecimal {
			t.Fatalf("ParseDecimal(%q): %v, want ErrDecimal", s, err)
		}
		if err == nil {
			e, err := gdi.ParseDecimal(d.String())
			if err != nil || e.Cmp(d) != 0 || e.String() != d.String() {
				t.Fatalf("ParseDecimal(%q) prints as %q, which parses to %v, %v", s, d, e, err)
			}
			if d.Sign() != e.Sign() || d.Cmp(d) != 0 {
				t.Fatalf("decimal %v: sign or self-comparison wrong", d)
			}
			v, err := gdi.NewValue(gdi.DecimalType, gdi.Decimals(d).Raw())
			if err != nil || v != gdi.Decimals(d) {
				t.Fatalf("decimal %v does not survive its encoding: %v, %v", d, v, err)
			}
		}
		dx := gdi.DecimalFromInt64(x)
		if dx.String() != strconv.FormatInt(x, 10) {
			t.Fatalf("DecimalFromInt64(%d) = %v", x, dx)
		}
		if x < math.MaxInt64 && dx.Cmp(gdi.DecimalFromInt64(x+1)) >= 0 {
			t.Fatalf("DecimalFromInt64(%d) is not below its successor", x)
		}
		if err == nil {
			if want := cmpDecimalInt(d, x); dx.Cmp(d) != -want {
				t.Fatalf("Cmp(%v, %v) = %d, want %d", dx, d, dx.Cmp(d), -want)
			}
		}
		df, err := gdi.DecimalFromFloat64(fl)
		coded(t, "DecimalFromFloat64", err)
		bad := math.IsNaN(fl) || math.IsInf(fl, 0) || math.Abs(fl) >= 1e65
		if (err != nil) != bad || (err != nil && gdi.ErrorClass(err) != gdi.ErrRange) {
			t.Fatalf("DecimalFromFloat64(%g) = %v, %v", fl, df, err)
		}
		if err == nil && math.Abs(df.Float64()-fl) > 1e-30+math.Abs(fl)*1e-15 {
			t.Fatalf("DecimalFromFloat64(%g) = %v, which is %g", fl, df, df.Float64())
		}
	})
}

// cmpDecimalInt compares d with x through big.Rat, independently of Cmp.
func cmpDecimalInt(d gdi.Decimal, x int64) int {
	r, ok := new(big.Rat).SetString(d.String())
	if !ok {
		panic("not a rational: " + d.String())
	}
	return r.Cmp(new(big.Rat).SetInt64(x))
}

// FuzzDatetime: NewTime, NewDate and NewDatetime accept exactly the
// components in range, return them from Parts, and print what
// ParseCSVValue reads back to the same value; comparison of two datetimes
// agrees with their UTC instants.
func FuzzDatetime(f *testing.F) {
	f.Add(2020, 2, 29, 23, 59, 59, 999, 1400, 100)
	f.Add(2019, 2, 29, 0, 0, 0, 0, -1200, -1)
	f.Add(0, 1, 1, 24, 60, 60, 1000, 1460, 0)
	f.Add(9999, 12, 31, 12, 0, 0, 0, 530, 1)
	f.Add(-1, 0, 0, -1, -1, -1, -1, -1201, 7)
	f.Fuzz(func(t *testing.T, y, mo, d, h, mi, s, fr, z, shift int) {
		tm, errT := gdi.NewTime(h, mi, s, fr)
		coded(t, "NewTime", errT)
		if okT := h >= 0 && h <= 23 && mi >= 0 && mi <= 59 && s >= 0 && s <= 59 && fr >= 0 && fr <= 999; okT != (errT == nil) {
			t.Fatalf("NewTime(%d, %d, %d, %d): %v", h, mi, s, fr, errT)
		}
		dt, errD := gdi.NewDate(y, mo, d)
		coded(t, "NewDate", errD)
		if errD == nil {
			if gy, gm, gd := dt.Parts(); gy != y || gm != mo || gd != d {
				t.Fatalf("NewDate(%d, %d, %d).Parts() = %d, %d, %d", y, mo, d, gy, gm, gd)
			}
			if _, err := time.Parse("2006-01-02", dt.String()); err != nil && y >= 0 && y <= 9999 {
				t.Fatalf("NewDate(%d, %d, %d) = %v, which is not a calendar date: %v", y, mo, d, dt, err)
			}
			if y <= 9999 { // the CSV format has four-digit years (spec 14.1)
				roundTrip(t, gdi.DateType, gdi.Dates(dt), dt)
			}
		}
		if errT == nil {
			if gh, gmi, gs, gf := tm.Parts(); gh != h || gmi != mi || gs != s || gf != fr {
				t.Fatalf("NewTime parts %d %d %d %d", gh, gmi, gs, gf)
			}
			roundTrip(t, gdi.TimeType, gdi.Times(tm), tm)
		}
		x, err := gdi.NewDatetime(y, mo, d, h, mi, s, fr, z)
		coded(t, "NewDatetime", err)
		okZ := z >= -1200 && z <= 1400 && (z%100 < 60 && z%100 > -60)
		if (err == nil) != (errT == nil && errD == nil && okZ) {
			t.Fatalf("NewDatetime(%d, %d, %d, %d, %d, %d, %d, %d): %v", y, mo, d, h, mi, s, fr, z, err)
		}
		if err != nil {
			if gdi.ErrorClass(err) != gdi.ErrDatetime {
				t.Fatalf("NewDatetime: %v, want ErrDatetime", err)
			}
			return
		}
		if y <= 9999 {
			roundTrip(t, gdi.DatetimeType, gdi.Datetimes(x), x)
		}
		// The same instant in another zone compares equal; one
		// millisecond later compares greater.
		zone := []int{0, 100, -800, 530, 1400, -1200}[abs(shift)%6]
		if y < 1 || y > 9998 {
			return
		}
		utc := time.Date(y, time.Month(mo), d, h, mi, s, fr*1e6, time.FixedZone("", zoneSeconds(z)))
		for _, later := range []time.Duration{0, time.Millisecond} {
			u := utc.Add(later).In(time.FixedZone("", zoneSeconds(zone)))
			o, err := gdi.NewDatetime(u.Year(), int(u.Month()), u.Day(), u.Hour(), u.Minute(), u.Second(), u.Nanosecond()/1e6, zone)
			if err != nil {
				continue // the other zone's date is out of range
			}
			eq, err1 := gdi.Compare(gdi.Equal, gdi.Datetimes(x), gdi.Datetimes(o))
			lt, err2 := gdi.Compare(gdi.Smaller, gdi.Datetimes(x), gdi.Datetimes(o))
			if err1 != nil || err2 != nil || eq != (later == 0) || lt != (later > 0) {
				t.Fatalf("%v vs %v (%v later): equal %v, smaller %v, errors %v %v", x, o, later, eq, lt, err1, err2)
			}
		}
	})
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func zoneSeconds(z int) int { return (z/100*60 + z%100) * 60 }

// roundTrip checks that the CSV text of x, the element of v, parses back
// to v. Date, Time and Datetime format themselves in the CSV format.
func roundTrip(t *testing.T, dt gdi.Datatype, v gdi.Value, x fmt.Stringer) {
	t.Helper()
	text := x.String()
	w, ok, err := gdi.ParseCSVValue(dt, text, ';')
	if err != nil || !ok || w != v {
		t.Fatalf("%v prints as %q, which parses to %v, %v, %v", dt, text, w, ok, err)
	}
}
