package store

import (
	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
)

// Fences. The edge references of a long vertex image run over many
// continuation blocks, and a reference may start in one block and end in
// the next. So that a search for one reference need not walk all those
// before it, the marker word of every continuation block tells where in
// the block the first entry (reference or tombstone) that starts there
// begins: its fence, or NoFence if none does (the block holds only labels
// and properties, or only the end of the last entry: an entry is shorter
// than a block). Tombstones keep every entry where it was, so fences stay
// true through writes of changed blocks only (Dirty).
//
// The blocks of images of at most MinFenced blocks, whose fences no one
// reads, have NoFence: writing them costs no walk. (An image changes its
// number of blocks only by a write of all of it.)

// NoFence is the fence of a block in which no entry starts.
const NoFence = 0xffff

// MinFenced is the number of blocks up to which images have no fences:
// walking a few blocks costs little.
const MinFenced = 4

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
func walkFences(p Parts, cd layout.Codec, blocks int) fenceWalk {
	if p.Refs < 0 || blocks <= MinFenced {
		return fenceWalk{}
	}
	if p.Tail != nil {
		return fenceWalk{refs: p.Tail, at: len(p.Head), cd: cd}
	}
	return fenceWalk{refs: p.Head[p.Refs:], at: p.Refs, cd: cd}
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
	return NoFence
}

// FencesOf returns the fences the continuation blocks of image p of
// vertex holder v have when written.
func (s *Store) FencesOf(v bgdl.DPtr, p Parts) []uint16 {
	var out []uint16
	fw := walkFences(p, s.Codec(v), s.BlocksFor(p.Len()))
	c := s.bs - ContHeader
	for off := min(p.Len(), s.bs-PrimaryHeader); off < p.Len(); off += c {
		out = append(out, fw.next(off, c))
	}
	return out
}
