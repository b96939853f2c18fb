package csvimport

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gdi-go/gdi/gdi"
)

// valueType is the type of a property column (name:type, or name:type[]
// for an array), as a gdi datatype.
type valueType struct {
	dt gdi.Datatype
	// array: the field holds elements separated by the array delimiter:
	// one value of as many elements, or for strings (strings []) one
	// value per element, of a property type of multiple entity.
	array, strings bool
}

// info is the property type a column of type t makes.
func (t valueType) info(name string) gdi.PropertyTypeInfo {
	e := gdi.SingleEntity
	if t.strings {
		e = gdi.MultipleEntity
	}
	return gdi.PropertyTypeInfo{Name: name, Entity: e, Datatype: t.dt, Size: gdi.NoSizeLimit}
}

// types maps the types of neo4j-admin import to gdi datatypes.
var types = map[string]gdi.Datatype{
	"string": gdi.Char, "char": gdi.Char,
	"boolean": gdi.Bool,
	"byte":    gdi.Int8, "short": gdi.Int16, "int": gdi.Int32, "long": gdi.Int64,
	"float": gdi.Float, "double": gdi.Double,
	"date": gdi.DateType, "localtime": gdi.TimeType,
	"datetime": gdi.DatetimeType, "localdatetime": gdi.DatetimeType,
}

// parseType parses the type of a property column; none is a string.
func parseType(s string) (valueType, error) {
	if s == "" {
		return valueType{dt: gdi.Char}, nil
	}
	name, array := strings.CutSuffix(strings.ToLower(s), "[]")
	dt, ok := types[name]
	if !ok {
		return valueType{}, fmt.Errorf("type %q is not one of string, char, boolean, byte, short, int, long, float, double, date, localtime, datetime, localdatetime (or an array of one, with [])", s)
	}
	return valueType{dt: dt, array: array, strings: array && dt == gdi.Char}, nil
}

// parseValues appends to out the values field holds, of type t, its
// elements separated by arrayDelim: none for an empty field.
func parseValues(t valueType, field string, arrayDelim byte, out []gdi.Value) ([]gdi.Value, error) {
	if field == "" {
		return out, nil
	}
	switch {
	case t.strings:
		for _, e := range strings.Split(field, string(arrayDelim)) {
			out = append(out, gdi.Chars(e))
		}
		return out, nil
	case t.dt == gdi.Char:
		return append(out, gdi.Chars(field)), nil
	}
	elems := []string{field}
	if t.array {
		elems = strings.Split(field, string(arrayDelim))
	}
	raw := make([]byte, 0, len(elems)*8)
	for _, e := range elems {
		v, err := parseElement(t.dt, e)
		if err != nil {
			return out, err
		}
		raw = append(raw, v.Raw()...)
	}
	v, err := gdi.NewValue(t.dt, raw)
	if err != nil {
		return out, err
	}
	return append(out, v), nil
}

// parseElement parses one element of datatype d.
func parseElement(d gdi.Datatype, s string) (gdi.Value, error) {
	bad := func(err error) (gdi.Value, error) {
		return gdi.Value{}, fmt.Errorf("%q is not of type %s: %v", s, typeName(d), err)
	}
	switch d {
	case gdi.Bool:
		b, err := strconv.ParseBool(strings.ToLower(s))
		if err != nil {
			return bad(err)
		}
		return gdi.Bools(b), nil
	case gdi.Int8, gdi.Int16, gdi.Int32, gdi.Int64:
		size, _ := d.Size()
		x, err := strconv.ParseInt(s, 10, 8*size)
		if err != nil {
			return bad(err)
		}
		raw := binary.LittleEndian.AppendUint64(nil, uint64(x))
		return gdi.NewValue(d, raw[:size])
	case gdi.Float, gdi.Double:
		bits := 64
		if d == gdi.Float {
			bits = 32
		}
		x, err := strconv.ParseFloat(s, bits)
		if err != nil {
			return bad(err)
		}
		if d == gdi.Float {
			return gdi.Floats(float32(x)), nil
		}
		return gdi.Doubles(x), nil
	case gdi.DateType:
		t, err := time.Parse(time.DateOnly, s)
		if err != nil {
			return bad(err)
		}
		x, err := gdi.NewDate(t.Year(), int(t.Month()), t.Day())
		if err != nil {
			return bad(err)
		}
		return gdi.Dates(x), nil
	case gdi.TimeType:
		t, err := time.Parse("15:04:05.999999999", s)
		if err != nil {
			return bad(err)
		}
		x, err := gdi.NewTime(t.Hour(), t.Minute(), t.Second(), t.Nanosecond()/1e6)
		if err != nil {
			return bad(err)
		}
		return gdi.Times(x), nil
	case gdi.DatetimeType:
		return parseDatetime(s)
	}
	return bad(fmt.Errorf("no parser"))
}

// datetimeLayouts are the forms of a datetime: ISO 8601 with a T or a
// space, a fraction of a second or none, and a zone (Z or ±hh:mm) or none
// (local, taken as UTC).
var datetimeLayouts = []string{"2006-01-02T15:04:05.999999999Z07:00", "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999"}

func parseDatetime(s string) (gdi.Value, error) {
	var t time.Time
	var err error
	for _, l := range datetimeLayouts {
		if t, err = time.Parse(l, s); err == nil {
			break
		}
	}
	if err != nil {
		return gdi.Value{}, fmt.Errorf("%q is not a datetime (yyyy-MM-ddThh:mm:ss.SSS+hh:mm): %v", s, err)
	}
	_, off := t.Zone()
	zone := off/3600*100 + off%3600/60 // ±hhmm
	x, err := gdi.NewDatetime(t.Year(), int(t.Month()), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond()/1e6, zone)
	if err != nil {
		return gdi.Value{}, fmt.Errorf("%q is not a datetime: %v", s, err)
	}
	return gdi.Datetimes(x), nil
}

// typeName is the import type of datatype d, for messages.
func typeName(d gdi.Datatype) string {
	for name, t := range types {
		if t == d && name != "char" && name != "localdatetime" {
			return name
		}
	}
	return d.String()
}
