package store

import (
	"sync/atomic"

	"github.com/gdi-go/gdi/bgdl"
)

// Hints. Each Store keeps two bitmaps, hashed by block, of holders whose
// checked read is not worth trying; such holders are read the long way
// at once. A hint is only a guess: a wrong one costs a get in vain or a
// read the long way, and colliding holders share their bit.
//
//   - long: holders its reads last found spanning blocks, which have no
//     check (a try costs a get in vain). The next read mends a hint.
//   - busy: holders whose copies failed validation (MarkBusy). A checked
//     read does not wait for a writer that holds the lock, so where
//     writers contend it copies images about to be replaced, and the
//     transaction fails; the long read waits. The bitmap is cleared after
//     every busyDecay marks, so that contention that has passed stops
//     costing the wait.
type hints struct {
	long, busy [hintWords]atomic.Uint64
	marks      atomic.Uint64
}

// hintWords is the size of a hint bitmap in words (512 Kbit).
const hintWords = 1 << 13

// busyDecay is how many marks clear the busy bitmap.
const busyDecay = 1 << 12

// hintBit returns the word index and bit of holder p's hints.
func hintBit(p bgdl.DPtr) (int, uint64) {
	h := uint64(p) * 0x9e3779b97f4a7c15
	h ^= h >> 29
	return int(h % hintWords), 1 << (h >> 58)
}

// skipsCheck reports whether holder p is better read the long way.
func (s *Store) skipsCheck(p bgdl.DPtr) bool {
	i, bit := hintBit(p)
	return (s.hints.long[i].Load()|s.hints.busy[i].Load())&bit != 0
}

// sawLength notes the length of holder p's image, as a read found it.
func (s *Store) sawLength(p bgdl.DPtr, length int) {
	i, bit := hintBit(p)
	w := &s.hints.long[i]
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
		for i := range s.hints.busy {
			s.hints.busy[i].Store(0)
		}
	}
	i, bit := hintBit(p)
	s.hints.busy[i].Or(bit)
}
