package gdirma

import (
	"encoding/binary"
	"errors"
	"slices"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/txn"
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
// Each block begins with a marker word (primary of a vertex, primary of an
// edge, continuation with its fence) and the DPtr of the next block. The primary block
// adds the version of the committed holder and the length of its byte
// image; the image follows, continued in as many blocks as needed:
//
//	labels      count, label numbers
//	properties  count, then (property type, datatype, length, raw bytes)
//	vertex      degree, in-degree, out-degree; count of incident edges,
//	            then for each, in ascending order of edge numbers, a
//	            reference written relative to the vertex (refcodec.go):
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
// block until they end when the image is longer than minFenced blocks (a
// hub with long properties), and whole otherwise (Transaction.spanning).
// A vertex needed whole from the start (an end of an edge
// being changed) is read whole at once (Transaction.getWhole). Where the
// data window can prefetch (rma.Prefetcher: rma/local, and rma/mpi on
// one node), a read asks for the primary block before it reads the lock
// word (another window), a prefix read of an image that goes on asks for
// its next block at once, and deleting a vertex asks for the primary blocks of
// all its neighbours before it reads any, so that their misses overlap
// instead of following one another. Images of 256 bytes or more are read into
// buffers the transaction gives back when it ends (imagepool.go), and so
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
// its size rather than cut out (refcodec.go), so the image keeps its
// length and the commit writes only the blocks that changed (dirty.go);
// tombstones go when the references are next spliced or re-encoded. The
// marker of each continuation block says where the first entry starting
// in it begins (its fence, fences.go), so that a search for one reference
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

// image is a committed holder as read from its blocks.
type image struct {
	k       kind
	version holderVersion
	chain   []uint64 // the blocks, primary first (if asked for)
	bytes   []byte   // the image, or its first part (prefix reads)
	length  int      // of the whole image
	fences  []uint16 // of the continuation blocks, if read
	// single: a prefix read found the image whole in the primary block,
	// and bytes is a copy of its own (or in a buffer of the caller's, see
	// imageBuf).
	single bool
	// next is the first continuation block, and stamp, if stamped, the
	// lock word the copy was checked against (see restHint).
	next    uint64
	stamp   uint64
	stamped bool
}

// blockBuf returns a buffer of one block for a read; putBlockBuf gives it
// back.
func (st *store) blockBuf() *[]byte {
	if b, ok := st.bufs.Get().(*[]byte); ok {
		return b
	}
	b := make([]byte, st.bs)
	return &b
}

func (st *store) putBlockBuf(b *[]byte) { st.bufs.Put(b) }

// readMode says how much of a holder a read fetches, and what it returns
// besides: every read of the store takes one.
type readMode uint8

const (
	// readWhole reads the whole image.
	readWhole readMode = 0
	// readPrefix reads the primary block only (of a vertex: a read of a
	// record stops there if its labels and properties fit, and the
	// record is then partial, without edge references; see
	// record.partial). img.bytes is the part of the image it holds.
	readPrefix readMode = 1 << iota
	// readChain also lists the blocks of the holder (img.chain).
	readChain
)

func (m readMode) prefix() bool { return m&readPrefix != 0 }
func (m readMode) chain() bool  { return m&readChain != 0 }

// readImage reads the holder whose primary block is n, as a writer left
// it (see readImageTo). ok is false if n is no primary block.
func (st *store) readImage(n uint64, mode readMode) (img image, ok bool, err error) {
	return st.readImageTo(n, mode, nil, nil, nil)
}

// readImageTo is readImage that, if into is set, reads a long image into
// a buffer from st.images, which it appends to *into. The chain, if asked
// for, is appended to chainBuf[:0] (which may be nil). A prefix read that
// finds the image whole in its primary block copies it into small if it
// fits there.
//
// The holder is copied without taking its lock: the copy is checked
// against the lock word afterwards (txn.ReadValid), and made again if a
// writer took the word meanwhile, up to txn.Attempts times.
func (st *store) readImageTo(n uint64, mode readMode, into *[]*[]byte, chainBuf []uint64, small []byte) (img image, ok bool, err error) {
	if !st.valid(n) {
		return img, false, nil
	}
	if st.held != nil && st.held.Holds(n) {
		return st.copyImage(n, mode, into, chainBuf, small)
	}
	a := st.lockAddr(n)
	// The lock word and the block are in different windows: the block
	// is on its way while the word is read.
	st.prefetch(n, min(st.bs, prefixLead))
	for range txn.Attempts {
		stamp, err := txn.ReadBegin(st.locks, a.Rank, a.Off)
		if err != nil {
			if errors.Is(err, txn.ErrBusy) {
				return image{}, false, errBusy(n)
			}
			return image{}, false, internal(err)
		}
		// What a torn copy says, errors included, counts only if the
		// copy is not torn.
		img, ok, err = st.copyImage(n, mode, into, chainBuf, small)
		valid, verr := txn.ReadValid(st.locks, a.Rank, a.Off, stamp)
		if verr == nil && valid {
			img.stamp, img.stamped = stamp, true
			return img, ok, err
		}
		if verr != nil {
			return image{}, false, internal(verr)
		}
	}
	return image{}, false, errBusy(n)
}

// copyImage is readImageTo without the check against the lock word: the
// caller holds the lock, or checks the copy afterwards.
func (st *store) copyImage(n uint64, mode readMode, into *[]*[]byte, chainBuf []uint64, small []byte) (img image, ok bool, err error) {
	bp := st.blockBuf()
	blk := *bp
	defer st.putBlockBuf(bp)
	// A prefix read starts with the first cache line or two: most vertices
	// have their labels, properties and degrees there. A block of at most
	// twice that is read whole at once: a second read would cost more than
	// the bytes it saves.
	lead := st.bs
	if mode.prefix() && st.bs > 2*prefixLead {
		lead = prefixLead
	}
	if err := st.get(blk[:lead], n, 0); err != nil {
		return img, false, err
	}
	marker := binary.LittleEndian.Uint64(blk)
	if marker&^0xff != markerPrimary {
		return img, false, nil
	}
	img.k = kind(marker & 0xff)
	next := binary.LittleEndian.Uint64(blk[8:])
	img.version = holderVersion(binary.LittleEndian.Uint64(blk[16:]))
	length := int(binary.LittleEndian.Uint64(blk[24:]))
	if length < 0 || length > st.pool.Blocks()*st.size*st.bs {
		return img, false, gdi.Errorf(gdi.ErrIntern, "gdirma: holder %v has a corrupt length %d", bgdl.DPtr(n), length)
	}
	img.length = length
	first := min(length, st.bs-primaryHeader)
	img.next = next
	if mode.prefix() && length > first {
		// The rest is often read next (Transaction.full): its first
		// block is on its way meanwhile.
		st.prefetch(next, min(st.bs, length-first+contHeader))
	}
	if mode.prefix() {
		// An image that fits in the primary block is read whole: a
		// second read for the edge references would cost more than the
		// rest of the block. A longer one is cut after the lead if that
		// holds the labels, properties and degrees.
		if end := primaryHeader + first; end > lead {
			if length > first && layout.PrefixHolds(blk[primaryHeader:lead]) {
				first = lead - primaryHeader
			} else if err := st.get(blk[lead:end], n, lead); err != nil {
				return img, false, err
			}
		}
		// The image, whole (single) or the part the primary block holds,
		// is copied out for the caller to keep, in small or an image
		// buffer, so that its labels and properties can stay encoded
		// (lazyhead.go); the block buffer goes back at once.
		img.single = first == length
		if first <= len(small) {
			img.bytes = small[:first]
		} else {
			img.bytes = st.imageBuf(first, into)
		}
		copy(img.bytes, blk[primaryHeader:])
		return img, true, nil
	}
	if mode.chain() {
		if need := st.blocksFor(length); cap(chainBuf) < need {
			chainBuf = make([]uint64, 0, need)
		}
		img.chain = append(chainBuf[:0], n)
	}
	img.bytes = st.imageBuf(length, into)
	copy(img.bytes, blk[primaryHeader:primaryHeader+first])
	if err := st.readConts(n, &img, first, mode.chain()); err != nil {
		return img, false, err
	}
	return img, true, nil
}

// readConts reads the continuation blocks of holder n, from img.next on,
// into img.bytes[have:], have being the bytes of the blocks read before
// (the primary block, and any whole continuation blocks after it); with
// chain set it appends them to img.chain. It keeps the fences of a long
// image, appended to those img has.
func (st *store) readConts(n uint64, img *image, have int, chain bool) error {
	length, next := img.length, img.next
	keepFences := st.blocksFor(length) > minFenced // see fences.go
	done := 1 + (have-min(length, st.bs-primaryHeader))/(st.bs-contHeader)
	for blocks := done; have < length; blocks++ {
		if next == 0 || !st.valid(next) || blocks > st.pool.Blocks()*st.size {
			return gdi.Errorf(gdi.ErrIntern, "gdirma: holder %v has a broken chain", bgdl.DPtr(n))
		}
		// The block is read into its place in the image, its header
		// over the last bytes of the block before, which are put back:
		// one copy of the bytes, not two.
		dst := img.bytes[have-contHeader : have+min(st.bs-contHeader, length-have)]
		hd := (*[contHeader]byte)(dst) // contHeader is two words
		s0, s1 := binary.LittleEndian.Uint64(hd[:8]), binary.LittleEndian.Uint64(hd[8:])
		if err := st.get(dst, next, 0); err != nil {
			return err
		}
		marker := binary.LittleEndian.Uint64(hd[:8])
		after := binary.LittleEndian.Uint64(hd[8:])
		binary.LittleEndian.PutUint64(hd[:8], s0)
		binary.LittleEndian.PutUint64(hd[8:], s1)
		if marker&^0xffff != markerCont {
			return gdi.Errorf(gdi.ErrIntern, "gdirma: holder %v: block %v is no continuation", bgdl.DPtr(n), bgdl.DPtr(next))
		}
		if keepFences {
			if img.fences == nil {
				img.fences = make([]uint16, 0, st.blocksFor(length)-1)
			}
			img.fences = append(img.fences, uint16(marker))
		}
		if chain {
			img.chain = append(img.chain, next)
		}
		have += len(dst) - contHeader
		next = after
	}
	return nil
}

// load returns the committed object n of kind k, or nil if there is none.
func (st *store) load(k kind, n uint64) (*record, error) {
	r, _, err := st.loadImage(k, n, readWhole)
	return r, err
}

// loadImage is load in a mode: a prefix read of a vertex gives a partial
// record, and the blocks are returned if the mode asks for them.
func (st *store) loadImage(k kind, n uint64, mode readMode) (*record, []uint64, error) {
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
func (st *store) loadInto(r *record, k kind, n uint64, mode readMode, into *[]*[]byte, small []byte) (ok bool, chainOut []uint64, single []byte, err error) {
	if k != vertexKind {
		mode &^= readPrefix
	}
	img, ok, err := st.readImageTo(n, mode, into, nil, small)
	if err != nil || !ok || img.k != k {
		return false, nil, nil, err
	}
	return st.decodeRead(r, k, n, &img, mode, into)
}

// restHint is what a transaction keeps of a prefix read of a vertex to
// read the rest of its image later without reading the prefix again
// (store.loadRest): valid only while the holder's lock word is the same,
// which every writer changes (it counts write locks; a count that wrapped
// around to the same value in between would take 2^31 commits of the one
// vertex).
type restHint struct {
	prefix []byte // the image bytes read
	length int    // of the whole image
	next   uint64 // the first block not read
	stamp  uint64 // the lock word the read was checked against
	// chain and fences are set if the prefix goes on past the primary
	// block (extendPrefix): the blocks it spans, primary first, and the
	// fences of those after the primary, if the image keeps fences.
	chain  []uint64
	fences []uint16
	// spans is set if the labels and properties go on past the part
	// read: the record is then empty, and version is that of the image.
	spans   bool
	version holderVersion
}

// loadPrefix is loadInto of a prefix of vertex n that also returns, if r
// is partial, how to read the rest (hint.prefix is nil if it cannot). If
// the labels and properties of n go on past its primary block, it reads
// on until they end if the image is long (extendPrefix), so that a hub
// with long properties is not read whole for them; otherwise, or if that
// fails, it returns the hint with spans set and r empty, for the caller
// to read the rest (loadRest) as a whole record.
func (st *store) loadPrefix(r *record, n uint64, into *[]*[]byte, small []byte) (ok bool, single []byte, hint restHint, err error) {
	img, ok, err := st.readImageTo(n, readPrefix, into, nil, small)
	if err != nil || !ok || img.k != vertexKind {
		return false, nil, hint, err
	}
	if len(img.bytes) == img.length || !img.stamped {
		ok, _, single, err = st.decodeRead(r, vertexKind, n, &img, readWhole, into)
		return ok, single, hint, err
	}
	whole, err := st.decodePart(r, n, &img)
	if err != nil {
		return false, nil, hint, err
	}
	hint = restHint{prefix: img.bytes, length: img.length, next: img.next, stamp: img.stamp}
	if !whole && st.blocksFor(img.length) > minFenced {
		// A long image: read on for the head only. A short one is read
		// whole at once (Transaction.spanning), which its commit needs.
		ext, err := st.extendPrefix(n, &img, into)
		if err != nil {
			return false, nil, hint, err
		}
		if ext.prefix != nil {
			img.bytes = ext.prefix
			if whole, err = st.decodePart(r, n, &img); err != nil {
				return false, nil, hint, err
			}
			if whole {
				hint = ext
			}
		}
	}
	if !whole {
		hint.spans, hint.version = true, img.version
	}
	return true, nil, hint, nil
}

// extendPrefix reads on from a prefix read img of vertex n that holds its
// primary block whole but not all its labels, properties and degrees:
// block by block, until they are whole or the image ends. It returns the
// hint of the longer prefix, whose bytes are in a buffer from into, or a
// zero hint if a writer came in meanwhile (the lock word is checked
// again) or the blocks make no sense (the caller then reads the holder
// whole, and finds out).
func (st *store) extendPrefix(n uint64, img *image, into *[]*[]byte) (restHint, error) {
	c := st.bs - contHeader
	have := len(img.bytes)
	if have != min(img.length, st.bs-primaryHeader) {
		return restHint{}, nil // a prefix cut short, which prefixHolds would have read on
	}
	keepFences := st.blocksFor(img.length) > minFenced
	h := restHint{length: img.length, next: img.next, stamp: img.stamp, chain: []uint64{n}}
	buf := st.imageBuf(min(img.length, have+2*c), into) // room for most heads
	copy(buf, img.bytes)
	bp := st.blockBuf()
	defer st.putBlockBuf(bp)
	blk := *bp
	for !layout.PrefixHolds(buf[:have]) && have < img.length {
		next := h.next
		if next == 0 || !st.valid(next) || len(h.chain) >= st.blocksFor(img.length) {
			return restHint{}, nil
		}
		k := min(c, img.length-have)
		if err := st.get(blk[:contHeader+k], next, 0); err != nil {
			return restHint{}, err
		}
		marker := binary.LittleEndian.Uint64(blk)
		if marker&^0xffff != markerCont {
			return restHint{}, nil
		}
		if have+k > len(buf) {
			grown := st.imageBuf(min(img.length, 2*len(buf)+k), into)
			copy(grown, buf[:have])
			buf = grown
		}
		copy(buf[have:], blk[contHeader:contHeader+k])
		have += k
		h.chain = append(h.chain, next)
		if keepFences {
			h.fences = append(h.fences, uint16(marker))
		}
		h.next = binary.LittleEndian.Uint64(blk[8:])
	}
	a := st.lockAddr(n)
	if valid, err := txn.ReadValid(st.locks, a.Rank, a.Off, img.stamp); err != nil {
		return restHint{}, internal(err)
	} else if !valid {
		return restHint{}, nil
	}
	h.prefix = buf[:have]
	return h, nil
}

// loadRest is loadRefs of vertex n of the given version, read in part
// before as h says: only the rest of its image is read. ok is false if
// the holder's lock word changed since the first read (the caller reads
// it whole, and finds out what changed); the copy is then not used.
func (st *store) loadRest(n uint64, version holderVersion, h *restHint, pooled *[]*[]byte, r *record, chainBuf []uint64) (c *record, chain []uint64, ok bool, err error) {
	img := image{k: vertexKind, version: version, length: h.length, next: h.next}
	img.bytes = st.imageBuf(h.length, pooled)
	have := copy(img.bytes, h.prefix)
	first := min(h.length, st.bs-primaryHeader)
	if have < first {
		err = st.get(img.bytes[have:first], n, primaryHeader+have)
		have = first
	}
	img.chain = append(chainBuf[:0], n)
	if len(h.chain) > 1 { // the prefix spans blocks (extendPrefix)
		img.chain = append(chainBuf[:0], h.chain...)
		img.fences = slices.Clone(h.fences)
	}
	if err == nil {
		err = st.readConts(n, &img, have, true)
	}
	// As in readImageTo, a torn copy's errors do not count.
	a := st.lockAddr(n)
	valid, verr := txn.ReadValid(st.locks, a.Rank, a.Off, h.stamp)
	if verr != nil {
		return nil, nil, false, internal(verr)
	}
	if !valid {
		return nil, nil, false, nil
	}
	if err != nil {
		return nil, nil, false, err
	}
	if err := decodeImage(r, vertexKind, img.bytes, st.codec(n)); err != nil {
		return nil, nil, false, gdi.Errorf(gdi.ErrIntern, "gdirma: holder %v: %v", bgdl.DPtr(n), err)
	}
	r.readFrom(&img, n)
	return r, img.chain, true, nil
}

// decodeRead is loadInto once the image is read.
func (st *store) decodeRead(r *record, k kind, n uint64, img *image, mode readMode, into *[]*[]byte) (ok bool, chainOut []uint64, single []byte, err error) {
	if len(img.bytes) < img.length {
		whole, err := st.decodePart(r, n, img)
		if err == nil && !whole {
			// The properties go on in the next block: read it all.
			return st.loadInto(r, k, n, mode&^readPrefix, into, nil)
		}
		return whole, img.chain, nil, err
	}
	// The image is the caller's own (not a block buffer): its labels and
	// properties are decoded when first used.
	err = decodeImage(r, k, img.bytes, st.codec(n))
	if img.single {
		single = img.bytes
	}
	if err != nil {
		return false, nil, nil, gdi.Errorf(gdi.ErrIntern, "gdirma: holder %v: %v", bgdl.DPtr(n), err)
	}
	r.readFrom(img, n)
	return true, img.chain, single, nil
}

// decodePart decodes into r the first part of the image of vertex n that
// img holds (a prefix read). whole is false, and r left empty, if the
// labels and properties go on past it.
func (st *store) decodePart(r *record, n uint64, img *image) (whole bool, err error) {
	whole, err = decodePrefix(r, img.bytes, st.codec(n))
	if err != nil {
		return false, gdi.Errorf(gdi.ErrIntern, "gdirma: holder %v: %v", bgdl.DPtr(n), err)
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
func (r *record) readFrom(img *image, n uint64) {
	r.version, r.home = img.version, homeOf(n)
	if img.fences != nil {
		r.long = &longRefs{fences: img.fences}
	}
}

// loadRefs reads vertex n whole for its edge references into r, a zero
// record, and its blocks into chainBuf[:0]: its labels and properties are
// left encoded (record.headRaw) until decodeHeadNow. It returns nil if
// there is no such vertex. A long image lies in a buffer from st.images,
// appended to *pooled: the record is valid until it is given back.
func (st *store) loadRefs(n uint64, pooled *[]*[]byte, r *record, chainBuf []uint64) (*record, []uint64, error) {
	img, ok, err := st.readImageTo(n, readChain, pooled, chainBuf, nil)
	if err != nil || !ok || img.k != vertexKind {
		return nil, nil, err
	}
	if err := decodeImage(r, vertexKind, img.bytes, st.codec(n)); err != nil {
		return nil, nil, gdi.Errorf(gdi.ErrIntern, "gdirma: holder %v: %v", bgdl.DPtr(n), err)
	}
	r.readFrom(&img, n)
	return r, img.chain, nil
}

// imageBuf returns a buffer of l bytes for an image: from st.images,
// appended to *into, if into is set and the image is not small.
func (st *store) imageBuf(l int, into *[]*[]byte) []byte {
	if into == nil || l < minPooledImage {
		return make([]byte, l)
	}
	b := st.images.get(l)
	*into = append(*into, b)
	return *b
}
