package store

import (
	"encoding/binary"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/rma"
)

// Parts is an image given as two pieces, Head then Tail, written as one.
// Refs is the offset where the edge references of a vertex begin (-1 for
// an edge); a Tail, if set, must be the references (Refs == len(Head)):
// the fences are found by walking it.
type Parts struct {
	Head, Tail []byte
	Refs       int
}

// Len is the length of the image.
func (p Parts) Len() int { return len(p.Head) + len(p.Tail) }

// CopyAt copies the bytes of the image from offset off on into dst, as
// many as fit, and returns how many.
func (p Parts) CopyAt(dst []byte, off int) int {
	n := 0
	if off < len(p.Head) {
		n = copy(dst, p.Head[off:])
	}
	if t := off + n - len(p.Head); n < len(dst) && t >= 0 && t < len(p.Tail) {
		n += copy(dst[n:], p.Tail[t:])
	}
	return n
}

// Dirty names the bytes of an image that may differ from what its blocks
// hold: all of them (the zero Dirty), or, with Some set, those before
// Head and those in [Lo, Hi). An image written over the blocks it was
// read from, with the same length, need only have those blocks written.
type Dirty struct {
	Some         bool
	Head, Lo, Hi int
}

// Covers reports whether image bytes [from, to) may have changed.
func (d Dirty) Covers(from, to int) bool {
	return !d.Some || from < d.Head || (from < d.Hi && d.Lo < to)
}

// Plan is the planned change of one holder, which Install writes. One of
// its forms applies, the first that is set:
//
//   - Gone: the holder is deleted. Its primary block stops being one; its
//     blocks are released later (Release), once no lock is held.
//   - Head: new labels and properties, as long as the old ones and within
//     the primary block, written over them in place.
//   - else Image: the whole image, written over Chain (primary first, as
//     many blocks as BlocksFor says), but for the continuation blocks
//     Dirty says are unchanged; Fences, if set, are those of the
//     continuation blocks, else they are found.
type Plan struct {
	Kind   Kind
	Holder bgdl.DPtr
	// Stamp, if Stamped, is the lock word the holder's writer leaves when
	// it lets the lock go: an image written whole into the primary block
	// gets it with a check, and readers copy it in one access
	// (checked.go).
	Stamp   uint64
	Stamped bool
	Gone    bool
	Head    []byte
	Chain   []bgdl.DPtr
	Image   Parts
	Dirty   Dirty
	Fences  []uint16
}

// Install writes plan p with version v (which Gone ignores). The caller
// holds the holder's write lock, or the database is quiet; a reader that
// copies the holder meanwhile finds the lock word changed (Read).
func (s *Store) Install(v Version, p *Plan) error {
	switch {
	case p.Gone:
		return s.clear(p.Holder)
	case p.Head != nil:
		return s.patchHead(p.Holder, v, p.Head)
	}
	if len(p.Chain) == 0 || p.Chain[0] != p.Holder {
		return gdi.Errorf(gdi.ErrIntern, "gdirma: holder %v: an image planned over blocks %v", p.Holder, p.Chain)
	}
	return s.write(p, v)
}

// Codec is the codec of the edge references of vertex p.
func (s *Store) Codec(p bgdl.DPtr) layout.Codec {
	v := layout.NumberOf(p)
	return layout.Codec{Self: v, Base: layout.LightNumber(v, 0, s.bs), BS: uint64(s.bs)}
}

// write writes p.Image, of a holder of kind p.Kind, with version v over
// the blocks p.Chain (primary first, as many as BlocksFor says): the
// continuation blocks first, the primary block last. Continuation blocks
// that p.Dirty says are unchanged are left as they are. p.Fences, if set,
// are those of the continuation blocks, else they are found. An image the
// primary block holds whole is checked if p.Stamped (checked.go).
func (s *Store) write(p *Plan, v Version) error {
	k, chain, img, dirty, fences := p.Kind, p.Chain, p.Image, p.Dirty, p.Fences
	bp := s.BlockBuf()
	defer s.PutBlockBuf(bp)
	size := img.Len()
	first := min(size, s.bs-PrimaryHeader)
	c := s.bs - ContHeader
	next := func(i int) bgdl.DPtr { // the block after chain[i], or Null
		if i+1 < len(chain) {
			return chain[i+1]
		}
		return bgdl.Null
	}
	fw := walkFences(img, s.Codec(chain[0]), len(chain))
	// Each continuation block is put from a buffer of its own: the puts
	// are completed together, by one flush.
	var conts flushSet
	var cbuf *[]byte
	if len(chain) > 1 {
		cbuf = s.images.get((len(chain) - 1) * s.bs)
		defer s.PutImages([]*[]byte{cbuf})
	}
	for i, off := 1, first; i < len(chain); i, off = i+1, off+c {
		var fence uint16
		if len(fences) == len(chain)-1 {
			fence = fences[i-1]
		} else {
			fence = fw.next(off, c)
		}
		if !dirty.Covers(off, off+c) {
			continue
		}
		blk := (*cbuf)[(i-1)*s.bs:][:ContHeader+min(max(size-off, 0), c)]
		binary.LittleEndian.PutUint64(blk, markerCont|uint64(fence))
		binary.LittleEndian.PutUint64(blk[nextWord:], uint64(next(i)))
		img.CopyAt(blk[ContHeader:], off)
		if err := s.data.Put(blk, chain[i].Rank(), chain[i].Offset()); err != nil {
			return Internal(err)
		}
		conts.add(chain[i].Rank())
	}
	// The continuation blocks are complete before the primary block is
	// put: one flush for all of them.
	if err := conts.flush(s.data); err != nil {
		return Internal(err)
	}
	blk := (*bp)[:PrimaryHeader+first]
	binary.LittleEndian.PutUint64(blk, markerPrimary|uint64(k))
	binary.LittleEndian.PutUint64(blk[nextWord:], uint64(next(0)))
	binary.LittleEndian.PutUint64(blk[versionWord:], uint64(v))
	binary.LittleEndian.PutUint64(blk[lengthWord:], uint64(size))
	img.CopyAt(blk[PrimaryHeader:], 0)
	switch {
	case len(chain) > 1:
		binary.LittleEndian.PutUint32(blk[lengthWord+4:], ChainSum(chain))
	case p.Stamped:
		setCheck(blk, size, p.Stamp)
	}
	return s.Put(blk, chain[0], 0)
}

// patchHead writes head over the labels and properties of holder p, which
// it replaces byte for byte within the primary block, and sets the
// holder's version to v. A check the block had no longer holds
// (checked.go): reads take the long way until it is written whole again.
func (s *Store) patchHead(p bgdl.DPtr, v Version, head []byte) error {
	if err := s.data.Put(head, p.Rank(), p.Offset()+PrimaryHeader); err != nil {
		return Internal(err)
	}
	return s.setVersion(p, v)
}

// Patch is bytes B to write at offset Off of block At.
type Patch struct {
	At  bgdl.DPtr
	Off int
	B   []byte
}

// Patched is bytes written in place into the blocks of a holder, Holder
// (the tombstones and counts of references dropped from a long image).
type Patched struct {
	Holder  bgdl.DPtr
	Patches []Patch
}

// InstallPatches writes the patches of holders, whose write locks the
// caller holds, and sets the version of each to v: the patches first,
// then the versions, in one batch of atomics (rma.Atomics), and then the
// ranks the patches went to are flushed (most often by the batch
// already). A reader that copies one of the holders meanwhile finds its
// lock word changed (Read).
func (s *Store) InstallPatches(v Version, holders []Patched) error {
	var ranks flushSet
	for _, h := range holders {
		for _, x := range h.Patches {
			if err := s.data.Put(x.B, x.At.Rank(), x.At.Offset()+x.Off); err != nil {
				return Internal(err)
			}
			ranks.add(x.At.Rank())
		}
	}
	ops := make([]rma.Atomic, len(holders))
	for i, h := range holders {
		ops[i] = rma.Atomic{Kind: rma.AtomicPut, Target: h.Holder.Rank(), Offset: h.Holder.Offset() + versionWord, Arg: uint64(v)}
	}
	if err := rma.Atomics(s.data, ops); err != nil {
		return Internal(err)
	}
	return Internal(ranks.flush(s.data))
}

// flushSet is the ranks that puts went to, which one flush completes:
// Flush of the one rank, or FlushAll if there were several.
type flushSet struct {
	rank, n int
}

func (f *flushSet) add(rank int) {
	if f.n == 0 || f.rank != rank {
		f.rank = rank
		f.n++
	}
}

func (f *flushSet) flush(w rma.Window) error {
	switch f.n {
	case 0:
		return nil
	case 1:
		return w.Flush(f.rank)
	}
	return w.FlushAll()
}

func (s *Store) setVersion(p bgdl.DPtr, v Version) error {
	if err := s.data.AtomicPut(p.Rank(), p.Offset()+versionWord, uint64(v)); err != nil {
		return Internal(err)
	}
	return Internal(s.data.Flush(p.Rank()))
}
