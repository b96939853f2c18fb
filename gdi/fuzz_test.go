package gdi_test

import (
	"strings"
	"testing"

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
		_, err = gdi.Compare(gdi.Op(op), v, w)
		coded(t, "Compare", err)
		if a.Group() == gdi.GroupFloat {
			return // NaN != NaN
		}
		if eq, err := gdi.Compare(gdi.Equal, v, v); err == nil && !eq {
			t.Fatalf("%v %v does not equal itself", a, v)
		}
	})
}
