package layout

import (
	"encoding/binary"
	"errors"

	"github.com/gdi-go/gdi/gdi"
)

// The head of a holder image: its labels and properties, before the
// degrees and edge references of a vertex or the ends of an edge:
//
//	uvarint   number of labels, then each label number (uvarint)
//	uvarint   number of properties, then each: property type number
//	          (uvarint), datatype (1 byte), length (uvarint), raw bytes
//
// A vertex image goes on with its degree, in-degree and out-degree
// (uvarints, Degrees) and its edge references (codec.go).

// Property is a property as a head holds it: its type's object number and
// its value.
type Property struct {
	Ptype uint32
	Value gdi.Value
}

// ErrShort reports bytes that end inside a head or the degrees.
var ErrShort = errors.New("holder image prefix too short")

// AppendHead appends the head of labels and props to b.
func AppendHead(b []byte, labels []uint32, props []Property) []byte {
	b = binary.AppendUvarint(b, uint64(len(labels)))
	for _, l := range labels {
		b = binary.AppendUvarint(b, uint64(l))
	}
	b = binary.AppendUvarint(b, uint64(len(props)))
	for _, p := range props {
		b = binary.AppendUvarint(b, uint64(p.Ptype))
		b = append(b, byte(p.Value.Datatype()))
		b = binary.AppendUvarint(b, uint64(len(p.Value.RawString())))
		b = p.Value.AppendRaw(b)
	}
	return b
}

// HeadWalk reads an encoded head in order. OK turns false, and stays
// false, at the first number or field that does not fit in the bytes. (It
// keeps an index into h rather than reslicing it: one word to update, and
// Uvarint's common case stays small enough to inline.)
type HeadWalk struct {
	h  []byte
	i  int
	ok bool
}

// WalkHead returns a walk of h from its start.
func WalkHead(h []byte) HeadWalk { return HeadWalk{h: h, ok: true} }

// OK reports whether everything read so far fit.
func (w *HeadWalk) OK() bool { return w.ok }

// Read returns how many bytes of h the walk has read.
func (w *HeadWalk) Read(h []byte) int { return w.i }

// Uvarint reads a number, such as a label.
func (w *HeadWalk) Uvarint() uint64 {
	if i := w.i; uint(i) < uint(len(w.h)) {
		if b := w.h[i]; b < 0x80 { // most numbers here are small
			w.i = i + 1
			return uint64(b)
		}
	}
	return w.uvLong()
}

// uvLong is Uvarint of a number of more than one byte, out of line.
func (w *HeadWalk) uvLong() uint64 {
	x, k := binary.Uvarint(w.h[min(w.i, len(w.h)):])
	if k <= 0 {
		w.ok = false
		return 0
	}
	w.i += k
	return x
}

// Count reads a count of labels or properties.
func (w *HeadWalk) Count() uint64 {
	n := w.Uvarint()
	if n > uint64(len(w.h)-w.i) {
		w.ok = false
	}
	return n
}

// SkipLabels reads the labels, count included.
func (w *HeadWalk) SkipLabels() {
	for n := w.Count(); n > 0 && w.ok; n-- {
		w.Uvarint()
	}
}

// Property reads a property: its type, datatype and raw bytes.
func (w *HeadWalk) Property() (pt uint32, dt gdi.Datatype, raw []byte) {
	pt = uint32(w.Uvarint())
	if !w.ok || w.i >= len(w.h) {
		w.ok = false
		return 0, 0, nil
	}
	dt = gdi.Datatype(w.h[w.i])
	w.i++
	l := w.Uvarint()
	if !w.ok || l > uint64(len(w.h)-w.i) {
		w.ok = false
		return 0, 0, nil
	}
	raw = w.h[w.i : w.i+int(l) : w.i+int(l)]
	w.i += int(l)
	return pt, dt, raw
}

// HeadEnd returns where the head at the start of b ends, and its numbers
// of labels and properties; ErrShort if b ends first. Every prefix read
// asks it (PrefixHolds), so it walks b by index, not by a HeadWalk: the
// position stays in a register.
func HeadEnd(b []byte) (end, nl, np int, err error) {
	i := 0
	uv := func() (uint64, bool) {
		if i < len(b) && b[i] < 0x80 { // most numbers here are small
			i++
			return uint64(b[i-1]), true
		}
		x, n := binary.Uvarint(b[i:])
		if n <= 0 {
			return 0, false
		}
		i += n
		return x, true
	}
	x, ok := uv()
	if !ok || x > uint64(len(b)) {
		return 0, 0, 0, ErrShort
	}
	nl = int(x)
	for range nl {
		if _, ok := uv(); !ok {
			return 0, 0, 0, ErrShort
		}
	}
	if x, ok = uv(); !ok || x > uint64(len(b)) {
		return 0, 0, 0, ErrShort
	}
	np = int(x)
	for range np {
		if _, ok := uv(); !ok || i >= len(b) {
			return 0, 0, 0, ErrShort
		}
		i++ // datatype
		l, ok := uv()
		if !ok || l > uint64(len(b)-i) {
			return 0, 0, 0, ErrShort
		}
		i += int(l)
	}
	return i, nl, np, nil
}

// CheckHead checks the whole head h as a decoding would: every value must
// be a valid encoding of its datatype.
func CheckHead(h []byte) error {
	w := WalkHead(h)
	w.SkipLabels()
	for n := w.Count(); n > 0 && w.ok; n-- {
		_, dt, raw := w.Property()
		if !w.ok {
			break
		}
		if err := dt.CheckEncoded(raw); err != nil {
			return err
		}
	}
	if !w.ok {
		return ErrShort
	}
	return nil
}

// HasLabel reports whether the head h has label l.
func HasLabel(h []byte, l uint32) bool {
	w := WalkHead(h)
	for n := w.Count(); n > 0 && w.ok; n-- {
		if uint32(w.Uvarint()) == l && w.ok {
			return true
		}
	}
	return false
}

// LabelCount returns the number of labels of the head h.
func LabelCount(h []byte) int {
	w := WalkHead(h)
	return int(w.Count())
}

// RawProperty returns the raw bytes of the first property of type p in
// the head h.
func RawProperty(h []byte, p uint32) ([]byte, bool) {
	w := WalkHead(h)
	w.SkipLabels()
	for n := w.Count(); n > 0 && w.ok; n-- {
		pt, _, raw := w.Property()
		if w.ok && pt == p {
			return raw, true
		}
	}
	return nil, false
}

// AppendDegrees appends the degree, in-degree and out-degree of a vertex.
func AppendDegrees(b []byte, deg [3]uint64) []byte {
	for _, d := range deg {
		b = binary.AppendUvarint(b, d)
	}
	return b
}

// Degrees reads the degrees at the start of b and returns the bytes after
// them; ErrShort if b ends first.
func Degrees(b []byte) (deg [3]uint64, rest []byte, err error) {
	for i := range deg {
		x, n := binary.Uvarint(b)
		if n <= 0 {
			return deg, nil, ErrShort
		}
		deg[i], b = x, b[n:]
	}
	return deg, b, nil
}

// PrefixHolds reports whether b, the start of a vertex image, holds its
// head and degrees whole.
func PrefixHolds(b []byte) bool {
	end, _, _, err := HeadEnd(b)
	if err != nil {
		return false
	}
	_, _, err = Degrees(b[end:])
	return err == nil
}
