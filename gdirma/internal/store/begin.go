package store

import (
	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/txn"
)

// Reads begun together. A caller about to read many holders, one after
// the other (the neighbours of a vertex it deletes), starts them in one
// go with BeginReads. A holder that is read the long way (no checked
// block, as its hints say, or a read that does not want one) gets its
// lock word read in one batch of atomics for all of them; then the first
// part of every holder (and the block ahead, if asked) is got in one
// round of gets; then the lock words are read again in one batch, which
// checks what was got. A holder expected in a checked block gets no lock
// word read: its block checks itself. Each Read given its Begun
// (Request.Begun) then starts from it: a read that needs no more than the
// part got makes no call at all; one that needs more gets it and checks
// as any read does (the lock word against the stamp of the batch). Three
// round trips for all of them, where reading them one by one costs three
// or four each.

// testHookBegun, if set, is called by BeginReads between its gets and its
// second batch.
var testHookBegun func()

// Begun is the start of a read of one holder, made by BeginReads, for
// Request.Begun. Its zero value starts nothing.
type Begun struct {
	// Length is the image length the part got says, and Known whether
	// anything was got: a guess, like Glance's, until Read checks it.
	Length int
	Known  bool

	long     bool    // read the long way: the lock word was read
	stamp    uint64  // if long and stamped
	stamped  bool    // stamp is the lock word with no writer in it
	valid    bool    // the word was still stamp after the part was got
	buf      *[]byte // a block buffer holding the part, from BlockBuf
	lead     int     // the bytes of buf got
	gotAhead bool
}

// BeginReads begins a read of each holder ps[i] as rqs[i] asks (its Mode
// and Ahead), into begun[i]: it gets what such a read gets first. Holders
// that are no valid block are left alone. The caller gives each Begun to
// Read with the same Request, or back with EndReads.
func (s *Store) BeginReads(ps []bgdl.DPtr, rqs []Request, begun []Begun) error {
	words := make([]rma.Atomic, 0, len(ps))
	for i, p := range ps {
		begun[i] = Begun{}
		if s.Valid(p) && (rqs[i].Mode&Checked == 0 || s.skipsCheck(p)) {
			a := s.LockAddr(p)
			words = append(words, rma.Atomic{Kind: rma.AtomicGet, Target: a.Rank, Offset: a.Off})
			begun[i].long = true
		}
	}
	if err := rma.Atomics(s.locks, words); err != nil {
		return Internal(err)
	}
	j := 0
	for i, p := range ps {
		b := &begun[i]
		if b.long {
			b.stamp, b.stamped = txn.StampOf(words[j].Prev)
			j++
		}
		if !s.Valid(p) || b.long && !b.stamped {
			continue
		}
		b.buf, b.lead = s.BlockBuf(), s.leadOf(p, &rqs[i])
		if err := s.data.Get((*b.buf)[:b.lead], p.Rank(), p.Offset()); err != nil {
			return Internal(err)
		}
		if ah := rqs[i].Ahead; b.long && ah != nil && s.Valid(ah.At) && len(ah.Buf) == s.bs {
			if err := s.data.Get(ah.Buf, ah.At.Rank(), ah.At.Offset()); err != nil {
				return Internal(err)
			}
			b.gotAhead = true
		}
	}
	if err := s.data.FlushAll(); err != nil {
		return Internal(err)
	}
	if testHookBegun != nil {
		testHookBegun()
	}
	if err := rma.Atomics(s.locks, words); err != nil {
		return Internal(err)
	}
	j = 0
	for i := range ps {
		b := &begun[i]
		if b.long {
			b.valid = b.stamped && txn.Stamped(words[j].Prev, b.stamp)
			j++
		}
		if b.buf != nil {
			_, _, length, ok := PrimaryOf((*b.buf)[:b.lead])
			b.Length, b.Known = length, ok
		}
	}
	return nil
}

// EndReads gives back the buffers of the reads of begun that Read did not
// take.
func (s *Store) EndReads(begun []Begun) {
	for i := range begun {
		if b := &begun[i]; b.buf != nil {
			s.PutBlockBuf(b.buf)
			b.buf = nil
		}
	}
}

// take returns the part b got for a read the long way, which the caller
// owns from now on, and empties b; nil if b got nothing so.
func (b *Begun) take() (buf *[]byte, lead int, gotAhead bool) {
	if b == nil || b.buf == nil || !b.long {
		return nil, 0, false
	}
	buf, lead, gotAhead = b.buf, b.lead, b.gotAhead
	b.buf = nil
	return buf, lead, gotAhead
}

// stampOr returns the stamp b read, if it read one with no writer in the
// word, else one read now (txn.ReadBegin) of the lock word at a.
func (b *Begun) stampOr(locks rma.Window, a txn.Addr) (uint64, error) {
	if b != nil && b.long && b.stamped {
		return b.stamp, nil
	}
	return txn.ReadBegin(locks, a.Rank, a.Off)
}

// takeChecked returns the part b got for a read of a checked block, which
// the caller owns from now on, and empties b; nil if b got nothing so.
func (b *Begun) takeChecked() (buf *[]byte, lead int) {
	if b == nil || b.buf == nil || b.long {
		return nil, 0
	}
	buf, lead = b.buf, b.lead
	b.buf = nil
	return buf, lead
}
