package gdirma

import (
	"errors"
	"slices"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/internal/invariants"
)

// TestLazyHead: a record whose labels and properties are still encoded
// answers hasLabel and matchesID from the encoding, decodes on first use
// to what was encoded, writes the encoding back as it was, and compares
// with records decoded or not. A value that does not decode leaves the
// encoding in place, so that nothing of it is lost (with invariants on,
// it is found when read).
func TestLazyHead(t *testing.T) {
	id := uint32(gdi.PropertyTypeID)
	want := &record{recordHead: recordHead{
		lbls: []uint32{7, 300},
		prps: []layout.Property{{Ptype: id, Value: gdi.Bytes([]byte("v-42"))}, {Ptype: 9, Value: gdi.Int64s(-5)}, {Ptype: 200, Value: gdi.Chars("x")}},
	}}
	img := encodeRecord(edgeKind, want, layout.Codec{})
	lazy := func(img []byte) *record {
		t.Helper()
		var r record
		if err := decodeImage(&r, edgeKind, img, layout.Codec{}); err != nil {
			t.Fatalf("decodeImage: %v", err)
		}
		if r.headRaw == nil {
			t.Fatal("the head was decoded at once")
		}
		return &r
	}
	r := lazy(img)
	for _, c := range []struct {
		name string
		got  bool
		want bool
	}{
		{"hasLabel(7)", r.hasLabel(7), true},
		{"hasLabel(300)", r.hasLabel(300), true},
		{"hasLabel(8)", r.hasLabel(8), false},
		{"matchesID(7, v-42)", r.matchesID(idKey{7, "v-42"}), true},
		{"matchesID(300, v-42)", r.matchesID(idKey{300, "v-42"}), true},
		{"matchesID(8, v-42)", r.matchesID(idKey{8, "v-42"}), false},
		{"matchesID(7, v-4)", r.matchesID(idKey{7, "v-4"}), false},
		{"matchesID(none, v-42)", r.matchesID(idKey{uint32(gdi.LabelNone), "v-42"}), false},
		{"sameHead(lazy, decoded)", sameHead(r, want), true},
		{"sameHead(decoded, lazy)", sameHead(want, r), true},
		{"sameHead(lazy, lazy)", sameHead(r, lazy(img)), true},
	} {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if r.headRaw == nil {
		t.Fatal("answering from the encoding decoded it")
	}
	if got := appendHead(nil, r); string(got) != string(appendHead(nil, want)) {
		t.Errorf("appendHead of the encoded head: %x, want %x", got, appendHead(nil, want))
	}
	if !slices.Equal(r.labels(), want.lbls) || !slices.Equal(r.props(), want.prps) || r.headRaw != nil {
		t.Errorf("decoded: %v %v (still encoded: %v), want %v %v", r.lbls, r.prps, r.headRaw != nil, want.lbls, want.prps)
	}
	// A change decodes first, so the others stay.
	r = lazy(img)
	r.setProps(append(r.props(), layout.Property{Ptype: 201, Value: gdi.Chars("y")}))
	if len(r.prps) != 4 || r.prps[0] != want.prps[0] {
		t.Errorf("after adding a property: %v", r.prps)
	}
	if sameHead(r, want) {
		t.Error("sameHead holds after a change")
	}
	// No labels: matchesID under LabelNone.
	none := encodeRecord(edgeKind, &record{recordHead: recordHead{prps: want.prps[:1]}}, layout.Codec{})
	if r := lazy(none); !r.matchesID(idKey{uint32(gdi.LabelNone), "v-42"}) || r.matchesID(idKey{7, "v-42"}) {
		t.Error("matchesID of a vertex without labels")
	}
	// A Bool of 2 does not decode: the encoding stays, and is written back.
	b := &record{recordHead: recordHead{prps: []layout.Property{{Ptype: 9, Value: gdi.Bools(true)}}}}
	bad := encodeRecord(edgeKind, b, layout.Codec{})
	bad[len(appendHead(nil, b))-1] = 2 // the Bool's byte ends the head
	// With invariants on, the head is checked when read.
	if invariants.Enabled {
		if err := decodeImage(new(record), edgeKind, bad, layout.Codec{}); err == nil {
			t.Error("with invariants on, decodeImage took a Bool of 2")
		}
		return
	}
	r = lazy(bad)
	if err := r.decodeHeadNow(); !errors.Is(err, errImage) {
		t.Errorf("decoding a Bool of 2: %v, want errImage", err)
	}
	if r.headRaw == nil || len(r.props()) != 0 || string(appendHead(nil, r)) != string(bad[:r.headLen]) {
		t.Errorf("after a failed decode: encoded %v, props %v, appendHead %x", r.headRaw != nil, r.prps, appendHead(nil, r))
	}
}
