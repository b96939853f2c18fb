package graph

import (
	"errors"
	"math"
	"testing"

	"github.com/gdi-go/gdi/cypher/value"
	"github.com/gdi-go/gdi/gdi"
)

// TestEncodeRoundTrip: every value a property can hold comes back
// equivalent (NaN included), in the member of its kind.
func TestEncodeRoundTrip(t *testing.T) {
	for _, v := range []value.Value{
		value.Int(0), value.Int(math.MinInt64), value.Int(math.MaxInt64),
		value.Float(1.5), value.Float(math.Copysign(0, -1)), value.Float(math.Inf(-1)), value.Float(math.NaN()),
		value.Str(""), value.Str("Grüße, 世界"), value.Bool(true), value.Bool(false),
		value.ListOf(), value.ListOf(value.Int(1), value.Str("a"), value.Float(2.5), value.Bool(true), value.Str("")),
	} {
		k, g, ok, err := Encode(v)
		if err != nil || !ok {
			t.Errorf("Encode(%v) = %v, %v", v, ok, err)
			continue
		}
		if g.Datatype() != k.Datatype() {
			t.Errorf("Encode(%v): a %v value for kind %v", v, g.Datatype(), k)
		}
		back, err := Decode(Member{Kind: k, Datatype: k.Datatype()}, g)
		if err != nil || !value.Equivalent(back, v) || back.Kind() != v.Kind() {
			t.Errorf("Decode(Encode(%v)) = %v, %v", v, back, err)
		}
	}
}

// TestNotProperties: null is no property (removed), and values that are
// no property values are a TypeError, InvalidPropertyType.
func TestNotProperties(t *testing.T) {
	if _, _, ok, err := Encode(value.Null); ok || err != nil {
		t.Errorf("Encode(null) = %v, %v; want nothing stored", ok, err)
	}
	node := value.NodeValue(value.Node{ID: 7})
	for _, v := range []value.Value{
		value.NewMap(map[string]value.Value{"a": value.Int(1)}), node,
		value.ListOf(value.ListOf(value.Int(1))), value.ListOf(value.Int(1), value.Null), value.ListOf(node),
	} {
		_, _, ok, err := Encode(v)
		var e *value.Error
		if ok || !errors.As(err, &e) || e.Category != value.TypeError || e.Detail != InvalidPropertyType {
			t.Errorf("Encode(%v) = %v, %v; want TypeError InvalidPropertyType", v, ok, err)
		}
	}
}

// TestDecodeForeign: members made by another program decode by their own
// datatype; several elements are a list, and an unsigned number past
// Integer's range is an error, not a wrong number.
func TestDecodeForeign(t *testing.T) {
	for _, c := range []struct {
		m    Member
		g    gdi.Value
		want value.Value
	}{
		{Member{Kind: Integer, Datatype: gdi.Int32}, gdi.Int32s(-5), value.Int(-5)},
		{Member{Kind: Integer, Datatype: gdi.Int32}, gdi.Int32s(1, 2), value.ListOf(value.Int(1), value.Int(2))},
		{Member{Kind: Integer, Datatype: gdi.Uint8}, gdi.Uint8s(200), value.Int(200)},
		{Member{Kind: Float, Datatype: gdi.Float}, gdi.Floats(0.5), value.Float(0.5)},
		{Member{Kind: Boolean, Datatype: gdi.Bool}, gdi.Bools(true, false), value.ListOf(value.Bool(true), value.Bool(false))},
		{Member{Kind: String, Datatype: gdi.Char}, gdi.Chars("x"), value.Str("x")},
	} {
		got, err := Decode(c.m, c.g)
		if err != nil || !value.Equivalent(got, c.want) {
			t.Errorf("Decode(%v as %v) = %v, %v; want %v", c.g, c.m.Kind, got, err, c.want)
		}
	}
	if got, err := Decode(Member{Kind: Integer, Datatype: gdi.Uint64}, gdi.Uint64s(math.MaxUint64)); err == nil {
		t.Errorf("Decode(2^64-1) = %v, want an error", got)
	}
	if got, err := Decode(Member{Kind: Composite, Datatype: gdi.Byte}, gdi.Bytes([]byte{tagString, 9, 'a'})); gdi.ErrorClass(err) != gdi.ErrIntern {
		t.Errorf("Decode of a cut string = %v, %v; want ErrIntern", got, err)
	}
}

// FuzzDecodeComposite: any bytes decode to a list or an error, and a
// list that decodes encodes to the same bytes.
func FuzzDecodeComposite(f *testing.F) {
	_, g, _, _ := Encode(value.ListOf(value.Int(1), value.Str("ab"), value.Bool(true), value.Float(2)))
	f.Add(g.Raw())
	f.Add([]byte{tagString, 0x80})
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := decodeList(b)
		if err != nil {
			return
		}
		again, err := appendList(nil, v.List())
		if err != nil || string(again) != string(b) {
			t.Fatalf("%x decodes to %v, which encodes to %x, %v", b, v, again, err)
		}
	})
}
