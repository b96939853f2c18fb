package gdirma

import (
	"encoding/binary"

	"github.com/gdi-go/gdi/gdi"
)

// Encoded heads. Many reads of a vertex never look at its labels and
// properties: an edge query, the neighbours a delete or a new edge
// changes. So a record read whole can keep them encoded, as the image has
// them (record.headRaw), and decode them on first use. The image bytes
// belong to the transaction (imagepool.go, loadedObj.small) and do not
// change while it lasts; an image written from the record copies them as
// they are.
//
// The fields lbls and prps hold only decoded labels and properties, so
// they are read through labels and props and set through setLabels and
// setProps, which decode first. A few questions are answered from the
// encoded head itself: hasLabel, matchesID (the check of every ID lookup)
// and whether two heads are alike (sameHead).
//
// An encoded head is checked when it is read (checkHead), as decoding it
// would, so that decoding it later cannot fail. Were it to, it stays
// encoded: its labels and properties read as none, and images written
// from the record keep it as it was.

// labels returns the label numbers of r.
func (r *record) labels() []uint32 {
	r.head()
	return r.lbls
}

// props returns the properties of r.
func (r *record) props() []property {
	r.head()
	return r.prps
}

// setLabels replaces the labels of r.
func (r *record) setLabels(l []uint32) {
	r.head()
	r.lbls = l
}

// setProps replaces the properties of r.
func (r *record) setProps(p []property) {
	r.head()
	r.prps = p
}

// head decodes the labels and properties of r if they are encoded.
func (r *record) head() {
	if r.headRaw != nil {
		_ = r.decodeHeadNow()
	}
}

// sameHead reports whether r and c have the same labels and properties
// in the same order, without decoding encoded heads.
func sameHead(r, c *record) bool {
	if r.headRaw != nil && c.headRaw != nil {
		return string(r.headRaw) == string(c.headRaw)
	}
	var a, b [256]byte // appendHead copies an encoded head as it is
	return string(appendHead(a[:0], r)) == string(appendHead(b[:0], c))
}

// checkHead checks the encoded labels and properties h (a whole head, as
// headEnd found it) as decodeHeadAt would: every value must be valid for
// its datatype.
func checkHead(h []byte) error {
	w := headWalk{h: h, ok: true}
	w.labels()
	for n := w.count(); n > 0 && w.ok; n-- {
		_, dt, b := w.property()
		if !w.ok {
			break
		}
		if err := dt.CheckEncoded(b); err != nil {
			return err
		}
	}
	if !w.ok {
		return errShort
	}
	return nil
}

// rawHasLabel reports whether the encoded head h has label l.
func rawHasLabel(h []byte, l uint32) bool {
	w := headWalk{h: h, ok: true}
	for n := w.count(); n > 0 && w.ok; n-- {
		if uint32(w.uv()) == l && w.ok {
			return true
		}
	}
	return false
}

// rawLabelCount returns the number of labels of the encoded head h.
func rawLabelCount(h []byte) int {
	w := headWalk{h: h, ok: true}
	return int(w.count())
}

// rawProperty returns the raw bytes of the first property of type p in
// the encoded head h.
func rawProperty(h []byte, p uint32) ([]byte, bool) {
	w := headWalk{h: h, ok: true}
	w.labels()
	for n := w.count(); n > 0 && w.ok; n-- {
		pt, _, b := w.property()
		if w.ok && pt == p {
			return b, true
		}
	}
	return nil, false
}

// headWalk reads an encoded head in order, from ok true; ok turns false,
// for good, at the first thing that does not fit.
type headWalk struct {
	h  []byte
	ok bool
}

func (w *headWalk) uv() uint64 {
	if h := w.h; len(h) > 0 && h[0] < 0x80 { // most numbers here are small
		w.h = h[1:]
		return uint64(h[0])
	}
	return w.uvLong()
}

// uvLong is uv of a number of more than one byte, out of line.
func (w *headWalk) uvLong() uint64 {
	x, k := binary.Uvarint(w.h)
	if k <= 0 {
		w.ok = false
		return 0
	}
	w.h = w.h[k:]
	return x
}

// count reads a count of labels or properties.
func (w *headWalk) count() uint64 {
	n := w.uv()
	if n > uint64(len(w.h)) {
		w.ok = false
	}
	return n
}

// labels skips the labels.
func (w *headWalk) labels() {
	for n := w.count(); n > 0 && w.ok; n-- {
		w.uv()
	}
}

// property reads a property: its type, datatype and raw bytes.
func (w *headWalk) property() (pt uint32, dt gdi.Datatype, b []byte) {
	pt = uint32(w.uv())
	if !w.ok || len(w.h) == 0 {
		w.ok = false
		return 0, 0, nil
	}
	dt = gdi.Datatype(w.h[0])
	w.h = w.h[1:]
	l := w.uv()
	if !w.ok || l > uint64(len(w.h)) {
		w.ok = false
		return 0, 0, nil
	}
	b, w.h = w.h[:l:l], w.h[l:]
	return pt, dt, b
}
