package gdiutil

import (
	"github.com/gdi-go/gdi/gdi"
)

// PropertyType describes a property type named name of datatype d with
// the defaults most programs want: a single entity (one value per
// object) and no size limit.
func PropertyType(name string, d gdi.Datatype) gdi.PropertyTypeInfo {
	return gdi.PropertyTypeInfo{Name: name, Entity: gdi.SingleEntity, Datatype: d, Size: gdi.NoSizeLimit}
}

// Propertied is what has properties: vertex and edge holders.
type Propertied interface {
	Properties(p gdi.PropertyType) ([]gdi.Value, error)
}

// value returns the one value of property p of h; ok is false if h has
// none.
func value(h Propertied, p gdi.PropertyType) (v gdi.Value, ok bool, err error) {
	vs, err := h.Properties(p)
	if err != nil || len(vs) == 0 {
		return gdi.Value{}, false, err
	}
	return vs[0], true, nil
}

// Text returns the text of property p of h (a Char value); ok is false if
// h has none. ErrDatatype if the value is of another datatype.
func Text(h Propertied, p gdi.PropertyType) (s string, ok bool, err error) {
	v, ok, err := value(h, p)
	if err != nil || !ok {
		return "", ok, err
	}
	s, err = v.Text()
	return s, err == nil, err
}

// Int64 returns the first element of property p of h, of any signed or
// unsigned integer datatype; ok is false if h has none. ErrDatatype for
// another datatype; an unsigned element past the range of int64 is
// ErrConversion.
func Int64(h Propertied, p gdi.PropertyType) (x int64, ok bool, err error) {
	v, ok, err := value(h, p)
	if err != nil || !ok || v.Len() == 0 {
		return 0, false, err
	}
	if xs, err := v.Int64Slice(); err == nil {
		return xs[0], true, nil
	}
	us, err := v.Uint64Slice()
	switch {
	case err != nil:
		return 0, false, err
	case us[0] > 1<<63-1:
		return 0, false, gdi.Errorf(gdi.ErrConversion, "%d is past the range of int64", us[0])
	}
	return int64(us[0]), true, nil
}

// Float64 returns the first element of property p of h, of datatype Float
// or Double; ok is false if h has none. ErrDatatype for another datatype.
func Float64(h Propertied, p gdi.PropertyType) (x float64, ok bool, err error) {
	v, ok, err := value(h, p)
	if err != nil || !ok || v.Len() == 0 {
		return 0, false, err
	}
	xs, err := v.Float64Slice()
	if err != nil {
		return 0, false, err
	}
	return xs[0], true, nil
}
