package store

import (
	"sync/atomic"

	"github.com/gdi-go/gdi/bgdl"
)

// Hints. Each Store keeps two bits a holder, hashed by block, set when a
// checked read of it is not worth trying: it is then read the long way at
// once. A hint is only a guess: a wrong one costs a get in vain or a read
// the long way, and colliding holders share their bits.
//
//   - long: holders its reads last found spanning blocks, which have no
//     check (a try costs a get in vain). The next read mends a hint.
//   - busy: holders whose copies failed validation (MarkBusy). A checked
//     read does not wait for a writer that holds the lock, so where
//     writers contend it copies images about to be replaced, and the
//     transaction fails; the long read waits. The busy hints are cleared
//     after every busyDecay marks, so that contention that has passed
//     stops costing the wait.
type hints struct {
	// words hold the hints of 32 holders each: bit 2i is holder i's long
	// hint, bit 2i+1 its busy hint, so that one load reads both.
	words [hintWords]atomic.Uint64
	marks atomic.Uint64
}

// hintWords is the size of the hints in words (256 Kbit of each kind).
const hintWords = 1 << 13

// longBits are the long hints of a word; the others are busy hints.
const longBits = 0x5555555555555555

// busyDecay is how many marks clear the busy hints.
const busyDecay = 1 << 12

// hintBits returns the word of holder p's hints, and its long hint's bit;
// the busy hint's is the next.
func (s *Store) hintBits(p bgdl.DPtr) (*atomic.Uint64, uint64) {
	h := uint64(p) * 0x9e3779b97f4a7c15
	h ^= h >> 29
	return &s.hints.words[h%hintWords], 1 << (h >> 59 << 1)
}

// skipsCheck reports whether holder p is better read the long way.
func (s *Store) skipsCheck(p bgdl.DPtr) bool {
	w, long := s.hintBits(p)
	return w.Load()&(long|long<<1) != 0
}

// sawLength notes the length of holder p's image, as a read found it.
func (s *Store) sawLength(p bgdl.DPtr, length int) {
	w, bit := s.hintBits(p)
	if long := length > s.bs-PrimaryHeader; long != (w.Load()&bit != 0) {
		if long {
			w.Or(bit)
		} else {
			w.And(^bit)
		}
	}
}

// MarkBusy notes that a copy of holder p failed validation: its readers
// wait for its writers for a while.
func (s *Store) MarkBusy(p bgdl.DPtr) {
	if s.hints.marks.Add(1)%busyDecay == 0 {
		for i := range s.hints.words {
			s.hints.words[i].And(longBits)
		}
	}
	w, long := s.hintBits(p)
	w.Or(long << 1)
}
