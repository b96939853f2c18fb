package store

import (
	"errors"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/txn"
)

// Mode says how much of a holder a Read fetches, and what it returns
// besides.
type Mode uint8

const (
	// Whole reads the whole image.
	Whole Mode = 0
	// Prefix reads the primary block only: its first PrefixLead bytes if
	// they hold the labels, properties and degrees of a longer image
	// (layout.PrefixHolds), else all of it. Image.Bytes is the part of
	// the image read.
	Prefix Mode = 1 << iota
	// Chain also lists the blocks of the holder (Image.Chain).
	Chain
	// On goes on from the Prefix read made before that the image given
	// to Read holds (not yet whole), instead of starting over: with
	// Prefix, block by block until the labels, properties and degrees are
	// whole; without, to the end of the image, listing the blocks. It
	// checks the lock word the read before was checked against: ok is
	// false if a writer came in between (the caller then reads the
	// holder afresh), and Held is not consulted.
	On
	// Checked lets Read copy a checked block in one access (checked.go),
	// without waiting for a writer that holds the holder's lock: the copy
	// may be of the image that writer is about to replace, which a
	// transaction that validates it then finds out. Holders where that
	// happened are read the long way, which waits, for a while (MarkBusy).
	Checked
)

// Request is what a Read is asked to do besides its Mode, and where it
// puts what it reads.
type Request struct {
	Mode Mode
	// Held, if set, names holders whose lock words the reader holds
	// (during a commit): they are read without the check against the
	// lock word.
	Held *txn.LockSet
	// Pool, if set, receives the buffers of images of MinPooled bytes or
	// more, taken from the Store's pool: the caller gives them back with
	// PutImages once nothing uses the images. Without it they are
	// allocated.
	Pool *[]*[]byte
	// Chain is room for Image.Chain.
	Chain []bgdl.DPtr
	// Small, if set, takes what is copied out (the image, or the part a
	// Prefix read copies) if it fits: room the caller owns and reuses.
	Small []byte
	// Ahead, if set, is a block the caller guesses it will read next
	// (a continuation block, which a reader that remembers the chain
	// knows): a read that copies the holder the long way gets it in the
	// same round trip as the primary block, and the check against the
	// lock word covers it too (Image.Ahead). The caller checks that the
	// block is the one it guessed.
	Ahead *Ahead
}

// Ahead is a block to get with a read (Request.Ahead): block At, whole,
// into Buf.
type Ahead struct {
	At  bgdl.DPtr
	Buf []byte
}

// Image is a committed holder as read from its blocks.
type Image struct {
	Kind    Kind
	Version Version
	Chain   []bgdl.DPtr // the blocks, primary first (Chain mode, or reads on)
	Bytes   []byte      // the image, or its first part (Prefix reads)
	Length  int         // of the whole image
	Fences  []uint16    // of the continuation blocks read, if the image has fences
	// Single is set if a Prefix read found the image whole in the
	// primary block.
	Single bool
	// Next is the first block not read; Stamp, if Stamped, the lock word
	// the copy was checked against (a later Read On checks it again).
	Next    bgdl.DPtr
	Stamp   uint64
	Stamped bool
	// ChainSum is the sum of the chain of an image that spans blocks
	// (chainsum.go), 0 if it has none.
	ChainSum uint32
	// Ahead is set if Request.Ahead was got with the copy.
	Ahead bool
}

// Whole reports whether img holds the whole image.
func (img *Image) Whole() bool { return len(img.Bytes) == img.Length }

// Read reads holder p into img as rq says. ok is false if p is no primary
// block, or, with On, if a writer changed the holder since the read
// before.
//
// The holder is copied without taking its lock. A holder its primary
// block holds whole with a check is copied in one access (checked.go);
// any other copy is checked against the lock word afterwards
// (txn.ReadValid), and made again if a writer took the word meanwhile, up
// to txn.Attempts times. What a torn copy says, errors included, counts
// only if the copy is not torn.
func (s *Store) Read(p bgdl.DPtr, rq *Request, img *Image) (ok bool, err error) {
	switch {
	case !s.Valid(p):
		return false, nil
	case rq.Mode&(On|Prefix) == On|Prefix:
		return s.readOn(p, img, rq.Pool)
	case rq.Mode&On != 0:
		return s.readRest(p, rq, img)
	case rq.Held != nil && rq.Held.Holds(uint64(p)):
		return s.copyImage(p, rq, img)
	}
	// A block that is no checked one is on its way while the lock word
	// is read.
	s.Prefetch(p, min(s.bs, PrefixLead))
	if rq.Mode&Checked != 0 && !s.skipsCheck(p) {
		if done, err := s.readChecked(p, rq, img); done || err != nil {
			return done, err
		}
	}
	a := s.LockAddr(p)
	for range txn.Attempts {
		stamp, err := txn.ReadBegin(s.locks, a.Rank, a.Off)
		if err != nil {
			if errors.Is(err, txn.ErrBusy) {
				return false, ErrBusy(p)
			}
			return false, Internal(err)
		}
		ok, err = s.copyImage(p, rq, img)
		valid, verr := txn.ReadValid(s.locks, a.Rank, a.Off, stamp)
		if verr == nil && valid {
			img.Stamp, img.Stamped = stamp, true
			return ok, err
		}
		if verr != nil {
			return false, Internal(verr)
		}
	}
	return false, ErrBusy(p)
}

// leadOf is how much of holder p's primary block a read of rq gets
// first. A prefix read starts with the first cache line or two: most
// vertices have their labels, properties and degrees there. A block of at
// most twice that is read whole at once, and so is one whose image was
// last seen past the lead (the wide hint): a second read would cost more
// than the bytes it saves.
func (s *Store) leadOf(p bgdl.DPtr, rq *Request) int {
	if rq.Mode&Prefix != 0 && s.bs > 2*PrefixLead && s.hinted(p)&hintWide == 0 {
		return PrefixLead
	}
	return s.bs
}

// copyImage is Read without the check against the lock word.
func (s *Store) copyImage(p bgdl.DPtr, rq *Request, img *Image) (ok bool, err error) {
	*img = Image{}
	bp := s.BlockBuf()
	blk := *bp
	defer s.PutBlockBuf(bp)
	prefix := rq.Mode&Prefix != 0
	lead := s.leadOf(p, rq)
	if img.Ahead, err = s.getAhead(blk[:lead], p, rq.Ahead); err != nil {
		return false, err
	}
	k, v, length, ok := PrimaryOf(blk)
	if !ok {
		return false, nil
	}
	if length < 0 || length > s.pool.Blocks()*s.size*s.bs {
		return false, gdi.Errorf(gdi.ErrIntern, "gdirma: holder %v has a corrupt length %d", p, length)
	}
	img.Kind, img.Version, img.Length = k, v, length
	s.sawLength(p, length)
	first := min(length, s.bs-PrimaryHeader)
	if length > first { // else the next word names no block (checked.go)
		img.Next, img.ChainSum = NextOf(blk), s.chainSumOf(blk, length)
	}
	if prefix {
		return true, s.copyPrefix(p, img, blk, lead, rq)
	}
	if rq.Mode&Chain != 0 {
		chain := rq.Chain
		if need := s.BlocksFor(length); cap(chain) < need {
			chain = make([]bgdl.DPtr, 0, need)
		}
		img.Chain = append(chain[:0], p)
	}
	img.Bytes = s.imageBuf(length, rq)
	copy(img.Bytes, blk[PrimaryHeader:PrimaryHeader+first])
	if err := s.readConts(p, img, first, rq.Mode&Chain != 0); err != nil {
		return false, err
	}
	return true, nil
}

// getAhead gets the start of primary block p into buf, and block ahead,
// if set, with it: one flush completes both. got is whether it got ahead.
func (s *Store) getAhead(buf []byte, p bgdl.DPtr, ahead *Ahead) (got bool, err error) {
	if ahead == nil || !s.Valid(ahead.At) || len(ahead.Buf) != s.bs {
		return false, s.Get(buf, p, 0)
	}
	var f flushSet
	for _, g := range [2]struct {
		b  []byte
		at bgdl.DPtr
	}{{buf, p}, {ahead.Buf, ahead.At}} {
		if err := s.data.Get(g.b, g.at.Rank(), g.at.Offset()); err != nil {
			return false, Internal(err)
		}
		f.add(g.at.Rank())
	}
	return true, Internal(f.flush(s.data))
}

// copyPrefix ends copyImage of a Prefix read, blk holding the first lead
// bytes of primary block p.
func (s *Store) copyPrefix(p bgdl.DPtr, img *Image, blk []byte, lead int, rq *Request) error {
	first := min(img.Length, s.bs-PrimaryHeader)
	if img.Length > first {
		// The rest is often read next: its first block is on its way
		// meanwhile.
		s.Prefetch(img.Next, min(s.bs, img.Length-first+ContHeader))
	}
	// An image that fits in the primary block is read whole: a second
	// read for the edge references would cost more than the rest of the
	// block. A longer one is cut after the lead if that holds the labels,
	// properties and degrees.
	if end := PrimaryHeader + first; end > lead {
		if img.Length > first && layout.PrefixHolds(blk[PrimaryHeader:lead]) {
			first = lead - PrimaryHeader
		} else if err := s.Get(blk[lead:end], p, lead); err != nil {
			return err
		}
	}
	if img.Length > first && s.bs > 2*PrefixLead {
		s.sawHead(p, !layout.PrefixHolds(blk[PrimaryHeader:PrefixLead]))
	}
	// The image, whole (Single) or the part the primary block holds, is
	// copied out for the caller to keep; the block buffer goes back at
	// once.
	img.Single = first == img.Length
	img.Bytes = s.imageBuf(first, rq)
	copy(img.Bytes, blk[PrimaryHeader:])
	return nil
}

// readConts reads the continuation blocks of holder p, from img.Next on,
// into img.Bytes[have:], have being the bytes of the blocks read before
// (the primary block, and any whole continuation blocks after it); with
// chain set it appends them to img.Chain. It keeps the fences of a long
// image, appended to those img has.
func (s *Store) readConts(p bgdl.DPtr, img *Image, have int, chain bool) error {
	length, next := img.Length, img.Next
	keepFences := s.BlocksFor(length) > MinFenced
	done := 1 + (have-min(length, s.bs-PrimaryHeader))/(s.bs-ContHeader)
	for blocks := done; have < length; blocks++ {
		if next == 0 || !s.Valid(next) || blocks > s.pool.Blocks()*s.size {
			return gdi.Errorf(gdi.ErrIntern, "gdirma: holder %v has a broken chain", p)
		}
		// The block is read into its place in the image, its header
		// over the last bytes of the block before, which are put back:
		// one copy of the bytes, not two.
		dst := img.Bytes[have-ContHeader : have+min(s.bs-ContHeader, length-have)]
		var saved [ContHeader]byte
		copy(saved[:], dst)
		if err := s.Get(dst, next, 0); err != nil {
			return err
		}
		fence, ok := ContOf(dst)
		after := NextOf(dst)
		copy(dst, saved[:])
		if !ok {
			return gdi.Errorf(gdi.ErrIntern, "gdirma: holder %v: block %v is no continuation", p, next)
		}
		if keepFences {
			if img.Fences == nil {
				img.Fences = make([]uint16, 0, s.BlocksFor(length)-1)
			}
			img.Fences = append(img.Fences, fence)
		}
		if chain {
			img.Chain = append(img.Chain, next)
		}
		have += len(dst) - ContHeader
		next = after
	}
	return nil
}
