package gdirma

import (
	"slices"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/gdirma/internal/store"
	"github.com/gdi-go/gdi/internal/invariants"
)

// kind tells vertices and edges apart (store.Kind: it is part of the
// marker of a primary block). Most of the data model is shared.
type kind = store.Kind

const (
	vertexKind = store.Vertex
	edgeKind   = store.Edge
)

// record is a vertex or an edge: the committed version in the store, or a
// transaction's private copy of it. Its three parts are the labels and
// properties (recordHead), the edge references of a vertex (vertexRefs)
// and the direction and ends of an edge (edgeEnds).
type record struct {
	version store.Version // of the image it was read from (store only)
	// stamp is the lock word the image was checked against, if stamped
	// (store.Image.Stamp): a read under the lock has none.
	stamp   uint64
	stamped bool
	home    int32 // home rank
	// imgLen is the length of the whole image, if it was read whole.
	imgLen int32
	// partial: a vertex read from its primary block alone, whose edge
	// references were not read (Transaction.full reads them).
	partial bool
	recordHead
	vertexRefs
	edgeEnds
}

// recordHead is the labels and properties of a record.
type recordHead struct {
	// lbls and prps are the label numbers, each once, in the order
	// added, and the (type, value) pairs, each once. They are read with
	// labels and props and set with setLabels and setProps, which decode
	// them first if they are still encoded (headRaw).
	lbls []uint32
	prps []layout.Property
	// lbuf and pbuf hold the labels and properties of most decoded
	// records, saving two allocations per read: pbuf has room for an ID
	// and four more, which every vertex of the generator's default
	// scheme fits.
	lbuf [2]uint32
	pbuf [5]layout.Property
	// headRaw, if set, holds those labels and properties still encoded
	// (loadRefs): labels and props are empty until decodeHeadNow.
	headRaw []byte
	// headLen is the length of the labels and properties in the image
	// the record was decoded from.
	headLen int32
}

// vertexRefs is what a vertex keeps of the edges that have it as an
// end, each with its direction and ends (kept in step with the edge's own
// holder). They are decoded from raw, their part of the image, on first
// use (refs): many reads never look at them, and a write that does not
// change them copies raw back as it is.
type vertexRefs struct {
	es   edgeSet
	raw  []byte
	nraw int          // references in raw
	cd   layout.Codec // of raw
	// rawOff is where the references begin in the image.
	rawOff int32
	// deg holds degree, in-degree and out-degree as the image gives
	// them; hdr tells that they still hold (the references were not
	// handed out for change since).
	deg [3]uint64
	hdr bool
	// own tells who else may hold raw.
	own rawOwner
	// edit tells how raw differs from the references of the image the
	// record was decoded from, so that a commit can write back only the
	// blocks that changed.
	edit rawEdit
	// lastFound is rawFind's memory.
	lastFound foundRef
	// long holds what only records of long images have.
	long *longRefs
}

// edgeEnds is the direction and the end vertices of an edge.
type edgeEnds struct {
	dir            gdi.DirectionType
	origin, target layout.Number
}

// longRefs is what a record of a long vertex image may have besides.
type longRefs struct {
	// fences are the fences of the continuation blocks of the image read
	// (fences.go).
	fences []uint16
	// undo, with own == ownOrig, lists the references turned into
	// tombstones in place, in the bytes the transaction's committed copy
	// shares: what a commit needs to see that copy's references as they
	// were (change.oldRefs).
	undo []deadPatch
	// undoBuf is room for the first patch: most transactions drop one
	// reference from each neighbour of a vertex they free.
	undoBuf [1]deadPatch
}

// fences returns the fences of the image r was read from, if kept.
func (r *record) fences() []uint16 {
	if r.long == nil {
		return nil
	}
	return r.long.fences
}

// undo returns the references r turned into tombstones in place.
func (r *record) undo() []deadPatch {
	if r.long == nil {
		return nil
	}
	return r.long.undo
}

// homeOf is the home rank of the holder whose primary block is n.
func homeOf(n layout.Number) int32 { return int32(n.Holder().Rank()) }

// refOf is the reference to edge n, with record r and holder (see
// edgeRef), that its ends keep.
func refOf(n layout.Number, r *record, holder layout.Number) layout.Ref {
	x := layout.Ref{Dir: r.dir, Origin: r.origin, Target: r.target, Holder: holder}
	if ls := r.labels(); layout.IsLight(n) && holder == 0 && len(ls) == 1 {
		x.Label = ls[0]
	}
	return x
}

// refRecord returns what reference x knows of edge n as a record: all of
// a lightweight edge, the structural part of another.
func refRecord(x layout.Ref, n layout.Number) *record {
	r := &record{edgeEnds: edgeEnds{dir: x.Dir, origin: x.Origin, target: x.Target}, home: homeOf(x.Origin)}
	if x.Lightweight(n) && x.Label != 0 {
		r.lbls = []uint32{x.Label}
	}
	return r
}

// clone returns a deep copy of r.
func (r *record) clone() *record {
	c := *r
	r.own, c.own = ownNone, ownNone // they share raw now
	if r.long != nil {
		c.long = &longRefs{fences: r.long.fences, undo: slices.Clone(r.long.undo)}
	}
	if r.headRaw == nil { // else c shares the encoded head, which nothing changes
		c.lbls = slices.Clone(r.lbls)
		c.prps = slices.Clone(r.prps)
	}
	c.es = slices.Clone(r.es)
	return &c
}

// refs returns the edge references of a vertex, decoding them first if
// needed. The image was checked when it was read, so this cannot fail.
// The caller may change the set, so the degrees of the image no longer
// count.
func (r *record) refs() *edgeSet {
	r.refList()
	r.hdr = false
	return &r.es
}

// refList returns the edge references of a vertex for reading only.
func (r *record) refList() edgeSet {
	if r.partial && invariants.Enabled {
		panic("gdirma: edge references of a partial record used")
	}
	if r.raw != nil {
		r.es = make(edgeSet, 0, r.nraw)
		for b := r.raw; len(b) > 0; {
			n, x, rest, ok := r.cd.Next(b)
			if !ok {
				break // cannot happen: decodeRecord checked every reference
			}
			r.es = append(r.es, edgeEntry{n, x})
			b = rest
		}
		r.raw, r.edit.on = nil, false
	}
	return r.es
}

// refsAsRead reports whether the edge references of r, a vertex read
// whole from one block, are still those of old, the same image decoded
// again: untouched in raw, or none in either. It may say no of
// references changed and changed back.
func (r *record) refsAsRead(old *record) bool {
	// A record decoded from an image has edit.on with an empty range:
	// nothing turned into tombstones yet.
	if r.partial || old.partial || (r.edit.on && r.edit.lo != r.edit.hi) {
		return false
	}
	if r.raw == nil {
		return len(r.es) == 0 && old.nrefs() == 0
	}
	return r.own != ownSelf && r.nraw == old.nraw && old.raw != nil && string(r.raw) == string(old.raw)
}

// nrefs returns the number of edge references.
func (r *record) nrefs() int {
	if r.raw != nil {
		return r.nraw
	}
	return len(r.es)
}

// refCursor walks the edge references of a record in ascending order of
// edge number, reading the undecoded bytes if there are any rather than
// decoding them into the record: for reads that look at each reference
// once. It walks the references as they were when it was made: decoding
// them meanwhile (refList) does not disturb it, changing them does.
type refCursor struct {
	es      edgeSet
	raw     []byte
	cd      layout.Codec
	fromRaw bool
	i       int
}

func (r *record) cursor() refCursor {
	if r.partial && invariants.Enabled {
		panic("gdirma: edge references of a partial record used")
	}
	return refCursor{es: r.es, raw: r.raw, cd: r.cd, fromRaw: r.raw != nil}
}

// next returns the next reference; ok is false at the end.
func (c *refCursor) next() (n layout.Number, x layout.Ref, ok bool) {
	if !c.fromRaw {
		if c.i >= len(c.es) {
			return 0, layout.Ref{}, false
		}
		c.i++
		return c.es[c.i-1].n, c.es[c.i-1].ref, true
	}
	if len(c.raw) == 0 {
		return 0, layout.Ref{}, false
	}
	n, x, c.raw, ok = c.cd.Next(c.raw)
	return n, x, ok
}

// getRef returns the reference to edge n, without decoding the others.
func (r *record) getRef(n layout.Number) (layout.Ref, bool) {
	if r.raw == nil {
		return r.es.get(n)
	}
	_, _, x, ok := r.rawFind(n)
	return x, ok
}

// refRoom is the room setRef leaves after the references it copies.
const refRoom = 16

// setRef adds or replaces the reference to edge n, and delRef removes it
// (reporting whether there was one). Undecoded references are edited as
// bytes: the entry is found by walking the entries' sizes and spliced into
// a new slice if raw may be shared with other copies, in place if it is
// the record's own (ownSelf), so that a change to a vertex with many edges
// costs a copy of its references rather than a decode and an encode of
// each, and further changes cost no copy. The image's degrees are kept up
// to date.
func (r *record) setRef(n layout.Number, x layout.Ref) {
	if r.raw == nil {
		old, had := r.es.get(n)
		r.es.set(n, x)
		r.adjustDegrees(&old, had, &x, true)
		return
	}
	off, size, old, had := r.rawFind(n)
	var tmp [32]byte // a reference takes at most 29 bytes
	ref := r.cd.Append(tmp[:0], n, x)
	if r.own == ownSelf {
		r.raw = slices.Replace(r.raw, off, off+size, ref...)
	} else {
		// A copy of r's own, with room for the next change in place (a
		// label for the edge just added, say).
		raw := make([]byte, 0, len(r.raw)-size+len(ref)+refRoom)
		r.raw = append(append(append(raw, r.raw[:off]...), ref...), r.raw[off+size:]...)
	}
	r.edit.on, r.own = false, ownSelf
	if !had {
		r.nraw++
	}
	// The reference is where it was put: a change of the same edge next
	// (its label, say) need not walk the references again.
	r.lastFound = foundRef{raw: firstByte(r.raw), len: int32(len(r.raw)), n: n, off: int32(off), size: int32(len(ref))}
	r.adjustDegrees(&old, had, &x, true)
}

func (r *record) delRef(n layout.Number) bool {
	if r.raw == nil {
		old, had := r.es.get(n)
		if had {
			r.es.del(n)
			r.adjustDegrees(&old, true, nil, false)
		}
		return had
	}
	off, size, old, had := r.rawFind(n)
	if !had {
		return false
	}
	switch r.nraw--; {
	case r.nraw == 0:
		r.raw, r.edit.on = nil, false
	case r.edit.on && len(r.raw) > int(r.cd.BS):
		// Most likely a long image: the reference becomes a tombstone,
		// so that the commit need not move the ones after it.
		switch r.own {
		case ownNone:
			r.raw, r.own = slices.Clone(r.raw), ownSelf
		case ownOrig:
			if r.long == nil {
				r.long = new(longRefs)
				r.long.undo = r.long.undoBuf[:0]
			}
			r.long.undo = append(r.long.undo, newDeadPatch(off, r.raw[off:off+size]))
		}
		layout.Kill(r.raw[off : off+size])
		r.edit.add(int32(off), int32(off+size))
		r.lastFound = foundRef{}
	case r.own == ownSelf:
		r.raw = slices.Delete(r.raw, off, off+size)
		r.edit.on = false
	default:
		r.raw = slices.Concat(r.raw[:off], r.raw[off+size:])
		r.edit.on, r.own = false, ownSelf
	}
	r.adjustDegrees(&old, true, nil, false)
	return true
}

// adjustDegrees replaces the contribution of reference old (if had) to the
// degrees of the image by that of x (if add).
//
// The references come by pointer: passed by value, they are copied
// through the stack with 16-byte loads of words just stored 8 bytes at a
// time, which cannot be forwarded and stalled every edge added.
func (r *record) adjustDegrees(old *layout.Ref, had bool, x *layout.Ref, add bool) {
	if !r.hdr {
		return
	}
	self := r.cd.Self
	if had && !old.Stub() {
		d, i, o := addDegree(0, 0, 0, self, old.Dir, old.Origin, old.Target)
		r.deg[0], r.deg[1], r.deg[2] = r.deg[0]-d, r.deg[1]-i, r.deg[2]-o
	}
	if add && !x.Stub() {
		r.deg[0], r.deg[1], r.deg[2] = addDegree(r.deg[0], r.deg[1], r.deg[2], self, x.Dir, x.Origin, x.Target)
	}
}

// countDegrees counts the degrees of vertex self from its references,
// decoded or not, without decoding or changing anything.
func (r *record) countDegrees(self layout.Number) (deg, in, out uint64) {
	add := func(x layout.Ref) {
		if !x.Stub() {
			deg, in, out = addDegree(deg, in, out, self, x.Dir, x.Origin, x.Target)
		}
	}
	if r.raw == nil {
		for _, e := range r.es {
			add(e.ref)
		}
		return
	}
	for b := r.raw; len(b) > 0; {
		_, x, rest, ok := r.cd.Next(b)
		if !ok {
			break
		}
		add(x)
		b = rest
	}
	return
}

// rawFind walks the undecoded references for edge n: the offset and size
// of its entry and the reference if found, else the offset where it
// belongs (references are in ascending order).
//
// The last reference found is remembered (lastFound), as a lookup is often
// followed by a change of the same reference: getRef, then delRef.
func (r *record) rawFind(n layout.Number) (off, size int, x layout.Ref, found bool) {
	if f := &r.lastFound; f.n == n && f.raw == firstByte(r.raw) && int(f.len) == len(r.raw) && f.raw != nil {
		if f.size == 0 {
			return int(f.off), 0, layout.Ref{}, false
		}
		_, x, _, _ = r.cd.Next(r.raw[f.off:])
		return int(f.off), int(f.size), x, true
	}
	off = r.walkFrom(n)
	for b := r.raw[off:]; len(b) > 0; {
		e, sz, ok := r.cd.Number(b)
		if !ok || e > n {
			break // !ok cannot happen: decodeRecord checked every entry
		}
		if e == n {
			_, x, _, _ = r.cd.Next(b)
			size, found = sz, true
			break
		}
		off, b = off+sz, b[sz:]
	}
	r.lastFound = foundRef{raw: firstByte(r.raw), len: int32(len(r.raw)), n: n, off: int32(off), size: int32(size)}
	return off, size, x, found
}

// foundRef is where rawFind found reference n (size > 0) or would put it
// (size 0) in raw, whose first byte and length it names so that the entry
// is used only for the same raw.
// firstByte is the address of b's first byte, which names its array, or
// nil if it has none.
func firstByte(b []byte) *byte {
	if cap(b) == 0 {
		return nil
	}
	return &b[:1][0]
}

type foundRef struct {
	raw            *byte
	n              layout.Number
	len, off, size int32
}

// takeRefs gives r, a partial record, the edge references and degrees of
// c, the whole committed record of the same version.
func (r *record) takeRefs(c *record) {
	r.raw, r.nraw, r.es, r.deg, r.hdr, r.cd, r.partial = c.raw, c.nraw, c.es, c.deg, c.hdr, c.cd, false
	r.edit, r.own, c.own = c.edit, ownNone, ownNone
	r.imgLen, r.rawOff = c.imgLen, c.rawOff
	if f := c.fences(); f != nil {
		r.long = &longRefs{fences: f}
	}
}

// degrees returns the degree, in-degree and out-degree of vertex n: those
// of the image if the references are as read, else counted.
func (r *record) degrees(n layout.Number) (deg, in, out uint64) {
	if r.hdr {
		return r.deg[0], r.deg[1], r.deg[2]
	}
	if r.partial && invariants.Enabled {
		panic("gdirma: degrees of a partial record")
	}
	return r.countDegrees(n)
}

// hasLabel reports whether r has label l, reading an encoded head in
// place.
func (r *record) hasLabel(l uint32) bool {
	if r.headRaw != nil {
		return layout.HasLabel(r.headRaw, l)
	}
	return slices.Contains(r.lbls, l)
}

// values returns the values of the properties of type p.
func (r *record) values(p uint32) []gdi.Value {
	props := r.props()
	n := 0
	for _, pr := range props {
		if pr.Ptype == p {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	vs := make([]gdi.Value, 0, n) // the exact size: no slice grown
	for _, pr := range props {
		if pr.Ptype == p {
			vs = append(vs, pr.Value)
		}
	}
	return vs
}

// valueOf returns the first value of the properties of type p and how
// many there are, without a slice of them.
func (r *record) valueOf(p uint32) (first gdi.Value, count int) {
	for _, pr := range r.props() {
		if pr.Ptype == p {
			if count == 0 {
				first = pr.Value
			}
			count++
		}
	}
	return first, count
}

func (r *record) hasProperty(p uint32, v gdi.Value) bool {
	return slices.Contains(r.props(), layout.Property{Ptype: p, Value: v})
}

// ptypes returns the numbers of the property types present, each once, in
// the order of first appearance.
func (r *record) ptypes() []uint32 {
	var ps []uint32
	for _, pr := range r.props() {
		if !slices.Contains(ps, pr.Ptype) {
			ps = append(ps, pr.Ptype)
		}
	}
	return ps
}

// removeProperties removes every property of type p and reports whether
// there was one.
func (r *record) removeProperties(p uint32) bool {
	n := len(r.props())
	r.prps = slices.DeleteFunc(r.prps, func(pr layout.Property) bool { return pr.Ptype == p })
	return len(r.prps) != n
}

// appID returns the application-level ID, if the object has one.
func (r *record) appID() (string, bool) {
	for _, pr := range r.props() {
		if pr.Ptype == uint32(gdi.PropertyTypeID) {
			return pr.Value.RawString(), true
		}
	}
	return "", false
}

// matchesID reports whether the object is found under key k. It reads
// an encoded head in place.
func (r *record) matchesID(k idKey) bool {
	if r.headRaw != nil {
		id, ok := layout.RawProperty(r.headRaw, uint32(gdi.PropertyTypeID))
		if !ok || string(id) != k.id {
			return false
		}
	} else {
		i := slices.IndexFunc(r.prps, func(pr layout.Property) bool { return pr.Ptype == uint32(gdi.PropertyTypeID) })
		if i < 0 || r.prps[i].Value.RawString() != k.id {
			return false
		}
	}
	if k.label == uint32(gdi.LabelNone) {
		if r.headRaw != nil {
			return layout.LabelCount(r.headRaw) == 0
		}
		return len(r.lbls) == 0
	}
	return r.hasLabel(k.label)
}

// ends returns the ends of an edge.
func (r *record) ends() []layout.Number {
	if r.origin == r.target {
		return []layout.Number{r.origin}
	}
	return []layout.Number{r.origin, r.target}
}

// idKey is a key of the implicit index: a label number (LabelNone for
// objects without labels) and an application-level ID.
type idKey struct {
	label uint32
	id    string
}
