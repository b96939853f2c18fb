package store

import (
	"sync/atomic"

	"github.com/gdi-go/gdi/bgdl"
)

// Hints. Each Store keeps a few bits a holder, hashed by block, set
// when the first way to read it is not worth trying. A hint is only a
// guess: a wrong one costs a get in vain or a read the long way, and
// colliding holders share their bits.
//
//   - long: holders its reads last found spanning blocks, which have no
//     check (a try costs a get in vain). The next read mends a hint.
//   - busy: holders whose copies failed validation (MarkBusy). A checked
//     read does not wait for a writer that holds the lock, so where
//     writers contend it copies images about to be replaced, and the
//     transaction fails; the long read waits. The busy hints are cleared
//     after every busyDecay marks, so that contention that has passed
//     stops costing the wait.
//   - wide: holders whose prefix reads last went on past the lead
//     (PrefixLead) to the end of the primary block: an image in one block
//     longer than the lead, or a longer one whose labels, properties and
//     degrees do not fit in it. A prefix read would get them in two
//     accesses: it gets the whole block at once instead.
type hints struct {
	// words hold the hints of 16 holders each, a nibble a holder (long,
	// busy, wide, one spare bit), so that one load reads them all.
	words [hintWords]atomic.Uint64
	marks atomic.Uint64
}

// hintWords is the size of the hints in words (256 K holders).
const hintWords = 1 << 14

// The hints of a holder, in its nibble.
const (
	hintLong uint64 = 1 << iota
	hintBusy
	hintWide
)

// busyBits are the busy hints of a word.
const busyBits = 0x2222222222222222

// busyDecay is how many marks clear the busy hints.
const busyDecay = 1 << 12

// hintBits returns the word of holder p's hints, and the shift of its
// nibble.
func (s *Store) hintBits(p bgdl.DPtr) (*atomic.Uint64, uint) {
	h := uint64(p) * 0x9e3779b97f4a7c15
	h ^= h >> 29
	return &s.hints.words[h%hintWords], uint(h>>60) << 2
}

// hinted returns the hints of holder p.
func (s *Store) hinted(p bgdl.DPtr) uint64 {
	w, at := s.hintBits(p)
	return w.Load() >> at & 0xf
}

// skipsCheck reports whether holder p is better read the long way.
func (s *Store) skipsCheck(p bgdl.DPtr) bool { return s.hinted(p)&(hintLong|hintBusy) != 0 }

// sawLength notes the length of holder p's image, as a read found it.
// The wide hint of an image that spans blocks is sawHead's.
func (s *Store) sawLength(p bgdl.DPtr, length int) {
	mask, want := hintLong|hintWide, uint64(0)
	switch {
	case length > s.bs-PrimaryHeader:
		mask, want = hintLong, hintLong
	case PrimaryHeader+length > PrefixLead:
		want = hintWide
	}
	s.setHints(p, mask, want)
}

// sawHead notes whether the labels, properties and degrees of holder p,
// whose image spans blocks, went on past the lead, as a prefix read found
// them.
func (s *Store) sawHead(p bgdl.DPtr, past bool) {
	want := uint64(0)
	if past {
		want = hintWide
	}
	s.setHints(p, hintWide, want)
}

// setHints makes the hints mask of holder p those of want.
func (s *Store) setHints(p bgdl.DPtr, mask, want uint64) {
	w, at := s.hintBits(p)
	if had := w.Load() >> at & mask; had != want {
		w.And(^(had &^ want << at))
		w.Or(want &^ had << at)
	}
}

// MarkBusy notes that a copy of holder p failed validation: its readers
// wait for its writers for a while.
func (s *Store) MarkBusy(p bgdl.DPtr) {
	if s.hints.marks.Add(1)%busyDecay == 0 {
		for i := range s.hints.words {
			s.hints.words[i].And(^uint64(busyBits))
		}
	}
	w, at := s.hintBits(p)
	w.Or(hintBusy << at)
}
