package layout

import (
	"math/rand/v2"
	"testing"

	"github.com/gdi-go/gdi/gdi"
)

// vertexNum is the number of the vertex whose primary block is block on
// rank (a DPtr: rank in the high 16 bits, byte offset below).
func vertexNum(rank, block, bs int) Number { return Number(rank)<<48 | Number(block*bs) }

// randomRef returns a random edge of vertex self, as its number and the
// Ref self's image keeps: lightweight or not, numbered after either end or
// by a holder, a loop, or a stub.
func randomRef(rng *rand.Rand, self Number, bs int) (Number, Ref) {
	other := vertexNum(rng.IntN(300), rng.IntN(1<<25), bs)
	dir := gdi.Directed
	if rng.IntN(2) == 0 {
		dir = gdi.Undirected
	}
	slot := 1 + rng.IntN(MaxSlot)
	if rng.IntN(2) == 0 {
		slot = 1 + rng.IntN(255)
	}
	label := uint32(0)
	if rng.IntN(3) == 0 {
		label = rng.Uint32()
	}
	holder := vertexNum(rng.IntN(4), rng.IntN(1000), bs)
	switch rng.IntN(6) {
	case 0: // lightweight, numbered after self
		return LightNumber(self, slot, bs), Ref{Dir: dir, Origin: self, Target: other, Label: label}
	case 1: // lightweight, numbered after the other end
		return LightNumber(other, slot, bs), Ref{Dir: dir, Origin: other, Target: self, Label: label}
	case 2: // numbered after self, with a holder of its own
		return LightNumber(self, slot, bs), Ref{Dir: dir, Origin: self, Target: other, Holder: holder}
	case 3: // numbered by its holder
		if rng.IntN(2) == 0 {
			return holder, Ref{Dir: dir, Origin: other, Target: self}
		}
		return holder, Ref{Dir: dir, Origin: self, Target: other}
	case 4: // a loop
		return LightNumber(self, slot, bs), Ref{Dir: dir, Origin: self, Target: self, Label: label}
	default: // a stub: self is no longer an end
		return LightNumber(self, slot, bs), Ref{Holder: holder}
	}
}

// TestCodecRoundTrip writes random references of random vertices, with
// tombstones between some of them, and reads them back with Next, Head
// and Number.
func TestCodecRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 2000 {
		bs := []int{64, 256, 4096}[round%3]
		self := vertexNum(rng.IntN(300), rng.IntN(1<<25), bs)
		c := Codec{Self: self, Base: LightNumber(self, 0, bs), BS: uint64(bs)}
		type entry struct {
			n Number
			x Ref
		}
		var want []entry
		var b []byte
		for range 1 + rng.IntN(20) {
			if rng.IntN(4) == 0 {
				dead := make([]byte, 2+rng.IntN(300))
				Kill(dead)
				b = append(b, dead...)
			}
			n, x := randomRef(rng, self, bs)
			want = append(want, entry{n, x})
			b = c.Append(b, n, x)
		}
		rest := b
		for i, w := range want {
			n, f, label, _, ok := c.Head(rest)
			if !ok || n != w.n || label != w.x.Label || (f&RfOrigin != 0) != (w.x.Origin == self && w.x.Dir != 0) {
				t.Fatalf("round %d, entry %d: Head gives (%#x, flags %#x, label %d, %v), want number %#x, %+v", round, i, n, f, label, ok, w.n, w.x)
			}
			n, x, next, ok := c.Next(rest)
			if !ok || n != w.n || x != w.x {
				t.Fatalf("round %d, entry %d: Next gives (%#x, %+v, %v), want (%#x, %+v)", round, i, n, x, ok, w.n, w.x)
			}
			rest = next
		}
		if len(rest) != 0 {
			if d, ok := DeadRun(rest); !ok || d != len(rest) {
				t.Fatalf("round %d: %d bytes left after the last reference", round, len(rest))
			}
		}
	}
}

// FuzzCodecRoundTrip: one reference, any fields, reads back as written.
func FuzzCodecRoundTrip(f *testing.F) {
	f.Add(uint16(1), uint32(5), uint64(3), uint8(0), uint32(0))
	f.Fuzz(func(t *testing.T, rank uint16, block uint32, seed uint64, kind uint8, _ uint32) {
		bs := 64
		self := vertexNum(int(rank%300), int(block%(1<<25)), bs)
		rng := rand.New(rand.NewPCG(seed, uint64(kind)))
		c := Codec{Self: self, Base: LightNumber(self, 0, bs), BS: uint64(bs)}
		n, x := randomRef(rng, self, bs)
		b := c.Append(nil, n, x)
		n2, x2, rest, ok := c.Next(b)
		if !ok || n2 != n || x2 != x || len(rest) != 0 {
			t.Fatalf("wrote (%#x, %+v) as %x, read (%#x, %+v, %v, %d left)", n, x, b, n2, x2, ok, len(rest))
		}
	})
}

// FuzzCodecNeverPanics decodes arbitrary bytes: every decoder returns
// ok == false or makes progress, and none panics or reads past b.
func FuzzCodecNeverPanics(f *testing.F) {
	c := Codec{Self: vertexNum(2, 7, 64), Base: LightNumber(vertexNum(2, 7, 64), 0, 64), BS: 64}
	f.Add(c.Append(nil, LightNumber(c.Self, 3, 64), Ref{Dir: gdi.Directed, Origin: c.Self, Target: vertexNum(1, 9, 64)}))
	f.Add([]byte{RfDead, 2, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		for rest := b; len(rest) > 0; {
			c.Head(rest)
			c.Number(rest)
			_, _, next, ok := c.Next(rest)
			if !ok {
				return
			}
			if len(next) >= len(rest) {
				t.Fatalf("Next made no progress on %x", rest)
			}
			rest = next
		}
	})
}
