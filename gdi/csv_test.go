package gdi

import (
	"errors"
	"testing"
)

func TestSplitCSV(t *testing.T) {
	// The examples of section 14, with ',' between fields and ';' between
	// elements.
	cases := []struct {
		line   string
		fields []string // unescaped
	}{
		{`123;456,your house`, []string{"123;456", "your house"}},
		{`123;456\,your house`, []string{"123;456,your house"}},
		{`123\;456\\,your house`, []string{`123;456\`, "your house"}},
		{`123\;456\\\,your house`, []string{`123;456\,your house`}},
		{`a,,b\tc`, []string{"a", "", "b\tc"}},
	}
	for _, c := range cases {
		raw := SplitCSVLine(c.line, ',')
		if len(raw) != len(c.fields) {
			t.Errorf("%q: %d fields %q, want %d", c.line, len(raw), raw, len(c.fields))
			continue
		}
		for i, f := range raw {
			got, err := UnescapeCSV(f)
			if err != nil || got != c.fields[i] {
				t.Errorf("%q field %d = %q, %v; want %q", c.line, i, got, err, c.fields[i])
			}
		}
	}
	// Elements: "123;456" holds two Int32s, "123\;456" is not a number.
	if v, ok, err := ParseCSVValue(Int32, `123;456`, ';'); err != nil || !ok || v != Int32s(123, 456) {
		t.Errorf("two elements: %v %v %v", v, ok, err)
	}
	if _, _, err := ParseCSVValue(Int32, `123\;456`, ';'); !errors.Is(err, ErrFileFormat) {
		t.Errorf("escaped element delimiter: %v", err)
	}
	if _, err := UnescapeCSV(`abc\`); !errors.Is(err, ErrFileFormat) {
		t.Errorf("lone backslash: %v", err)
	}
}

func TestParseCSVValue(t *testing.T) {
	d, _ := ParseDecimal("-3.25")
	day, _ := NewDate(2019, 10, 17)
	tm, _ := NewTime(8, 5, 9, 7)
	dt, _ := NewDatetime(2019, 10, 17, 8, 5, 9, 7, -330)
	good := []struct {
		d     Datatype
		field string
		want  Value
	}{
		{Char, `John\, Jr.`, Chars("John, Jr.")},
		{Byte, "AAH/", Bytes([]byte{0, 1, 255})},
		{Bool, "true;0;1;false", Bools(true, false, true, false)},
		{Int8, "-128", Int8s(-128)},
		{Uint64, "18446744073709551615", Uint64s(1<<64 - 1)},
		{Double, "103.22", Doubles(103.22)},
		{Float, "-0.5", Floats(-0.5)},
		{DecimalType, "-3.25", Decimals(d)},
		{DateType, "2019-10-17", Dates(day)},
		{TimeType, "08:05:09.007", Times(tm)},
		{DatetimeType, "-0330 2019-10-17 08:05:09.007", Datetimes(dt)},
	}
	for _, c := range good {
		v, ok, err := ParseCSVValue(c.d, c.field, ';')
		if err != nil || !ok || v != c.want {
			t.Errorf("ParseCSVValue(%v, %q) = %v, %v, %v; want %v", c.d, c.field, v, ok, err, c.want)
		}
	}
	if _, ok, err := ParseCSVValue(Int64, "", ';'); ok || err != nil {
		t.Errorf("empty field: %v %v", ok, err)
	}
	bad := []struct {
		d     Datatype
		field string
	}{
		{Int32, "+5"}, {Int32, "007"}, {Uint8, "-1"}, {Uint8, "256"}, {Bool, "yes"}, {Double, "+1.5"},
		{DecimalType, "1e5"}, {DateType, "2019-2-1"}, {DateType, "2019-02-30"}, {TimeType, "8:05:09.007"},
		{DatetimeType, "2019-10-17 08:05:09.007"}, {DatetimeType, "+1500 2019-10-17 08:05:09.007"}, {Byte, "!!"},
	}
	for _, c := range bad {
		if _, _, err := ParseCSVValue(c.d, c.field, ';'); !errors.Is(err, ErrFileFormat) || ErrorClass(err) != ErrFileFormat {
			t.Errorf("ParseCSVValue(%v, %q): %v, want ErrFileFormat", c.d, c.field, err)
		}
	}
}

func TestCSVFileDelimiters(t *testing.T) {
	if err := (CSVFile{FieldDelimiter: ',', ElementDelimiter: ';'}).ValidDelimiters(); err != nil {
		t.Error(err)
	}
	for _, f := range []CSVFile{{FieldDelimiter: 'n', ElementDelimiter: ';'}, {FieldDelimiter: ',', ElementDelimiter: '\\'},
		{FieldDelimiter: ',', ElementDelimiter: ','}, {FieldDelimiter: 0xe9, ElementDelimiter: ';'}} {
		if err := f.ValidDelimiters(); !errors.Is(err, ErrDelimiter) {
			t.Errorf("%q %q: %v", f.FieldDelimiter, f.ElementDelimiter, err)
		}
	}
}
