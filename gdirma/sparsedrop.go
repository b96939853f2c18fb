package gdirma

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/gdirma/internal/store"
	"github.com/gdi-go/gdi/internal/invariants"
)

// Sparse drops. Deleting a vertex removes the reference each neighbour
// keeps of each of its edges, and the neighbours of a vertex are most
// often hubs: reading a hub's whole image to turn one reference into a
// tombstone read hundreds of blocks for one changed. When a transaction
// drops a reference from a long image it has read only in part (a
// neighbour of a vertex it frees, Transaction.dropSparse), it finds the
// reference in the blocks instead, by the fences of the continuation
// blocks (fences.go), without a lock, as it reads anything else:
//
//   - it starts from the part of the primary block it read already, which
//     holds the degrees and most often the count;
//   - it walks the chain reading only the first cache line of each block:
//     its marker, with the fence, the next block, and the number of the
//     first entry that starts there;
//   - it reads whole only the blocks from the last one that starts at or
//     below the number, up to the reference;
//   - it checks the lock word read with the part of the image: if a writer
//     came in meanwhile, it reads the vertex whole as before.
//
// The transaction keeps the edge numbers (txObj.drops) and where they are
// (txObj.plan). Its commit, with the holder locked and its version
// validated, so that the places found still hold, writes the tombstones,
// the new degrees and count in the primary block, and the version, and
// nothing else; and it does so only after everything else of the commit
// is installed, which may still fail and change nothing. Walking a hub
// costs one cache line per block instead of a whole block, and no lock is
// held meanwhile.
//
// Anything else the transaction does with the vertex reads it whole
// first, and the drops are then made on the copy (Transaction.full). So
// is a plan that cannot be written in place: new degrees or count of
// another length, explicit indexes (whose entries of lightweight edges a
// commit finds by comparing whole records), or a vertex left with no
// references. Labels and properties past the primary block make no plan.
// Under invariants every such write is read back and compared with the
// image the record code would have written.

// testHookDrops, if set, is called by every commit of sparse drops with
// whether they were written in place.
var testHookDrops func(inPlace bool)

// testHookReread, if set, is called when a plan reads the rest of the
// primary block because the count lies past the part read.
var testHookReread func()

// dropLead is how much of a continuation block the walk reads: its
// header and, at the fences most blocks have, the number of the first
// entry.
const dropLead = 64

// dropPlan is where the references a transaction drops from vertex n
// are, found at drop time: the walk of its chain so far, where its degrees
// and count are, and the tombstones to write.
type dropPlan struct {
	d         *dropReader // &reader
	reader    dropReader
	counts    int    // image offset of the degrees and count
	oldCounts []byte // as committed
	count     uint64 // the committed count of references
	patches   []store.Patch
	want      []byte // the whole image after the drops, under invariants
}

// dropReader reads the image of a vertex by pieces.
type dropReader struct {
	st     *graph
	cd     layout.Codec
	length int
	first  int // image bytes in the primary block
	// prefix is what the transaction read of the image, from the start
	// of the primary block: bytes within it are not read again.
	prefix []byte
	// chain, fences and firsts have room for every block of the image
	// from the start, so that walking a hub appends without growing.
	chain  []bgdl.DPtr // blocks walked so far, primary first
	next   bgdl.DPtr   // the block after the last in chain, Null at the end
	fences []uint16
	firsts []layout.Number // number of the first entry of each block, 0 if unknown
	// blocks are the blocks read whole, by index in chain: a few per
	// vertex, so a list beats a map.
	blocks []readBlock
	spare  [][]byte       // block buffers of an earlier plan, for reuse
	lead   [dropLead]byte // what walk reads of a block
}

// readBlock is block i of a chain, read whole.
type readBlock struct {
	i int
	b []byte
}

// errTorn reports bytes that make no sense: read while a writer changed
// them, unless the lock word says none did.
var errTorn = errors.New("inconsistent image")

// blockOf returns the block index holding image offset off and the
// offset of that byte in the block.
func (d *dropReader) blockOf(off int) (int, int) {
	if off < d.first {
		return 0, store.PrimaryHeader + off
	}
	c := d.st.BlockSize() - store.ContHeader
	return 1 + (off-d.first)/c, store.ContHeader + (off-d.first)%c
}

// startOf returns the image offset at which block i's data begins.
func (d *dropReader) startOf(i int) int {
	if i == 0 {
		return 0
	}
	return d.first + (i-1)*(d.st.BlockSize()-store.ContHeader)
}

// walk reads the start of continuation blocks until block i is known, or
// the chain ends.
func (d *dropReader) walk(i int) error {
	buf := &d.lead
	lead := min(dropLead, d.st.BlockSize())
	for len(d.chain) <= i && d.next != 0 {
		next := d.next
		if !d.st.Valid(next) || len(d.chain) >= d.st.BlocksFor(d.length) {
			return errTorn
		}
		if err := d.st.Get(buf[:lead], next, 0); err != nil {
			return err
		}
		fence, ok := store.ContOf(buf[:])
		if !ok {
			return errTorn
		}
		var num layout.Number
		if fence != store.NoFence && store.ContHeader+int(fence) < lead {
			if e, _, ok := d.cd.Number(buf[store.ContHeader+int(fence) : lead]); ok {
				num = e // 0 for a tombstone: unknown
			}
		}
		d.chain = append(d.chain, next)
		d.fences = append(d.fences, fence)
		d.firsts = append(d.firsts, num)
		d.next = store.NextOf(buf[:])
	}
	return nil
}

// block returns block i whole, reading it on first use.
func (d *dropReader) block(i int) ([]byte, error) {
	for _, rb := range d.blocks {
		if rb.i == i {
			return rb.b, nil
		}
	}
	if err := d.walk(i); err != nil {
		return nil, err
	}
	if i >= len(d.chain) {
		return nil, errTorn
	}
	var b []byte
	if k := len(d.spare) - 1; k >= 0 && len(d.spare[k]) == d.st.BlockSize() {
		b, d.spare = d.spare[k], d.spare[:k]
	} else {
		b = make([]byte, d.st.BlockSize())
	}
	if err := d.st.Get(b, d.chain[i], 0); err != nil {
		return nil, err
	}
	d.blocks = append(d.blocks, readBlock{i, b})
	return b, nil
}

// bytesAt returns up to k image bytes from offset off on, fewer at the
// end of the image. They may be the reader's own: callers do not change
// them.
func (d *dropReader) bytesAt(off, k int) ([]byte, error) {
	k = min(k, d.length-off)
	if off+k <= len(d.prefix) {
		return d.prefix[off : off+k], nil
	}
	if i, at := d.blockOf(off); at+k <= d.st.BlockSize() {
		// Within one block, most often: its bytes, not a copy.
		b, err := d.block(i)
		if err != nil {
			return nil, err
		}
		return b[at : at+k], nil
	}
	out := make([]byte, 0, k)
	for len(out) < k {
		i, at := d.blockOf(off + len(out))
		b, err := d.block(i)
		if err != nil {
			return nil, err
		}
		out = append(out, b[at:min(len(b), at+k-len(out))]...)
	}
	return out, nil
}

// patch adds the patches that write b at image offset off.
func (d *dropReader) patch(p *dropPlan, off int, b []byte) {
	for len(b) > 0 {
		i, at := d.blockOf(off)
		k := min(len(b), d.st.BlockSize()-at)
		p.patches = append(p.patches, store.Patch{At: d.chain[i], Off: at, B: b[:k]})
		off, b = off+k, b[k:]
	}
}

// newDropPlan starts the plan of drops from vertex n, read in part as h
// says, whose image spans more than store.MinFenced blocks. What it reads
// later, it reads without a lock: the caller checks the lock word of h
// afterwards. ok is false if the labels, properties, degrees and count do
// not all fit in the part read.
func (st *graph) newDropPlan(n layout.Number, h *restHint) (p *dropPlan, ok bool, err error) {
	plan := newPlan(st.BlocksFor(h.Length))
	defer func() {
		if !ok || err != nil {
			plan.release()
			p = nil
		}
	}()
	p = plan
	d := p.d
	d.st, d.cd, d.length, d.first, d.prefix, d.next = st, st.Codec(n.Holder()), h.Length, st.BlockSize()-store.PrimaryHeader, h.Bytes, h.Next
	d.chain, d.fences, d.firsts = append(d.chain, n.Holder()), append(d.fences, 0), append(d.firsts, 0)
	if len(h.Chain) > 1 { // the part read spans blocks: the walk starts after them
		if len(h.Fences) != len(h.Chain)-1 {
			return nil, false, nil
		}
		d.chain = append(d.chain, h.Chain[1:]...)
		d.fences = append(d.fences, h.Fences...)
		for range h.Chain[1:] {
			d.firsts = append(d.firsts, 0)
		}
	}
	img0 := h.Bytes
	end, at, count, ok := countsAt(img0)
	if !ok && len(img0) < min(h.Length, st.BlockSize()-store.PrimaryHeader) {
		// The count, or more, lies past the part read: read the rest
		// of the primary block.
		if testHookReread != nil {
			testHookReread()
		}
		prim, err := p.d.block(0)
		if err != nil {
			return nil, false, err
		}
		if k, _, length, ok := store.PrimaryOf(prim); !ok || k != vertexKind || length != h.Length {
			return nil, false, errTorn
		}
		img0 = prim[store.PrimaryHeader:]
		end, at, count, ok = countsAt(img0)
	}
	if !ok {
		return nil, false, nil // the head goes on past the primary block
	}
	if uint64(h.Length-at) <= d.cd.BS {
		// References of a block or less are moved up over a dropped one,
		// not left a tombstone (record.delRef): a long image of short
		// references, of long properties, is read whole and dropped so.
		return nil, false, nil
	}
	p.counts, p.oldCounts, p.count = end, img0[end:at], count
	return p, true, nil
}

// dropPlans holds the plans of ended transactions. A plan's lists have
// room for the longest chain it walked and it keeps the blocks it read:
// the next plan reuses them instead of allocating and clearing its own,
// which for hubs of hundreds of blocks cost more than the walk.
var dropPlans = sync.Pool{New: func() any { return new(dropPlan) }}

// newPlan returns an empty plan for an image of nb blocks.
func newPlan(nb int) *dropPlan {
	p := dropPlans.Get().(*dropPlan)
	r := &p.reader
	chain, fences, firsts := r.chain[:0], r.fences[:0], r.firsts[:0]
	if cap(chain) < nb {
		chain, fences, firsts = make([]bgdl.DPtr, 0, nb), make([]uint16, 0, nb), make([]layout.Number, 0, nb)
	}
	blocks, spare, patches := r.blocks[:0], r.spare, p.patches[:0]
	*p = dropPlan{patches: patches}
	p.reader = dropReader{chain: chain, fences: fences, firsts: firsts, blocks: blocks, spare: spare}
	p.d = &p.reader
	return p
}

// maxSpare bounds the block buffers a plan keeps for the next.
const maxSpare = 8

// release gives p back to dropPlans, keeping its room but nothing of its
// database or transaction. p must not be used after.
func (p *dropPlan) release() {
	r := &p.reader
	for _, b := range r.blocks {
		if len(r.spare) < maxSpare {
			r.spare = append(r.spare, b.b)
		}
	}
	clear(r.blocks)
	clear(p.patches)
	r.blocks, p.patches = r.blocks[:0], p.patches[:0]
	r.st, r.prefix, p.oldCounts, p.want = nil, nil, nil, nil
	dropPlans.Put(p)
}

// countsAt finds the degrees and count after the head at the start of
// img: they take img[end:at]. ok is false if img ends first.
func countsAt(img []byte) (end, at int, count uint64, ok bool) {
	end, _, _, err := layout.HeadEnd(img)
	if err != nil {
		return 0, 0, 0, false
	}
	at = end
	for i := range 4 { // the degrees, then the count
		x, k := binary.Uvarint(img[at:]) // k <= 0 if it runs off img
		if k <= 0 {
			return 0, 0, 0, false
		}
		at += k
		if i == 3 {
			count = x
		}
	}
	return end, at, count, true
}

// drop adds to p the tombstone of the reference to edge e.
func (p *dropPlan) drop(e layout.Number) error {
	d := p.d
	// Start at the last block whose first entry is known to be at most e;
	// blocks are walked only as far as they start below it.
	start := 0
	for i := 1; ; i++ {
		if err := d.walk(i); err != nil {
			return err
		}
		if i >= len(d.chain) {
			break
		}
		if f := d.firsts[i]; f != 0 {
			if f > e {
				break
			}
			start = i
		}
	}
	pos := p.counts + len(p.oldCounts)
	if start > 0 {
		pos = d.startOf(start) + int(d.fences[start])
	}
	// The entries are scanned a piece at a time: the rest of the block
	// pos is in, or of the prefix read. An entry that runs over the end
	// of its piece is read by itself.
	var piece []byte
	for pos < d.length {
		if len(piece) == 0 {
			var err error
			if piece, err = d.bytesAt(pos, d.pieceAt(pos)); err != nil {
				return err
			}
		}
		b := piece
		num, size, ok := d.cd.Number(b)
		if !ok {
			var err error
			if b, err = d.bytesAt(pos, 32); err != nil {
				return err
			}
			num, size, ok = d.cd.Number(b)
			piece = nil
		}
		if !ok || size <= 0 || num > e {
			break
		}
		if num == e && b[0] != layout.RfDead {
			dead := slices.Clone(b[:size])
			layout.Kill(dead)
			d.patch(p, pos, dead)
			return nil
		}
		pos += size
		if piece != nil {
			piece = piece[size:]
		}
	}
	return errTorn // or a concurrent change: no reference to e
}

// pieceAt returns how many image bytes from offset off on lie in one
// piece: in the prefix read, or else in the block of off.
func (d *dropReader) pieceAt(off int) int {
	if off < len(d.prefix) {
		return len(d.prefix) - off
	}
	_, at := d.blockOf(off)
	return d.st.BlockSize() - at
}

// finish completes p for the commit of the drops, whose vertex the caller
// holds the write lock of and has validated: the degrees and count
// deg and count go in place of the committed ones. ok is false if they do
// not take as many bytes, or explicit indexes need whole records: the
// caller then writes the vertex whole.
func (st *graph) finish(p *dropPlan, deg [3]uint64, count uint64) (ok bool, err error) {
	if st.hasIndexes() {
		return false, nil
	}
	counts := make([]byte, 0, len(p.oldCounts))
	for _, x := range deg {
		counts = binary.AppendUvarint(counts, x)
	}
	counts = binary.AppendUvarint(counts, count)
	if len(counts) != len(p.oldCounts) || count == 0 {
		return false, nil
	}
	p.d.patch(p, p.counts, counts)
	return true, nil
}

// wantAfterDrops returns the image of vertex n once the references to
// drops are removed by the record code, for the check of writeDrops.
func (st *graph) wantAfterDrops(n layout.Number, drops []layout.Number) ([]byte, error) {
	r, _, err := st.loadImage(vertexKind, n, store.Whole)
	if err != nil || r == nil {
		return nil, fmt.Errorf("gdirma: vertex %v unreadable for the check of its drops: %v", n.Holder(), err)
	}
	if e, ok := r.delRefs(drops); !ok {
		return nil, fmt.Errorf("gdirma: vertex %v: the record code finds no edge %d to drop", n.Holder(), e)
	}
	p := encodeParts(vertexKind, r, st.Codec(n.Holder()), nil)
	return append(slices.Clone(p.Head), p.Tail...), nil
}

// writeDrops writes plan, finished, to vertex n with version, under its
// write lock.
func (st *graph) writeDrops(plan *dropPlan, n layout.Number, version store.Version) error {
	if err := st.Install(version, &store.Plan{Kind: vertexKind, Holder: n.Holder(), Patches: plan.patches}); err != nil {
		return err
	}
	if invariants.Enabled {
		var got store.Image
		ok, err := st.read(n, &store.Request{}, &got)
		if err != nil || !ok || !bytes.Equal(got.Bytes, plan.want) {
			panic(fmt.Sprintf("gdirma: vertex %v after its drops were written in place: %v %v, image differs from the record code's", n.Holder(), ok, err))
		}
	}
	return nil
}

// long reports whether vertex n seems to have an image of more than
// store.MinFenced blocks, by a glance at the length word of its primary block
// without a lock: a guess, which the caller's read checks. If the image
// seems short but longer than the primary block, the next block is
// prefetched: the caller reads it whole soon.
func (st *graph) long(n layout.Number) bool {
	length, next, ok := st.Glance(n.Holder())
	if !ok {
		return false
	}
	if st.BlocksFor(length) > store.MinFenced {
		return true
	}
	if st.CanPrefetch() && length > st.BlockSize()-store.PrimaryHeader {
		st.Prefetch(next, st.BlockSize())
	}
	return false
}

// delRefs removes the references to edges drops from r (delRef), or
// stops at the first it lacks, which it returns.
func (r *record) delRefs(drops []layout.Number) (missing layout.Number, ok bool) {
	for _, e := range drops {
		if !r.delRef(e) {
			return e, false
		}
	}
	return 0, true
}

// hasIndexes reports whether the database has explicit indexes.
func (st *graph) hasIndexes() bool {
	st.idx.mu.RLock()
	defer st.idx.mu.RUnlock()
	return len(st.idx.defs) != 0
}
