package gdi_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gdi-go/gdi/gdi"
)

// TestDatatypeString: String gives the name of the datatype's constant,
// SpecName the specification's name.
func TestDatatypeString(t *testing.T) {
	names := map[gdi.Datatype][2]string{
		gdi.Char: {"Char", "GDI_CHAR"}, gdi.Bool: {"Bool", "GDI_BOOL"},
		gdi.Int8: {"Int8", "GDI_INT8_T"}, gdi.Int16: {"Int16", "GDI_INT16_T"},
		gdi.Int32: {"Int32", "GDI_INT32_T"}, gdi.Int64: {"Int64", "GDI_INT64_T"},
		gdi.Uint8: {"Uint8", "GDI_UINT8_T"}, gdi.Uint16: {"Uint16", "GDI_UINT16_T"},
		gdi.Uint32: {"Uint32", "GDI_UINT32_T"}, gdi.Uint64: {"Uint64", "GDI_UINT64_T"},
		gdi.Float: {"Float", "GDI_FLOAT"}, gdi.Double: {"Double", "GDI_DOUBLE"},
		gdi.DecimalType: {"DecimalType", "GDI_DECIMAL"}, gdi.TimeType: {"TimeType", "GDI_TIME"},
		gdi.DateType: {"DateType", "GDI_DATE"}, gdi.DatetimeType: {"DatetimeType", "GDI_DATETIME"},
		gdi.Byte: {"Byte", "GDI_BYTE"},
	}
	if len(names) != len(gdi.Datatypes()) {
		t.Errorf("the table has %d datatypes, Datatypes %d", len(names), len(gdi.Datatypes()))
	}
	for _, d := range gdi.Datatypes() {
		if got := [2]string{d.String(), d.SpecName()}; got != names[d] {
			t.Errorf("datatype %d: String and SpecName give %q, want %q", uint8(d), got, names[d])
		}
		if s := fmt.Sprint(d); s != names[d][0] {
			t.Errorf("datatype %d prints as %q, want %q", uint8(d), s, names[d][0])
		}
	}
	for _, d := range []gdi.Datatype{0, 99} {
		want := fmt.Sprintf("Datatype(%d)", uint8(d))
		if d.String() != want || d.SpecName() != want {
			t.Errorf("invalid datatype: %q and %q, want %q", d.String(), d.SpecName(), want)
		}
	}
}

// TestValueString: %v of a Value of each datatype.
func TestValueString(t *testing.T) {
	dec, err1 := gdi.ParseDecimal("-12.50")
	tm, err2 := gdi.NewTime(23, 59, 58, 999)
	date, err3 := gdi.NewDate(2024, 2, 29)
	west, err4 := gdi.NewDatetime(1999, 12, 31, 23, 59, 59, 1, -330)
	east, err5 := gdi.NewDatetime(2010, 6, 10, 11, 5, 56, 0, 530)
	utc, err6 := gdi.NewDatetime(2010, 6, 10, 11, 5, 56, 0, 0)
	if err := errors.Join(err1, err2, err3, err4, err5, err6); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		v    gdi.Value
		want string
	}{
		{gdi.Value{}, "Value{}"},
		{gdi.Chars("Alan"), `"Alan"`},
		{gdi.Chars(""), `""`},
		{gdi.Chars("tab\there\xff"), `"tab\there\xff"`},
		{gdi.Bytes([]byte("alan")), `[]byte("alan")`},
		{gdi.Bytes([]byte{0, 'a', 0xff}), `[]byte{0x0, 0x61, 0xff}`},
		{gdi.Bytes(nil), `[]byte{}`},
		{gdi.Bools(true), "true"},
		{gdi.Bools(true, false), "[true false]"},
		{gdi.Int8s(-128), "-128"},
		{gdi.Int16s(-2, 300), "[-2 300]"},
		{gdi.Int32s(), "[]"},
		{gdi.Int64s(1, 2, 3), "[1 2 3]"},
		{gdi.Int64s(-9223372036854775808), "-9223372036854775808"},
		{gdi.Uint8s(44, 255), "[44 255]"},
		{gdi.Uint16s(65535), "65535"},
		{gdi.Uint32s(4294967295), "4294967295"},
		{gdi.Uint64s(18446744073709551615), "18446744073709551615"},
		{gdi.Floats(0.1), "0.1"},
		{gdi.Floats(1.5, -2), "[1.5 -2]"},
		{gdi.Doubles(0.1, 1e300), "[0.1 1e+300]"},
		{gdi.Decimals(dec), "-12.5"},
		{gdi.Times(tm), "23:59:58.999"},
		{gdi.Dates(date), "2024-02-29"},
		{gdi.Datetimes(west, east, utc), "[1999-12-31T23:59:59.001-03:30 2010-06-10T11:05:56.000+05:30 2010-06-10T11:05:56.000+00:00]"},
	} {
		if got := fmt.Sprint(c.v); got != c.want {
			t.Errorf("%s value prints as %s, want %s", c.v.Datatype(), got, c.want)
		}
	}
}

// TestDatatypeErrorsNameTypes: errors about datatypes use the Go names.
func TestDatatypeErrorsNameTypes(t *testing.T) {
	info := gdi.PropertyTypeInfo{Name: "age", Entity: gdi.SingleEntity, Datatype: gdi.Int64, Size: gdi.NoSizeLimit}
	_, errConv := gdi.Convert(gdi.Int64s(1), gdi.DatetimeType)
	_, _, errCSV := gdi.ParseCSVValue(gdi.Int64, "x", ';')
	for _, c := range []struct {
		err  error
		want []string
	}{
		{info.CheckValue(gdi.Chars("forty")), []string{`"age"`, "Int64", "Char"}},
		{errConv, []string{"Int64", "DatetimeType"}},
		{errCSV, []string{`"x"`, "Int64"}},
	} {
		msg := fmt.Sprint(c.err)
		for _, w := range c.want {
			if !strings.Contains(msg, w) || strings.Contains(msg, "GDI_") {
				t.Errorf("%q: want %s and no C names", msg, w)
			}
		}
	}
}
