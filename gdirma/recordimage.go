package gdirma

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/gdirma/internal/store"
	"github.com/gdi-go/gdi/internal/invariants"
)

// The byte image of a holder, spread over its blocks:
//
//	uvarint   number of labels, then each label number (uvarint)
//	uvarint   number of properties, then each: property type number
//	          (uvarint), datatype (1 byte), length (uvarint), raw bytes
//	vertices: uvarint degree, in-degree and out-degree; uvarint number of
//	          edge references, then each (ascending edge numbers) as
//	          refCodec writes it for the vertex
//	edges:    direction (1 byte), origin and target numbers (8 bytes each)
//
// cd is the codec of the vertex (ignored for edges).
func encodeRecord(k kind, r *record, cd layout.Codec) []byte {
	img := encodeParts(k, r, cd, nil)
	if img.Tail == nil {
		return img.Head
	}
	return append(img.Head, img.Tail...)
}

// encodeParts is encodeRecord in two pieces: the references of a vertex
// that are still encoded in the layout of cd are the tail as they are,
// not copied, so that writing back a vertex with many edges costs no copy
// of them. Otherwise the tail is nil.
//
// The head is appended to buf[:0] if buf has room for it, else to a new
// slice.
func encodeParts(k kind, r *record, cd layout.Codec, buf []byte) store.Parts {
	if r.partial && invariants.Enabled {
		panic("gdirma: image of a partial record")
	}
	reuse := k == vertexKind && r.raw != nil && r.cd == cd
	size := int(r.headLen) + 24
	if !reuse {
		size += len(r.raw) + 12*len(r.es)
	}
	b := buf[:0]
	if cap(b) < size {
		b = make([]byte, 0, size)
	}
	b = appendHead(b, r)
	if k == vertexKind {
		deg, in, out := r.degrees(cd.Self)
		if invariants.Enabled && r.hdr {
			if d, i, o := r.countDegrees(cd.Self); [3]uint64{d, i, o} != [3]uint64{deg, in, out} {
				panic(fmt.Sprintf("gdirma: vertex %#x keeps degrees %v, its references give %v", cd.Self, []uint64{deg, in, out}, []uint64{d, i, o}))
			}
		}
		b = layout.AppendDegrees(b, [3]uint64{deg, in, out})
		if reuse {
			b = binary.AppendUvarint(b, uint64(r.nraw))
			return store.Parts{Head: b, Tail: r.raw, Refs: len(b)}
		}
		es := r.refList()
		b = binary.AppendUvarint(b, uint64(len(es)))
		refs := len(b)
		for _, ee := range es {
			b = cd.Append(b, ee.n, ee.ref)
		}
		return store.Parts{Head: b, Refs: refs}
	}
	b = append(b, byte(r.dir))
	b = binary.LittleEndian.AppendUint64(b, uint64(r.origin))
	return store.Parts{Head: binary.LittleEndian.AppendUint64(b, uint64(r.target)), Refs: -1}
}

// appendHead appends the labels and properties of r, as an image starts
// with them.
func appendHead(b []byte, r *record) []byte {
	if r.headRaw != nil { // as read
		return append(b, r.headRaw...)
	}
	return layout.AppendHead(b, r.lbls, r.prps)
}

var errImage = errors.New("corrupt holder image")

// decodeHeadAt decodes head, the whole labels and properties of an image
// as headEnd found them, nl labels and np properties, into r. The
// property values share one copy of head.
func decodeHeadAt(r *record, head []byte, nl, np int) error {
	r.headLen = int32(len(head))
	var s string
	if np > 0 {
		s = string(head)
	}
	// layout.HeadEnd checked every number and length: the walk is by
	// index, without the checks of a layout.HeadWalk, on the hot path of
	// every read of labels or properties.
	i := 0
	uv := func() uint64 {
		if head[i] < 0x80 {
			i++
			return uint64(head[i-1])
		}
		x, n := binary.Uvarint(head[i:])
		i += n
		return x
	}
	uv()
	r.lbls = r.lbuf[:0]
	if nl > len(r.lbuf) {
		r.lbls = make([]uint32, 0, nl)
	}
	for range nl {
		r.lbls = append(r.lbls, uint32(uv()))
	}
	uv()
	// The capacity is what it would be if allocated, so that appends of
	// copies of r that share props copy them as before.
	if np > len(r.pbuf) {
		r.prps = make([]layout.Property, 0, np)
	} else {
		r.prps = r.pbuf[:0:max(np, 2)]
	}
	for range np {
		pt := uint32(uv())
		dt := gdi.Datatype(head[i])
		i++
		l := int(uv())
		v, err := gdi.NewValueString(dt, s[i:i+l])
		if err != nil {
			return err
		}
		i += l
		r.prps = append(r.prps, layout.Property{Ptype: pt, Value: v})
	}
	return nil
}

// decodePrefix decodes a vertex from the first part of its image into r,
// a zero record, which becomes a partial record: its degrees, with its
// labels and properties left encoded (lazyhead.go). whole is false if
// they do not end in b. b must not change while r is used.
func decodePrefix(r *record, b []byte, cd layout.Codec) (whole bool, err error) {
	r.partial, r.cd = true, cd
	end, _, _, err := layout.HeadEnd(b)
	if err != nil { // layout.ErrShort: they go on
		return false, nil
	}
	if invariants.Enabled {
		if err := layout.CheckHead(b[:end]); err != nil {
			return false, err
		}
	}
	r.headRaw, r.headLen = b[:end:end], int32(end)
	if _, err = decodeDegrees(r, b[end:]); err != nil {
		return false, nil
	}
	return true, nil
}

// decodeDegrees decodes the degrees of a vertex image into r.
func decodeDegrees(r *record, b []byte) ([]byte, error) {
	deg, rest, err := layout.Degrees(b)
	if err != nil {
		return nil, err
	}
	r.deg, r.hdr = deg, true
	return rest, nil
}

// settleHead readies r, a committed record read for a commit to install
// c over it, for the comparison of their keys: if c has the same labels
// and properties, r shares c's decoded ones (read-only), or keeps its own
// encoded if c's are too; otherwise r's are decoded.
func (r *record) settleHead(c *record) error {
	if r.headRaw == nil {
		return nil
	}
	if c != nil && sameHead(r, c) {
		if c.headRaw == nil {
			r.lbls, r.prps, r.headRaw = c.lbls, c.prps, nil
		}
		return nil
	}
	return r.decodeHeadNow()
}

// decodeHeadNow decodes the labels and properties that are still
// encoded, if any. If that fails, they stay encoded (see lazyhead.go).
func (r *record) decodeHeadNow() error {
	if r.headRaw == nil {
		return nil
	}
	// headRaw is a whole head, as layout.HeadEnd found it when read.
	_, nl, np, err := layout.HeadEnd(r.headRaw)
	if err != nil {
		return errImage
	}
	if err := decodeHeadAt(r, r.headRaw, nl, np); err != nil {
		r.lbls, r.prps = nil, nil
		return errImage
	}
	r.headRaw = nil
	return nil
}

// checkRefs checks that raw holds exactly n well-formed edge references
// in ascending order of edge number.
func checkRefs(raw []byte, n int, cd layout.Codec) error {
	var prev layout.Number
	for i := range n {
		e, _, rest, ok := cd.Next(raw)
		if !ok || (i > 0 && e <= prev) {
			return errImage
		}
		prev, raw = e, rest
	}
	if d, ok := layout.DeadRun(raw); !ok || d != len(raw) {
		return errImage
	}
	return nil
}

// decodeImage decodes the image b of an object of kind k into r, a zero
// record, leaving the labels and properties encoded in r.headRaw (see
// lazyhead.go). r keeps references to b, which must not change while r is
// used.
func decodeImage(r *record, k kind, b []byte, cd layout.Codec) error {
	r.imgLen = int32(len(b))
	end, _, _, err := layout.HeadEnd(b)
	if err != nil {
		return errImage
	}
	// The values are checked when decoded, and here only with invariants
	// on, as the references are below.
	if invariants.Enabled {
		if err := layout.CheckHead(b[:end]); err != nil {
			return err
		}
	}
	r.headRaw, r.headLen, b = b[:end:end], int32(end), b[end:]
	if k == vertexKind {
		if b, err = decodeDegrees(r, b); err != nil {
			return errImage
		}
		ne, n := binary.Uvarint(b)
		if n <= 0 || ne > uint64(len(b)) {
			return errImage
		}
		b = b[n:]
		// The references are decoded when used (refs), and every decoding
		// step is checked then. That they are well formed and ascending,
		// which searches rely on, is checked now only with invariants on:
		// images are written by this package alone, and CheckHolders
		// verifies them.
		if invariants.Enabled {
			if err := checkRefs(b, int(ne), cd); err != nil {
				return err
			}
		}
		raw := b
		r.cd, r.rawOff = cd, r.imgLen-int32(len(raw))
		if ne > 0 {
			r.raw, r.nraw, r.edit = raw, int(ne), rawEdit{on: true}
		}
		return nil
	}
	if len(b) < 17 {
		return errImage
	}
	r.dir = gdi.DirectionType(b[0])
	r.origin = layout.Number(binary.LittleEndian.Uint64(b[1:]))
	r.target = layout.Number(binary.LittleEndian.Uint64(b[9:]))
	return nil
}
