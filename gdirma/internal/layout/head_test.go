package layout

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gdi-go/gdi/gdi"
)

// randomHead returns random labels and properties, values of several
// datatypes and lengths.
func randomHead(rng *rand.Rand) ([]uint32, []Property) {
	labels := make([]uint32, rng.IntN(5))
	for i := range labels {
		labels[i] = uint32(rng.IntN(1 << uint(1+rng.IntN(31))))
	}
	props := make([]Property, rng.IntN(6))
	for i := range props {
		pt := uint32(rng.IntN(1 << uint(1+rng.IntN(20))))
		switch rng.IntN(3) {
		case 0:
			props[i] = Property{Ptype: pt, Value: gdi.Int64s(rng.Int64(), rng.Int64())}
		case 1:
			props[i] = Property{Ptype: pt, Value: gdi.Bytes(make([]byte, rng.IntN(300)))}
		default:
			props[i] = Property{Ptype: pt, Value: gdi.Chars("x")}
		}
	}
	return labels, props
}

// TestHeadRoundTrip writes random heads followed by degrees and reads them
// back with HeadEnd, HeadWalk, the lookups and Degrees.
func TestHeadRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for round := range 2000 {
		labels, props := randomHead(rng)
		deg := [3]uint64{rng.Uint64N(1 << 40), rng.Uint64N(300), rng.Uint64N(5)}
		head := AppendHead(nil, labels, props)
		b := AppendDegrees(append([]byte(nil), head...), deg)
		end, nl, np, err := HeadEnd(b)
		if err != nil || end != len(head) || nl != len(labels) || np != len(props) {
			t.Fatalf("round %d: HeadEnd = (%d, %d, %d, %v), want (%d, %d, %d, nil)", round, end, nl, np, err, len(head), len(labels), len(props))
		}
		if err := CheckHead(head); err != nil {
			t.Fatalf("round %d: CheckHead: %v", round, err)
		}
		w := WalkHead(head)
		var gotLabels []uint32
		for n := w.Count(); n > 0; n-- {
			gotLabels = append(gotLabels, uint32(w.Uvarint()))
		}
		for i, n := 0, int(w.Count()); i < n; i++ {
			pt, dt, raw := w.Property()
			v, err := gdi.NewValue(dt, raw)
			if err != nil || pt != props[i].Ptype || v != props[i].Value {
				t.Fatalf("round %d: property %d reads (%d, %v, %v), want %+v", round, i, pt, v, err, props[i])
			}
		}
		if !w.OK() || w.Read(head) != len(head) || !slices.Equal(gotLabels, labels) {
			t.Fatalf("round %d: walk ok %v, read %d of %d, labels %v, want %v", round, w.OK(), w.Read(head), len(head), gotLabels, labels)
		}
		if LabelCount(head) != len(labels) {
			t.Fatalf("round %d: LabelCount %d, want %d", round, LabelCount(head), len(labels))
		}
		for _, l := range labels {
			if !HasLabel(head, l) {
				t.Fatalf("round %d: HasLabel(%d) false", round, l)
			}
		}
		if len(props) > 0 {
			raw, ok := RawProperty(head, props[0].Ptype)
			if !ok || string(raw) != props[0].Value.RawString() {
				t.Fatalf("round %d: RawProperty(%d) = %x, %v", round, props[0].Ptype, raw, ok)
			}
		}
		got, rest, err := Degrees(b[end:])
		if err != nil || got != deg || len(rest) != 0 || !PrefixHolds(b) {
			t.Fatalf("round %d: Degrees = (%v, %d left, %v), want %v; PrefixHolds %v", round, got, len(rest), err, deg, PrefixHolds(b))
		}
		if PrefixHolds(b[:len(b)-1]) {
			t.Fatalf("round %d: PrefixHolds of a prefix cut inside the degrees", round)
		}
	}
}

// FuzzHeadNeverPanics reads arbitrary bytes as a head and degrees.
func FuzzHeadNeverPanics(f *testing.F) {
	f.Add(AppendDegrees(AppendHead(nil, []uint32{3, 200}, []Property{{Ptype: 7, Value: gdi.Int64s(1)}}), [3]uint64{1, 2, 3}))
	f.Add([]byte{0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		end, _, _, err := HeadEnd(b)
		if err == nil && (end < 0 || end > len(b)) {
			t.Fatalf("HeadEnd gives end %d of %d bytes", end, len(b))
		}
		_ = CheckHead(b)
		HasLabel(b, 3)
		LabelCount(b)
		RawProperty(b, 7)
		PrefixHolds(b)
		Degrees(b)
	})
}
