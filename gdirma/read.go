package gdirma

import (
	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/gdirma/internal/store"
)

// Holders in blocks: the layout of an image and how a transaction reads it.
//
// Every vertex, and every heavyweight edge, is a holder: a chain of bgdl
// blocks. A vertex's number — and, with the database tag, its UID — is the
// DPtr of its primary block, so UIDs are stable for the vertex's life.
// Vertex UIDs are tag (16 bits) | rank (16 bits) | block number (32 bits);
// edge UIDs are {UID of the origin, slot} (see below), or {UID of the
// holder, 0} for edges numbered by their holder.
//
// The blocks, their markers, versions and fences are package store's (see
// its doc); the byte image they hold, encoded by package layout, is
//
//	labels      count, label numbers
//	properties  count, then (property type, datatype, length, raw bytes)
//	vertex      degree, in-degree, out-degree; count of incident edges,
//	            then for each, in ascending order of edge numbers, a
//	            reference written relative to the vertex (layout/codec.go):
//	            direction, which ends the vertex is, the other end,
//	            label (lightweight edges) and holder (heavyweight edges
//	            numbered after their origin), each only when needed
//	edge        direction, origin and target vertex numbers
//
// A transaction reads a vertex whose whole image fits in its primary block
// at once. Of a longer one it first reads the first 128 bytes (or the
// primary block, if it is at most 256 bytes long), and if its labels,
// properties and degrees fit there, reads the edge references only when it
// needs them (Transaction.full), and then only the bytes it has not read
// yet, if the holder's lock word says that no writer came in between
// (restHint). If they go on past the primary block, it reads on block by
// block until they end when the image is longer than store.MinFenced blocks (a
// hub with long properties), and whole otherwise (Transaction.spanning).
// A vertex needed whole from the start (an end of an edge
// being changed) is read whole at once (Transaction.getWhole). Where the
// data window can prefetch (rma.Prefetcher: rma/local, and rma/mpi on
// one node), a read asks for the primary block before it reads the lock
// word (another window), a prefix read of an image that goes on asks for
// its next block at once, and deleting a vertex asks for the primary blocks of
// all its neighbours before it reads any, so that their misses overlap
// instead of following one another. Images of 256 bytes or more are read into
// buffers the transaction gives back when it ends (store.Request.Pool), and so
// are the copies of what it read, with the committed record of a vertex
// read whole (objpool.go): holders are kept apart from the
// copies, and results are copied out of them, so that nothing handed to
// the caller sees a copy reused by a later transaction. The labels and
// properties of a holder read whole stay encoded until used
// (lazyhead.go): an edge query, or a neighbour a delete changes, never
// decodes them. References stay
// undecoded bytes until used: edge queries in a transaction that changed
// no edge read them in place (vertexHolder.quickEdges, and allEdges
// without a constraint), and finding or
// changing one reference walks only the sizes of the others
// (record.rawFind); once a copy has references of its own, further
// changes are made in place. A commit writes the references of a changed
// vertex from its copy as they are.
// A reference removed from a long image is overwritten by a tombstone of
// its size rather than cut out (layout/codec.go), so the image keeps its
// length and the commit writes only the blocks that changed (dirty.go);
// tombstones go when the references are next spliced or re-encoded. The
// marker of each continuation block says where the first entry starting
// in it begins (its fence, store/fences.go), so that a search for one reference
// in a long image halves the blocks and walks only one. Deleting a vertex
// does not even read its long neighbours whole: it walks the first cache
// line of each of their blocks to find its references by the fences, and
// the commit writes the tombstones into the blocks (sparsedrop.go).
//
// Both ends of an edge keep a reference to it with its direction and ends.
// A lightweight edge (at most one label, no properties) is nothing but
// these two references, which also carry its label; it is numbered after
// its origin and a slot (see light.go). An edge that gets a property or a
// second label becomes heavyweight: it gets a holder of its own for its
// labels and properties, named in the references, and keeps its number.
// Edge and neighbour queries without a constraint, constraints on
// lightweight edges, and the degree property types are answered from the
// vertex holder alone; a heavyweight edge's holder is read only when a
// constraint needs its labels or properties. A transaction that changes
// an edge rewrites the references at both ends in the same commit, so they
// never disagree. Index queries over edges find them through the holders
// of their origins.
//
// Blocks are taken from the creating rank first and from the other ranks
// when it has none left. A rank's high-water mark of blocks handed out
// (control window) bounds the scans that index queries make.

// load returns the committed object n of kind k, or nil if there is none.
func (st *graph) load(k kind, n layout.Number) (*record, error) {
	r, _, err := st.loadImage(k, n, store.Whole)
	return r, err
}

// loadImage is load in a mode: a prefix read of a vertex gives a partial
// record, and the blocks are returned if the mode asks for them.
func (st *graph) loadImage(k kind, n layout.Number, mode store.Mode) (*record, []bgdl.DPtr, error) {
	r := new(record)
	ok, chainOut, _, err := st.loadInto(r, k, n, mode, nil, nil)
	if !ok {
		return nil, nil, err
	}
	return r, chainOut, err
}

// loadInto is loadImage decoding into r, a zero record: ok is false (and r
// unusable) if there is no such object. single is the image r was decoded
// from if a prefix read found it whole in the primary block (its only
// block), for commits that install over it (see txObj.img).
func (st *graph) loadInto(r *record, k kind, n layout.Number, mode store.Mode, into *[]*[]byte, small []byte) (ok bool, chainOut []bgdl.DPtr, single []byte, err error) {
	if k != vertexKind {
		mode &^= store.Prefix
	}
	var img store.Image
	ok, err = st.read(n, &store.Request{Mode: mode, Pool: into, Small: small}, &img)
	if err != nil || !ok || img.Kind != k {
		return false, nil, nil, err
	}
	return st.decodeRead(r, k, n, &img, mode, into)
}

// restHint is what a transaction keeps of a prefix read of a vertex to
// read the rest of its image later without reading the prefix again
// (graph.loadRest): the image read, valid only while the holder's lock
// word is the one it was checked against, which every writer changes (it
// counts write locks; a count that wrapped around to the same value in
// between would take 2^31 commits of the one vertex). Its Bytes are nil
// if the rest cannot be read so.
type restHint struct {
	store.Image
	// spans is set if the labels and properties go on past the part
	// read: the record is then empty.
	spans bool
}

// loadPrefix is loadInto of a prefix of vertex n that also returns, if r
// is partial, how to read the rest (hint.Bytes is nil if it cannot). If
// the labels and properties of n go on past its primary block, it reads
// on until they end if the image is long (store.On), so that a hub
// with long properties is not read whole for them; otherwise, or if that
// fails, it returns the hint with spans set and r empty, for the caller
// to read the rest (loadRest) as a whole record. checked is 0 or
// store.Checked (a transaction's reads); ahead, if set, a block to get
// with the primary block (store.Request.Ahead).
func (st *graph) loadPrefix(r *record, n layout.Number, checked store.Mode, into *[]*[]byte, small []byte, ahead *store.Ahead) (ok bool, single []byte, hint restHint, err error) {
	img := &hint.Image // read into the hint, which keeps it if r is partial
	ok, err = st.read(n, &store.Request{Mode: store.Prefix | checked, Pool: into, Small: small, Ahead: ahead}, img)
	if err != nil || !ok || img.Kind != vertexKind {
		return false, nil, restHint{}, err
	}
	if img.Whole() || !img.Stamped {
		ok, _, single, err = st.decodeRead(r, vertexKind, n, img, store.Whole, into)
		return ok, single, restHint{}, err
	}
	whole, err := st.decodePart(r, n, img)
	if err != nil {
		return false, nil, restHint{}, err
	}
	if !whole && st.BlocksFor(img.Length) > store.MinFenced {
		// A long image: read on for the head only. A short one is read
		// whole at once (Transaction.spanning), which its commit needs.
		ext := *img
		read, err := st.read(n, &store.Request{Mode: store.Prefix | store.On, Pool: into}, &ext)
		if err != nil {
			return false, nil, hint, err
		}
		if read {
			if whole, err = st.decodePart(r, n, &ext); err != nil {
				return false, nil, hint, err
			}
			if whole {
				hint.Image = ext
			}
		}
	}
	hint.spans = !whole
	return true, nil, hint, nil
}

// loadRest is loadRefs of vertex n, read in part before as h says: only
// the rest of its image is read. ok is false if the holder's lock word
// changed since the first read (the caller reads it whole, and finds out
// what changed); the copy is then not used.
func (st *graph) loadRest(n layout.Number, h *restHint, pooled *[]*[]byte, r *record, chainBuf []bgdl.DPtr) (c *record, chain []bgdl.DPtr, ok bool, err error) {
	img := h.Image
	ok, err = st.read(n, &store.Request{Mode: store.On, Pool: pooled, Chain: chainBuf}, &img)
	if err != nil || !ok {
		return nil, nil, false, err
	}
	if err := decodeImage(r, vertexKind, img.Bytes, st.Codec(n.Holder())); err != nil {
		return nil, nil, false, gdi.Errorf(gdi.ErrIntern, "gdirma: holder %v: %v", n.Holder(), err)
	}
	r.readFrom(&img, n)
	return r, img.Chain, true, nil
}

// decodeRead is loadInto once the image is read.
func (st *graph) decodeRead(r *record, k kind, n layout.Number, img *store.Image, mode store.Mode, into *[]*[]byte) (ok bool, chainOut []bgdl.DPtr, single []byte, err error) {
	if !img.Whole() {
		whole, err := st.decodePart(r, n, img)
		if err == nil && !whole {
			// The properties go on in the next block: read it all.
			return st.loadInto(r, k, n, mode&^store.Prefix, into, nil)
		}
		return whole, img.Chain, nil, err
	}
	// The image is the caller's own (not a block buffer): its labels and
	// properties are decoded when first used.
	err = decodeImage(r, k, img.Bytes, st.Codec(n.Holder()))
	if img.Single {
		single = img.Bytes
	}
	if err != nil {
		return false, nil, nil, gdi.Errorf(gdi.ErrIntern, "gdirma: holder %v: %v", n.Holder(), err)
	}
	r.readFrom(img, n)
	return true, img.Chain, single, nil
}

// decodePart decodes into r the first part of the image of vertex n that
// img holds (a prefix read). whole is false, and r left empty, if the
// labels and properties go on past it.
func (st *graph) decodePart(r *record, n layout.Number, img *store.Image) (whole bool, err error) {
	whole, err = decodePrefix(r, img.Bytes, st.Codec(n.Holder()))
	if err != nil {
		return false, gdi.Errorf(gdi.ErrIntern, "gdirma: holder %v: %v", n.Holder(), err)
	}
	if !whole {
		*r = record{}
		return false, nil
	}
	r.readFrom(img, n)
	return true, nil
}

// readFrom gives r, decoded from img, the image of holder n, what the
// image says besides its bytes.
func (r *record) readFrom(img *store.Image, n layout.Number) {
	r.version, r.home = img.Version, homeOf(n)
	r.stamp, r.stamped = img.Stamp, img.Stamped
	if img.Fences != nil {
		r.long = &longRefs{fences: img.Fences}
	}
}

// loadRefs reads vertex n whole for its edge references into r, a zero
// record, and its blocks into chainBuf[:0]: its labels and properties are
// left encoded (record.headRaw) until decodeHeadNow. It returns nil if
// there is no such vertex. A long image lies in a buffer from st.images,
// appended to *pooled: the record is valid until it is given back.
// checked is 0 or store.Checked (a transaction's reads).
func (st *graph) loadRefs(n layout.Number, checked store.Mode, pooled *[]*[]byte, r *record, chainBuf []bgdl.DPtr) (*record, []bgdl.DPtr, error) {
	var img store.Image
	ok, err := st.read(n, &store.Request{Mode: store.Chain | checked, Pool: pooled, Chain: chainBuf}, &img)
	if err != nil || !ok || img.Kind != vertexKind {
		return nil, nil, err
	}
	if err := decodeImage(r, vertexKind, img.Bytes, st.Codec(n.Holder())); err != nil {
		return nil, nil, gdi.Errorf(gdi.ErrIntern, "gdirma: holder %v: %v", n.Holder(), err)
	}
	r.readFrom(&img, n)
	return r, img.Chain, nil
}
