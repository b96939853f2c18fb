package gdirma

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"sync"

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
//   - it finds the blocks in the rank's memo of chains (chainmemo.go), and
//     the block the memo guesses holds the reference comes with that
//     first read; else it walks the chain reading only the first cache
//     line of each block: its marker, with the fence, the next block, and
//     the number of the first entry that starts there;
//   - it reads whole only the blocks from the last one that starts at or
//     below the number, up to the reference;
//   - it checks the lock word read with the part of the image, if it read
//     anything after it: if a writer came in meanwhile, it reads the vertex
//     whole as before.
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
	// known is what the memo had of the vertex, nil if nothing; ahead the
	// block the first read of the vertex got with its primary block
	// (store.Request.Ahead), if any: block aheadAt of known's chain.
	known   *knownChain
	ahead   store.Ahead
	aheadAt int
}

// newDropPlan starts p, empty but for what the memo has of n (p.known),
// as the plan of drops from vertex n, read in part as h says, whose image
// spans more than store.MinFenced blocks. What it reads later, it reads
// without a lock: the caller checks the lock word of h afterwards if it
// read anything (dropReader.fetched). ok is false if the labels,
// properties, degrees and count do not all fit in the part read.
func (st *graph) newDropPlan(n layout.Number, h *restHint, p *dropPlan) (ok bool, err error) {
	if p.known == nil {
		p.known = st.chains.get(n.Holder())
	}
	d := p.d
	d.st, d.cd, d.length, d.first, d.prefix = st, st.Codec(n.Holder()), h.Length, st.BlockSize()-store.PrimaryHeader, h.Bytes
	if len(h.Chain) > 1 && len(h.Fences) != len(h.Chain)-1 {
		return false, nil
	}
	whole, err := d.recall(p.known, h)
	if err != nil {
		return false, err
	}
	if !whole {
		// Not remembered, or not as it is: the chain is walked as far as
		// the drops need, and the memo takes that part.
		d.start(n, h)
	}
	if a := p.ahead.Buf; a != nil {
		p.ahead.Buf = nil
		if !whole || !h.Ahead || p.aheadAt >= len(d.chain) || d.chain[p.aheadAt] != p.ahead.At {
			d.spare = append(d.spare, a) // got in vain, or not at all
		} else if err := d.keep(p.aheadAt, a); err != nil {
			return false, err
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
			return false, err
		}
		if k, _, length, ok := store.PrimaryOf(prim); !ok || k != vertexKind || length != h.Length {
			return false, errTorn
		}
		img0 = prim[store.PrimaryHeader:]
		end, at, count, ok = countsAt(img0)
	}
	if !ok {
		return false, nil // the head goes on past the primary block
	}
	if uint64(h.Length-at) <= d.cd.BS {
		// References of a block or less are moved up over a dropped one,
		// not left a tombstone (record.delRef): a long image of short
		// references, of long properties, is read whole and dropped so.
		return false, nil
	}
	p.counts, p.oldCounts, p.count = end, img0[end:at], count
	return true, nil
}

// dropPlans holds the plans of ended transactions. A plan's lists have
// room for the longest chain it walked and it keeps the blocks it read:
// the next plan reuses them instead of allocating and clearing its own,
// which for hubs of hundreds of blocks cost more than the walk.
var dropPlans = sync.Pool{New: func() any { return new(dropPlan) }}

// newPlan returns an empty plan, with the room of an earlier one.
func newPlan() *dropPlan {
	p := dropPlans.Get().(*dropPlan)
	r := &p.reader
	chain, fences, firsts, fresh := r.chain[:0], r.fences[:0], r.firsts[:0], r.fresh[:0]
	blocks, spare, patches := r.blocks[:0], r.spare, p.patches[:0]
	*p = dropPlan{patches: patches}
	p.reader = dropReader{chain: chain, fences: fences, firsts: firsts, fresh: fresh, blocks: blocks, spare: spare}
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
	if b := p.ahead.Buf; b != nil && len(r.spare) < maxSpare {
		r.spare = append(r.spare, b)
	}
	clear(r.blocks)
	clear(p.patches)
	r.blocks, p.patches = r.blocks[:0], p.patches[:0]
	r.st, r.prefix, r.known, p.known, p.oldCounts, p.want = nil, nil, nil, nil, nil, nil
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
	start, err := d.startFor(e)
	if err != nil {
		return err
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

// writeDrops writes the plans of drops, vertices whose write locks the
// transaction holds, in place with version (store.InstallPatches).
func (st *graph) writeDrops(drops []writeItem, version store.Version) error {
	holders := make([]store.Patched, len(drops))
	for i, it := range drops {
		holders[i] = store.Patched{Holder: it.n.Holder(), Patches: it.o.plan.patches}
	}
	if err := st.InstallPatches(version, holders); err != nil {
		return err
	}
	if invariants.Enabled {
		for _, it := range drops {
			var got store.Image
			ok, err := st.read(it.n, &store.Request{}, &got)
			if err != nil || !ok || !bytes.Equal(got.Bytes, it.o.plan.want) {
				panic(fmt.Sprintf("gdirma: vertex %v after its drops were written in place: %v %v, image differs from the record code's", it.n.Holder(), ok, err))
			}
		}
	}
	return nil
}

// long reports whether a vertex whose primary block was glanced at (g)
// seems to have an image of more than store.MinFenced blocks: a guess,
// which the caller's read checks. If the image seems short but longer than
// the primary block, the next block is prefetched: the caller reads it
// whole soon.
func (st *graph) long(g store.Glimpse) bool {
	if !g.OK {
		return false
	}
	if st.BlocksFor(g.Length) > store.MinFenced {
		return true
	}
	if st.CanPrefetch() && g.Length > st.BlockSize()-store.PrimaryHeader {
		st.Prefetch(g.Next, st.BlockSize())
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
