package store

import (
	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/txn"
)

// Reads begun together. A caller about to read many holders, one after
// the other (the neighbours of a vertex it deletes), starts them in one
// go with BeginReads: the lock words of all of them in one batch of
// atomics, the first part of each (and the block ahead, if asked) in one
// round of gets, and the lock words again in one batch, which checks what
// was got. Each Read given its Begun (Request.Begun) then starts from it:
// a read that needs no more than the part got makes no call at all; one
// that needs more gets it and checks the lock word as any read does,
// against the stamp of the batch. Three round trips for all of them,
// where reading them one by one costs three or four each.

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

	stamp    uint64
	stamped  bool    // stamp is the lock word with no writer in it
	valid    bool    // the word was still stamp after the part was got
	buf      *[]byte // a block buffer holding the part, from BlockBuf
	lead     int     // the bytes of buf got
	gotAhead bool
}

// BeginReads begins a read of each holder ps[i] as rqs[i] asks (its Mode
// and Ahead), into begun[i]: it gets what such a read gets first. Holders that are no valid block are left
// alone. The caller gives each Begun to Read with the same Request, or
// back with EndReads.
func (s *Store) BeginReads(ps []bgdl.DPtr, rqs []Request, begun []Begun) error {
	words := make([]rma.Atomic, 0, len(ps))
	for _, p := range ps {
		if s.Valid(p) {
			a := s.LockAddr(p)
			words = append(words, rma.Atomic{Kind: rma.AtomicGet, Target: a.Rank, Offset: a.Off})
		}
	}
	if err := rma.Atomics(s.locks, words); err != nil {
		return Internal(err)
	}
	j := 0
	for i, p := range ps {
		if !s.Valid(p) {
			continue
		}
		b := &begun[i]
		*b = Begun{}
		b.stamp, b.stamped = txn.StampOf(words[j].Prev)
		j++
		if !b.stamped {
			continue
		}
		b.buf, b.lead = s.BlockBuf(), s.leadOf(p, &rqs[i])
		if err := s.data.Get((*b.buf)[:b.lead], p.Rank(), p.Offset()); err != nil {
			return Internal(err)
		}
		if ah := rqs[i].Ahead; ah != nil && s.Valid(ah.At) && len(ah.Buf) == s.bs {
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
	for i, p := range ps {
		if !s.Valid(p) {
			continue
		}
		b := &begun[i]
		b.valid = b.stamped && txn.Stamped(words[j].Prev, b.stamp)
		j++
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

// take returns the part b got, which the caller owns from now on, and
// empties b; nil if b got nothing.
func (b *Begun) take() (buf *[]byte, lead int, gotAhead bool) {
	if b == nil || b.buf == nil {
		return nil, 0, false
	}
	buf, lead, gotAhead = b.buf, b.lead, b.gotAhead
	b.buf = nil
	return buf, lead, gotAhead
}

// stampOr returns the stamp b read, if it read one with no writer in the
// word, else one read now (txn.ReadBegin) of the lock word at a.
func (b *Begun) stampOr(locks rma.Window, a txn.Addr) (uint64, error) {
	if b != nil && b.stamped {
		return b.stamp, nil
	}
	return txn.ReadBegin(locks, a.Rank, a.Off)
}
