package gdirma

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/gdirma/internal/store"
)

// TestRefCodecRoundTrip encodes random references of every shape (edges
// numbered after this vertex, after the other end, by a holder; loops;
// stubs; labels) and checks that decoding gives them back, in order, and
// that the short forms are used where they apply.
func TestRefCodecRoundTrip(t *testing.T) {
	const bs = 256
	st := &graph{Store: store.Detached(0, bs)}
	rng := rand.New(rand.NewPCG(1, 2))
	// Most vertices are in the first blocks of the first ranks, where
	// their references take the compact form; some are not.
	vertex := func() layout.Number {
		switch rng.IntN(8) {
		case 0:
			return layout.Number(1+rng.IntN(1000))<<48 | layout.Number(1+rng.IntN(1000))*bs
		case 1:
			return layout.Number(rng.IntN(4))<<48 | layout.Number(1<<24-2+rng.IntN(4))*bs
		}
		return layout.Number(rng.IntN(4))<<48 | layout.Number(1+rng.IntN(1000))*bs
	}
	slot := func() int {
		if rng.IntN(2) == 0 {
			return 1 + rng.IntN(0xff)
		}
		return 1 + rng.IntN(layout.MaxSlot)
	}
	for range 2000 {
		self := vertex()
		cd := st.Codec(self.Holder())
		var es edgeSet
		for range rng.IntN(20) {
			other := vertex()
			var n layout.Number
			x := layout.Ref{Dir: gdi.DirectionType(1 + rng.IntN(2))}
			switch rng.IntN(4) {
			case 0: // numbered after this vertex, which is the origin
				n = st.lightNumber(self, slot())
				x.Origin, x.Target = self, other
			case 1: // numbered after the other end, the origin
				n = st.lightNumber(other, slot())
				x.Origin, x.Target = other, self
			case 2: // a holder's number; maybe a loop
				n = vertex()
				x.Origin, x.Target = self, self
				if rng.IntN(2) == 0 {
					x.Origin = other
				}
			case 3: // a stub naming the holder of an edge numbered here
				n = st.lightNumber(self, 1+rng.IntN(layout.MaxSlot))
				x = layout.Ref{Holder: vertex()}
			}
			if x.Dir != 0 && rng.IntN(2) == 0 {
				x.Label = uint32(1 + rng.IntN(100))
			}
			if x.Dir != 0 && rng.IntN(4) == 0 {
				x.Holder = vertex()
			}
			es.set(n, x)
		}
		r := &record{vertexRefs: vertexRefs{es: es}}
		img := encodeRecord(vertexKind, r, cd)
		got := new(record)
		if err := decodeRecord(got, vertexKind, img, cd); err != nil {
			t.Fatalf("decode: %v", err)
		}
		raw := got.raw
		back := *got.refs()
		if len(back) != len(es) {
			t.Fatalf("%d references back, want %d", len(back), len(es))
		}
		for i := range es {
			if back[i] != es[i] {
				t.Fatalf("reference %d: got %+v, want %+v", i, back[i], es[i])
			}
		}
		// head agrees with next on what it decodes.
		b := raw
		for i := range es {
			n, f, label, rest, ok := cd.Head(b)
			x := es[i].ref
			if !ok || n != es[i].n || gdi.DirectionType(f&layout.RfDir) != x.Dir || label != x.Label ||
				(x.Dir != 0 && ((f&layout.RfOrigin != 0) != (x.Origin == self) || (f&layout.RfTarget != 0) != (x.Target == self))) {
				t.Fatalf("head of reference %d: %d %#x %d %v, want %+v", i, n, f, label, ok, es[i])
			}
			if m, size, ok := cd.Number(b); !ok || m != n || size != len(b)-len(rest) {
				t.Fatalf("number of reference %d: %d, %d bytes, %v; want %d, %d bytes", i, m, size, ok, n, len(b)-len(rest))
			}
			b = rest
		}
		if len(b) != 0 {
			t.Fatalf("%d bytes after the last reference", len(b))
		}
		d, in, out := r.degrees(self)
		if got.deg != [3]uint64{d, in, out} {
			t.Fatalf("degrees %v, want %v", got.deg, [3]uint64{d, in, out})
		}
	}
	// The common lightweight references are small: the compact form,
	// with a rank byte for an end on another rank, a second slot byte
	// for a slot above 255, and 4 bytes for a label. Others are wide.
	far := layout.Number(1<<24) * bs
	for _, c := range []struct {
		name               string
		origin, target     layout.Number
		slot               int
		label              uint32
		atOrigin, atTarget int
	}{
		{"one rank", bs, 2 * bs, 7, 0, 5, 5},
		{"two ranks", bs, 1<<48 | 2*bs, 7, 0, 6, 6},
		{"wide slot", bs, 2 * bs, 300, 0, 6, 6},
		{"label", bs, 2 * bs, 7, 9, 9, 9},
		{"target past 2^24 blocks", bs, far, 7, 0, 11, 5},
		{"origin past 2^24 blocks", far, bs, 7, 0, 5, 9},
		{"target rank past 255", bs, 300<<48 | 2*bs, 7, 0, 11, 6},
	} {
		n := st.lightNumber(c.origin, c.slot)
		x := layout.Ref{Dir: gdi.Undirected, Origin: c.origin, Target: c.target, Label: c.label}
		for _, end := range []struct {
			v    layout.Number
			want int
		}{{c.origin, c.atOrigin}, {c.target, c.atTarget}} {
			cd := st.Codec(end.v.Holder())
			b := cd.Append(nil, n, x)
			m, y, rest, ok := cd.Next(b)
			if len(b) != end.want || !ok || m != n || y != x || len(rest) != 0 {
				t.Errorf("%s: the reference at %#x takes %d bytes (want %d) and decodes to %#x %+v %v", c.name, end.v, len(b), end.want, m, y, ok)
			}
		}
	}
}

// TestRefCodecRejectsGarbage checks that malformed references fail to
// decode instead of panicking.
func TestRefCodecRejectsGarbage(t *testing.T) {
	st := &graph{Store: store.Detached(0, 64)}
	cd := st.Codec(bgdl.DPtr(64))
	rng := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		b := make([]byte, rng.IntN(30))
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		_ = decodeRecord(new(record), vertexKind, b, cd) // must not panic
	}
	if _, _, _, ok := cd.Next([]byte{byte(gdi.Directed)}); ok {
		t.Error("a reference with no end decoded")
	}
	// Compact references with both ends, no end or slot 0, or cut off.
	for _, b := range [][]byte{
		{layout.RfCompact | layout.RfOrigin | layout.RfTarget, 1, 2, 0, 0},
		{layout.RfCompact, 1, 2, 0, 0},
		{layout.RfCompact | layout.RfOrigin, 0, 2, 0, 0},
		{layout.RfCompact | layout.RfTarget, 1, 2, 0},
		{layout.RfCompact | layout.RfTarget | layout.RfLabel, 1, 2, 0, 0},
	} {
		if _, _, _, ok := cd.Next(b); ok {
			t.Errorf("next(%v) decoded", b)
		}
		if _, _, ok := cd.Number(b); ok {
			t.Errorf("number(%v) decoded", b)
		}
		if _, _, _, _, ok := cd.Head(b); ok {
			t.Errorf("head(%v) decoded", b)
		}
		if layout.LightRefSizes[b[0]] != 0 && b[0]&(layout.RfOrigin|layout.RfTarget) != layout.RfOrigin && b[0]&(layout.RfOrigin|layout.RfTarget) != layout.RfTarget {
			t.Errorf("flags %#x of a malformed reference count as lightweight", b[0])
		}
	}
	// Tombstones too short, too long or cut off end the walk.
	for _, b := range [][]byte{{layout.RfDead}, {layout.RfDead, 0}, {layout.RfDead, 1}, {layout.RfDead, 9}, {layout.RfDead, 2, layout.RfDead}} {
		if _, _, _, ok := cd.Next(b); ok {
			t.Errorf("next(%v) decoded", b)
		}
		if _, _, ok := cd.Number(b); ok && len(b) < 3 {
			t.Errorf("number(%v) decoded", b) // its first entry is malformed
		}
		if _, _, _, _, ok := cd.Head(b); ok {
			t.Errorf("head(%v) decoded", b)
		}
	}
}

// TestRawRefEdits edits the undecoded references of a record at random
// (getRef, setRef, delRef, which remember the last reference found) and
// checks each answer and the final set against a decoded copy edited
// alike. Long references get tombstones (delRef), which every walk must
// skip, and which must change only the bytes the record says it changed.
// Most rounds give the record the fences of its blocks, so that rawFind
// starts its walks from them.
func TestRawRefEdits(t *testing.T) {
	const bs = 256
	st := &graph{Store: store.Detached(0, bs)}
	rng := rand.New(rand.NewPCG(7, 8))
	self := layout.Number(3 * bs)
	cd := st.Codec(self.Holder())
	for round := range 200 {
		var model edgeSet
		for range rng.IntN(60) {
			model.set(st.lightNumber(self, 1+rng.IntN(200)), layout.Ref{Dir: gdi.Directed, Origin: self, Target: layout.Number(1)<<48 | bs})
		}
		head := &record{vertexRefs: vertexRefs{es: slices.Clone(model)}}
		if round%3 == 2 { // labels and properties that fill blocks
			head.prps = []layout.Property{{Ptype: 1, Value: gdi.Bytes(make([]byte, 300+rng.IntN(500)))}}
		}
		parts := encodeParts(vertexKind, head, cd, nil)
		img := append(slices.Clone(parts.Head), parts.Tail...)
		r := new(record)
		if err := decodeRecord(r, vertexKind, img, cd); err != nil {
			t.Fatal(err)
		}
		if round%4 != 0 { // as read from blocks, with fences for rawFind
			r.long = &longRefs{fences: st.FencesOf(self.Holder(), parts)}
		}
		orig := slices.Clone(r.raw)
		for step := range 100 {
			n := st.lightNumber(self, 1+rng.IntN(200))
			op := rng.IntN(3)
			if round%2 == 1 && op == 1 {
				op = 2 // rounds without setRef, which keep r.edit on
			}
			switch op {
			case 0:
				got, ok := r.getRef(n)
				want, wok := model.get(n)
				if ok != wok || got != want {
					t.Fatalf("round %d step %d: getRef(%d) = %+v %v, want %+v %v", round, step, n, got, ok, want, wok)
				}
			case 1:
				x := layout.Ref{Dir: gdi.DirectionType(1 + rng.IntN(2)), Origin: self, Target: layout.Number(rng.IntN(2))<<48 | layout.Number(1+rng.IntN(9))*bs}
				r.setRef(n, x)
				model.set(n, x)
			case 2:
				if got, want := r.delRef(n), model.del(n); got != want {
					t.Fatalf("round %d step %d: delRef(%d) = %v, want %v", round, step, n, got, want)
				}
			}
		}
		checkEdited(t, r, orig, model, cd)
		if got := r.refList(); !slices.Equal(got, model) && !(len(got) == 0 && len(model) == 0) {
			t.Fatalf("round %d: references %v, want %v", round, got, model)
		}
	}
}

// checkEdited checks the undecoded references of r against model: every
// walk (cursor, number, head, degrees, checkRefs, a re-encoded image) sees
// the references of model and skips tombstones, and with r.edit on, raw
// differs from orig, the references it was decoded from, only where edit
// says.
func checkEdited(t *testing.T, r *record, orig []byte, model edgeSet, cd layout.Codec) {
	t.Helper()
	if r.raw == nil {
		return
	}
	if r.edit.on {
		if len(r.raw) != len(orig) {
			t.Fatalf("edit on, but references of %d bytes, were %d", len(r.raw), len(orig))
		}
		if !bytes.Equal(r.raw[:r.edit.lo], orig[:r.edit.lo]) || !bytes.Equal(r.raw[r.edit.hi:], orig[r.edit.hi:]) {
			t.Fatalf("references changed outside [%d, %d)", r.edit.lo, r.edit.hi)
		}
	}
	var got edgeSet
	for c := r.cursor(); ; {
		n, x, ok := c.next()
		if !ok {
			break
		}
		got = append(got, edgeEntry{n, x})
	}
	if !slices.Equal(got, model) {
		t.Fatalf("cursor: %v, want %v", got, model)
	}
	var nums, heads []layout.Number
	for b := r.raw; len(b) > 0; {
		n, size, ok := cd.Number(b)
		if !ok {
			break
		}
		if n != 0 || b[0] != layout.RfDead {
			nums = append(nums, n)
		}
		b = b[size:]
	}
	for b := r.raw; len(b) > 0; {
		n, _, _, rest, ok := cd.Head(b)
		if !ok {
			break
		}
		heads, b = append(heads, n), rest
	}
	if want := model.nums(); !slices.Equal(nums, want) || !slices.Equal(heads, want) {
		t.Fatalf("number walk %v, head walk %v, want %v", nums, heads, want)
	}
	if err := checkRefs(r.raw, r.nraw, cd); err != nil || r.nraw != len(model) {
		t.Fatalf("checkRefs: %v; %d references, want %d", err, r.nraw, len(model))
	}
	d, in, out := r.countDegrees(cd.Self)
	if r.hdr && r.deg != [3]uint64{d, in, out} {
		t.Fatalf("degrees kept %v, counted %v", r.deg, []uint64{d, in, out})
	}
	back := new(record)
	if err := decodeRecord(back, vertexKind, encodeRecord(vertexKind, r, cd), cd); err != nil {
		t.Fatal(err)
	}
	if got := back.refList(); !slices.Equal(got, model) {
		t.Fatalf("re-encoded: %v, want %v", got, model)
	}
}

// TestEdgeUIDOfLightEdges checks the shortcut of store.LightUID against
// the UID of the origin vertex, for several block sizes, ranks and slots.
func TestEdgeUIDOfLightEdges(t *testing.T) {
	for _, bs := range []int{64, 256, 512, 4096} {
		st := &graph{Store: store.Detached(0x1234, bs)}
		tx := &Transaction{db: &Database{st: st}}
		for _, rank := range []int{0, 1, 3, 0x7fff} {
			for _, block := range []int{0, 1, 77, 1<<20 + 5, 1<<32 - 1} {
				for _, slot := range []int{1, 2, layout.MaxSlot} {
					v := layout.Number(rank)<<48 | layout.Number(block*bs)
					n := st.lightNumber(v, slot)
					want := gdi.EdgeUID{st.UID(st.lightOrigin(n).Holder()), uint64(slot)}
					if got := tx.edgeUID(n); got != want {
						t.Errorf("bs %d: edgeUID(%#x) = %v, want %v", bs, n, got, want)
					}
					if got := tx.appendEdgeUID(nil, n); len(got) != 1 || got[0] != want {
						t.Errorf("bs %d: appendEdgeUID(%#x) = %v, want [%v]", bs, n, got, want)
					}
				}
			}
		}
		heavy := layout.Number(3)<<48 | layout.Number(12*bs)
		if got, want := tx.appendEdgeUID(nil, heavy), (gdi.EdgeUID{0x1234<<48 | 3<<32 | 12, 0}); got[0] != want {
			t.Errorf("bs %d: appendEdgeUID(heavy %#x) = %v, want %v", bs, heavy, got[0], want)
		}
	}
}

// decodeRecord decodes the image b of an object of kind k into r, a zero
// record, labels and properties included.
func decodeRecord(r *record, k kind, b []byte, cd layout.Codec) error {
	if err := decodeImage(r, k, b, cd); err != nil {
		return err
	}
	return r.decodeHeadNow()
}
