package bgdl

import (
	"sync/atomic"
	"time"
)

// Head guesses. Acquire and Release begin by reading the head word of
// the target's free list, then swap it. Within a burst of them, the word
// is most often what the last swap of this rank left: each rank keeps,
// per target, the head word it last saw and when, and starts from it
// instead of reading. A stale guess costs nothing but the failed swap,
// which returns the word as it is.
//
// A guess is taken only while fresh (guessTTL). That keeps the tag's
// guard against ABA: a swap that succeeds from a guess found the word
// unchanged since it was seen, tag and all, and a 32-bit tag does not
// wrap around within a second (2^32 swaps of one word take tens of
// seconds even in local memory).

// guessTTL is how long a head word seen stays a guess. It is long enough
// that a burst never outlives it, so the calls an operation makes do not
// depend on timing (TestCallsPerOperation pins them).
const guessTTL = time.Second

// headGuess is the head word of one rank's free list as this rank last
// saw it, and when (nanoseconds of clock, 0 for never). Padded to a
// cache line: goroutines of the rank update the guesses of different
// targets at once.
type headGuess struct {
	word atomic.Uint64
	at   atomic.Int64
	_    [48]byte
}

// clock is the time base of the guesses.
var clockStart = time.Now()

func clock() int64 { return int64(time.Since(clockStart)) + 1 }

// guess returns the head word of target's list last seen, if fresh.
func (p *Pool) guess(target int) (word uint64, ok bool) {
	g := &p.heads[target]
	at := g.at.Load()
	if at == 0 || clock()-at > int64(guessTTL) {
		return 0, false
	}
	return g.word.Load(), true
}

// saw records head word w of target's list, just seen.
func (p *Pool) saw(target int, w uint64) {
	g := &p.heads[target]
	g.word.Store(w)
	g.at.Store(clock())
}

// head returns a guess of target's head word, or reads it.
func (p *Pool) head(target int) (word uint64, guessed bool, err error) {
	if w, ok := p.guess(target); ok {
		return w, true, nil
	}
	w, err := p.system.AtomicGet(target, headWord)
	return w, false, err
}
