package txn

import (
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/gdi-go/gdi/rma"
)

// ErrBusy reports a lock that another transaction holds.
var ErrBusy = errors.New("txn: lock busy")

// Writer is the writer bit of a lock word.
const Writer = uint64(1) << 63

// Fields of a lock word besides the writer bit (see doc.go).
const (
	readers  = uint64(1)<<32 - 1 // the number of readers
	seqShift = 32
	seqMask  = (Writer - 1) &^ readers // the count of write locks taken
)

// taken returns lock word w, free, as a writer leaves it when it takes
// it: the writer bit set and the count of write locks one more (modulo
// its 31 bits).
func taken(w uint64) uint64 {
	return Writer | (w+1<<seqShift)&seqMask | w&readers
}

// Mode is the mode a lock is held in.
type Mode uint8

// Lock modes.
const (
	Read Mode = iota + 1
	Write
)

// Attempts is how many times a lock is tried before ErrBusy.
var Attempts = 64

// pause waits a little longer after each failed attempt (at most ~1 ms),
// yielding to the holder of the lock.
//
// Waits below spinBelow spin, yielding to other goroutines between looks
// at the clock, rather than sleep: most locks are held for a commit of a
// few microseconds, and a sleep takes far longer than it asks for. On the
// 2-vCPU VMs this module is measured on, time.Sleep(time.Microsecond)
// returns after about 460 µs, so a rank that waited for a lock sat idle
// for hundreds of times as long as the lock was held. Spinning is bounded:
// the spun waits of one lock add up to less than 2*spinBelow.
//
// On a window whose ranks must serve each other's operations (an
// rma.Idler that needs it), the whole wait goes to serving them: the lock
// holder may be waiting on this rank's window.
func pause(w rma.Window, i int) {
	d := time.Duration(1<<min(i, 10)) * time.Microsecond
	if idl, ok := w.(rma.Idler); ok && idl.Idle(d) {
		return
	}
	if d >= spinBelow {
		time.Sleep(d)
		return
	}
	start := time.Now()
	for time.Since(start) < d {
		runtime.Gosched() // the holder may be a goroutine of this P
	}
}

// spinBelow is the shortest wait of pause that sleeps.
const spinBelow = 64 * time.Microsecond

// TryRead takes a read lock on the word at (rank, off) of w once.
func TryRead(w rma.Window, rank, off int) (bool, error) {
	prev, err := w.FetchAndAdd(rank, off, 1)
	if err != nil {
		return false, err
	}
	if prev&Writer == 0 {
		return true, nil
	}
	_, err = w.FetchAndAdd(rank, off, ^uint64(0))
	return false, err
}

// TryWrite takes a write lock on the word at (rank, off) of w once: it
// fails if there is a reader or a writer.
func TryWrite(w rma.Window, rank, off int) (bool, error) {
	_, ok, err := tryWrite(w, rank, off)
	return ok, err
}

// tryWrite is TryWrite that also returns the word it found.
func tryWrite(w rma.Window, rank, off int) (prev uint64, ok bool, err error) {
	// A word never locked for writing is 0; otherwise the failed swap
	// returns it, and the second one takes it unless it changed meanwhile.
	prev, err = w.CompareAndSwap(rank, off, 0, taken(0))
	if err != nil || prev == 0 {
		return 0, err == nil, err
	}
	if prev&(Writer|readers) != 0 {
		return prev, false, nil
	}
	now, err := w.CompareAndSwap(rank, off, prev, taken(prev))
	return prev, err == nil && now == prev, err
}

// ReadBegin starts an optimistic read of what the lock word at (rank,
// off) of w guards, without taking it: it waits, as Lock does, for no
// writer to hold it, and returns a stamp of it for ReadValid.
func ReadBegin(w rma.Window, rank, off int) (stamp uint64, err error) {
	for i := 0; i < Attempts; i++ {
		x, err := w.AtomicGet(rank, off)
		if err != nil {
			return 0, err
		}
		if x&Writer == 0 {
			return x &^ readers, nil
		}
		pause(w, i)
	}
	return 0, fmt.Errorf("%w: word %d on rank %d", ErrBusy, off, rank)
}

// ReadValid reports whether what was read since ReadBegin returned stamp
// is what the lock word guards: no writer has taken the word since. If
// not, the data read may be torn and must be read again.
func ReadValid(w rma.Window, rank, off int, stamp uint64) (bool, error) {
	x, err := w.AtomicGet(rank, off)
	return err == nil && x&^readers == stamp, err
}

// Lock takes a lock in mode m, trying up to Attempts times.
func Lock(w rma.Window, rank, off int, m Mode) error {
	return LockN(w, rank, off, m, Attempts)
}

// LockN takes a lock in mode m, trying up to attempts times.
func LockN(w rma.Window, rank, off int, m Mode, attempts int) error {
	_, err := lockN(w, rank, off, m, attempts)
	return err
}

// lockN is LockN that also returns the word a write lock was taken from,
// without readers.
func lockN(w rma.Window, rank, off int, m Mode, attempts int) (took uint64, err error) {
	for i := 0; i < attempts; i++ {
		var ok bool
		if m == Write {
			took, ok, err = tryWrite(w, rank, off)
		} else {
			ok, err = TryRead(w, rank, off)
		}
		if err != nil {
			return 0, err
		}
		if ok {
			return took &^ readers, nil
		}
		pause(w, i)
	}
	return 0, fmt.Errorf("%w: word %d on rank %d", ErrBusy, off, rank)
}

// Unlock releases a lock held in mode m.
func Unlock(w rma.Window, rank, off int, m Mode) error {
	_, err := w.FetchAndAdd(rank, off, unlockDelta(m))
	return err
}

// unlockDelta is what releasing a lock held in mode m adds to its word.
func unlockDelta(m Mode) uint64 {
	if m == Write {
		return Writer // adding 1<<63 clears the bit (mod 2^64)
	}
	return ^uint64(0) // -1
}

// Addr locates a lock word.
type Addr struct{ Rank, Off int }

// LockSet is the set of locks one transaction holds. Its zero value is not
// usable; use NewLockSet, or Reset. A LockSet is used by one goroutine at a
// time.
//
// Most transactions lock a few objects: they are kept in a slice, searched
// linearly; an index map is added once there are many.
type LockSet struct {
	w     rma.Window
	held  []held
	index map[uint64]int // position in held, once len(held) > fewLocks
	buf   [4]held        // room for the first locks, saving allocations
	spare map[uint64]int // an index emptied by Reset, for the next use
	ops   []rma.Atomic   // room for the batches of ReleaseAll
}

type held struct {
	id uint64
	a  Addr
	m  Mode
	// took is the word a write lock was taken from, without readers: the
	// stamp (ReadBegin) of a reader who read just before.
	took uint64
}

const fewLocks = 16

// NewLockSet returns an empty set of locks on words of w.
func NewLockSet(w rma.Window) *LockSet {
	s := new(LockSet)
	s.Reset(w)
	return s
}

// Reset empties s, which must hold no locks, for locks on words of w: a
// set can be reused without allocating a new one. It keeps the room of
// a set that grew (up to maxKept locks), so that a set reused for
// commits of many objects (the neighbours of a freed vertex) stops
// allocating.
func (s *LockSet) Reset(w rma.Window) {
	s.retire()
	held := s.held[:0]
	if cap(held) > maxKept || cap(held) <= len(s.buf) {
		held = nil
	}
	*s = LockSet{w: w, spare: s.spare, ops: s.ops}
	s.held = held
	if held == nil {
		s.held = s.buf[:0]
	}
}

// Forget drops the window of s, which must hold no locks, and keeps its
// room for the next Reset: a set kept in a pool then keeps nothing of
// its database alive (the room holds numbers only).
func (s *LockSet) Forget() { s.w = nil }

// maxKept bounds the room Reset keeps.
const maxKept = 1024

// retire empties the index, if any, and keeps it as the spare unless it
// grew past maxKept.
func (s *LockSet) retire() {
	if s.index == nil {
		return
	}
	if len(s.index) <= maxKept {
		clear(s.index)
		s.spare = s.index
	}
	s.index = nil
}

// find returns the position of id in s.held, or -1.
func (s *LockSet) find(id uint64) int {
	if s.index != nil {
		if i, ok := s.index[id]; ok {
			return i
		}
		return -1
	}
	for i := range s.held {
		if s.held[i].id == id {
			return i
		}
	}
	return -1
}

func (s *LockSet) add(h held) {
	s.held = append(s.held, h)
	switch {
	case s.index != nil:
		s.index[h.id] = len(s.held) - 1
	case len(s.held) > fewLocks:
		s.index = s.spare
		if s.index == nil {
			s.index = make(map[uint64]int, 2*len(s.held))
		}
		s.spare = nil
		for i, x := range s.held {
			s.index[x.id] = i
		}
	}
}

// Lock takes the lock of object id, at a, in mode m. A read lock held
// already is upgraded to a write lock if m is Write (which fails with
// ErrBusy while other readers hold it).
func (s *LockSet) Lock(id uint64, a Addr, m Mode) error {
	if i := s.find(id); i >= 0 {
		if s.held[i].m >= m {
			return nil
		}
		return s.upgrade(i)
	}
	took, err := lockN(s.w, a.Rank, a.Off, m, Attempts)
	if err != nil {
		return err
	}
	s.add(held{id, a, m, took})
	return nil
}

// LockStamped takes the write lock of object id, at a, from stamp, the
// word that a reader without a lock saw (ReadBegin): one compare-and-swap,
// if no one took the word since. unchanged reports whether that is so,
// which is what validating the read would tell; if it is not, the lock is
// not taken (unless readers were in the way, whom it waits for as Lock
// does). A word a writer holds now fails with ErrBusy at once: the caller
// need not wait to learn that it conflicts.
func (s *LockSet) LockStamped(id uint64, a Addr, stamp uint64) (unchanged bool, err error) {
	l := StampedLock{ID: id, A: a, Stamp: stamp}
	if s.find(id) < 0 {
		if l.Found, err = s.w.CompareAndSwap(a.Rank, a.Off, stamp, taken(stamp)); err != nil {
			return false, err
		}
		l.tried = true
	}
	return s.SettleStamped(l)
}

// StampedLock is a write lock to take from a stamp, as LockStamped does,
// in a batch of them (TryStamped).
type StampedLock struct {
	ID    uint64
	A     Addr
	Stamp uint64
	// Found is the word TryStamped's compare-and-swap found, if tried.
	Found uint64
	tried bool
}

// TryStamped tries the write lock of each of locks from its stamp, all in
// one batch of compare-and-swaps (rma.Atomics), and holds those whose
// word was still the stamp. Locks the set holds already are not tried.
// SettleStamped then finishes each of locks as LockStamped would have,
// with no further call for a lock taken or held by a writer.
//
// Where a later lock of locks waits (SettleStamped, readers in the way),
// earlier ones may be held already: a LockSet then holds locks out of the
// order of their ids while it waits, which is safe because every wait is
// bounded (Attempts).
func (s *LockSet) TryStamped(locks []StampedLock) error {
	ops := s.ops[:0]
	for i := range locks {
		l := &locks[i]
		if l.tried = s.find(l.ID) < 0; l.tried {
			ops = append(ops, rma.Atomic{Kind: rma.CompareAndSwap, Target: l.A.Rank, Offset: l.A.Off, Old: l.Stamp, Arg: taken(l.Stamp)})
		}
	}
	if cap(ops) <= maxKept {
		s.ops = ops[:0]
	}
	if err := rma.Atomics(s.w, ops); err != nil {
		// Some may be taken, and would never be released: a window
		// that fails an atomic fails the run.
		return err
	}
	j := 0
	for i := range locks {
		if l := &locks[i]; l.tried {
			l.Found = ops[j].Prev
			j++
			if l.Found == l.Stamp {
				s.add(held{l.ID, l.A, Write, l.Stamp})
			}
		}
	}
	return nil
}

// SettleStamped finishes l, tried by TryStamped, as LockStamped.
func (s *LockSet) SettleStamped(l StampedLock) (unchanged bool, err error) {
	if i := s.find(l.ID); i >= 0 {
		if err := s.Lock(l.ID, l.A, Write); err != nil {
			return false, err
		}
		return s.held[i].took == l.Stamp, nil
	}
	prev := l.Found
	switch {
	case !l.tried:
		return false, fmt.Errorf("txn: lock of object %d settled without a try", l.ID)
	case prev == l.Stamp:
		s.add(held{l.ID, l.A, Write, l.Stamp})
		return true, nil
	case prev&Writer != 0:
		return false, fmt.Errorf("%w: word %d on rank %d", ErrBusy, l.A.Off, l.A.Rank)
	case prev&^readers != l.Stamp:
		return false, nil
	}
	if err := s.Lock(l.ID, l.A, Write); err != nil {
		return false, err
	}
	return s.held[s.find(l.ID)].took == l.Stamp, nil
}

// upgrade makes the read lock held[i] a write lock: only possible while
// no other reader holds it.
func (s *LockSet) upgrade(i int) error {
	a := s.held[i].a
	for j := 0; j < Attempts; j++ {
		prev, err := s.w.AtomicGet(a.Rank, a.Off)
		if err != nil {
			return err
		}
		if prev&(Writer|readers) == 1 {
			now, err := s.w.CompareAndSwap(a.Rank, a.Off, prev, taken(prev)-1)
			if err != nil {
				return err
			}
			if now == prev {
				s.held[i].m, s.held[i].took = Write, prev&^readers
				return nil
			}
		}
		pause(s.w, j)
	}
	return fmt.Errorf("%w: upgrade of word %d on rank %d", ErrBusy, a.Off, a.Rank)
}

// Released is the lock word a writer leaves when it lets go of the write
// lock it took from word took (LockSet.Took), no reader being in the way:
// the stamp (ReadBegin) under which what it wrote is read.
func Released(took uint64) uint64 { return taken(took) &^ Writer }

// Holds reports whether the set holds a lock of object id.
func (s *LockSet) Holds(id uint64) bool { return s.find(id) >= 0 }

// Took returns the word the write lock of object id was taken from,
// without readers, if the set holds it for writing: a reader whose stamp
// is that word read what the lock now guards.
func (s *LockSet) Took(id uint64) (word uint64, ok bool) {
	i := s.find(id)
	if i < 0 || s.held[i].m != Write {
		return 0, false
	}
	return s.held[i].took, true
}

// Len is the number of locks held.
func (s *LockSet) Len() int { return len(s.held) }

// ReleaseAll releases every lock, all in one batch of atomics
// (rma.Atomics), and empties the set. On an error it reports it and
// forgets the locks anyway: which ones the batch released is not known.
func (s *LockSet) ReleaseAll() error {
	ops := s.ops[:0]
	for _, h := range s.held {
		ops = append(ops, rma.Atomic{Kind: rma.FetchAndAdd, Target: h.a.Rank, Offset: h.a.Off, Arg: unlockDelta(h.m)})
	}
	err := rma.Atomics(s.w, ops)
	if cap(ops) <= maxKept {
		s.ops = ops[:0]
	}
	s.retire()
	s.held = s.held[:0]
	return err
}
