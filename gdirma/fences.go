package gdirma

import (
	"sort"

	"github.com/gdi-go/gdi/gdirma/internal/layout"
)

// Fences. The edge references of a long vertex image run over many
// continuation blocks, and a reference may start in one block and end in
// the next. So that a search for one reference need not walk all those
// before it, the marker word of every continuation block tells where in
// the block the first entry (reference or tombstone) that starts there
// begins: its fence, or noFence if none does (the block holds only labels
// and properties, or only the end of the last entry: an entry is shorter
// than a block). Tombstones keep every entry where it was, so fences stay
// true through the writes of changed blocks only (dirty.go).
//
// A reader that reads a whole image of more than minFenced blocks keeps
// their fences (record.fences); while the references keep the layout
// they were read in, record.rawFind uses them to search by halving the
// blocks, then walks at most one block's worth of entries. The blocks of
// shorter images, whose fences no one reads, have noFence: writing them
// costs no walk. (An image changes its number of blocks only by a write
// of all of it.)

// noFence is the fence of a block in which no entry starts.
const noFence = 0xffff

// minFenced is the number of blocks up to which images have no fences:
// walking a few blocks costs little.
const minFenced = 4

// fenceWalk finds the fences of the blocks of an image, in order, by
// walking its references once.
type fenceWalk struct {
	refs []byte // the references
	at   int    // the image offset of refs
	pos  int    // the offset in refs of the first entry not yet passed
	cd   layout.Codec
}

// walkFences returns a fenceWalk of the references of image p, written
// in blocks blocks (none for an edge or a short image).
func walkFences(p imageParts, cd layout.Codec, blocks int) fenceWalk {
	if p.refs < 0 || blocks <= minFenced {
		return fenceWalk{}
	}
	if p.tail != nil {
		return fenceWalk{refs: p.tail, at: len(p.head), cd: cd}
	}
	return fenceWalk{refs: p.head[p.refs:], at: p.refs, cd: cd}
}

// next returns the fence of the block that holds image bytes [s, s+c).
// Calls must come with ascending s.
func (w *fenceWalk) next(s, c int) uint16 {
	for w.pos < len(w.refs) && w.at+w.pos < s {
		_, size, ok := w.cd.Number(w.refs[w.pos:])
		if !ok {
			w.pos = len(w.refs) // cannot happen: images are checked
			break
		}
		w.pos += size
	}
	if w.pos < len(w.refs) && w.at+w.pos < s+c {
		return uint16(w.at + w.pos - s)
	}
	return noFence
}

// fencesOf returns the fences of the continuation blocks of image p of
// holder n.
func (st *store) fencesOf(n uint64, p imageParts) []uint16 {
	var out []uint16
	fw := walkFences(p, st.codec(n), st.blocksFor(p.len()))
	c := st.bs - contHeader
	for off := min(p.len(), st.bs-primaryHeader); off < p.len(); off += c {
		out = append(out, fw.next(off, c))
	}
	return out
}

// walkFrom returns the offset in raw from which a walk looking for
// reference n may start: the fence of the last block whose first live
// entry has a number not above n, found by halving the blocks, or 0.
func (r *record) walkFrom(n uint64) int {
	fences := r.fences()
	if !r.edit.on || len(fences) == 0 {
		return 0
	}
	k := sort.Search(len(fences), func(j int) bool {
		at, ok := r.fenceAt(j)
		if !ok {
			// No entry starts in the block: it holds labels and
			// properties, before the references, or the end of the last
			// one.
			return at > 0
		}
		for b := r.raw[at:]; len(b) > 0; {
			e, size, ok := r.cd.Number(b)
			if !ok {
				break
			}
			if e != 0 || b[0] != layout.RfDead {
				return e > n
			}
			b = b[size:]
		}
		return true // only tombstones from here on
	})
	if k == 0 {
		return 0
	}
	if at, ok := r.fenceAt(k - 1); ok {
		return at
	}
	return 0 // a block before the references
}

// fenceAt returns the offset in raw of the fence of continuation block
// j+1 of the image r was read from. If no entry starts in the block, ok
// is false and at is where the block starts, relative to raw.
func (r *record) fenceAt(j int) (at int, ok bool) {
	bs := int(r.cd.BS)
	at = bs - primaryHeader + j*(bs-contHeader) - int(r.rawOff)
	f := r.long.fences[j]
	if f == noFence {
		return at, false
	}
	at += int(f)
	return at, at >= 0 && at < len(r.raw)
}
