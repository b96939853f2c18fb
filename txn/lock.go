package txn

import (
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/gdi-go/gdi/rma"
)

// ErrBusy reports a lock that another transaction holds.
var ErrBusy = errors.New("txn: lock busy")

// Writer is the writer bit of a lock word.
const Writer = uint64(1) << 63

// Mode is the mode a lock is held in.
type Mode uint8

// Lock modes.
const (
	Read Mode = iota + 1
	Write
)

// Attempts is how many times a lock is tried before ErrBusy.
var Attempts = 64

// pause sleeps a little longer after each failed attempt (at most ~1 ms),
// yielding to the holder of the lock.
func pause(i int) {
	d := time.Duration(1<<min(i, 10)) * time.Microsecond
	time.Sleep(d)
}

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

// TryWrite takes a write lock on the word at (rank, off) of w once.
func TryWrite(w rma.Window, rank, off int) (bool, error) {
	prev, err := w.CompareAndSwap(rank, off, 0, Writer)
	if err != nil {
		return false, err
	}
	return prev == 0, nil
}

// Lock takes a lock in mode m, trying up to Attempts times.
func Lock(w rma.Window, rank, off int, m Mode) error {
	return LockN(w, rank, off, m, Attempts)
}

// LockN takes a lock in mode m, trying up to attempts times.
func LockN(w rma.Window, rank, off int, m Mode, attempts int) error {
	try := TryRead
	if m == Write {
		try = TryWrite
	}
	for i := 0; i < attempts; i++ {
		ok, err := try(w, rank, off)
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		pause(i)
	}
	return fmt.Errorf("%w: word %d on rank %d", ErrBusy, off, rank)
}

// Unlock releases a lock held in mode m.
func Unlock(w rma.Window, rank, off int, m Mode) error {
	delta := ^uint64(0) // -1
	if m == Write {
		delta = Writer // adding 1<<63 clears the bit (mod 2^64)
	}
	_, err := w.FetchAndAdd(rank, off, delta)
	return err
}

// Addr locates a lock word.
type Addr struct{ Rank, Off int }

// LockSet is the set of locks one transaction holds. Its zero value is not
// usable; use NewLockSet. A LockSet is used by one goroutine at a time.
type LockSet struct {
	w    rma.Window
	held map[uint64]held
}

type held struct {
	a Addr
	m Mode
}

// NewLockSet returns an empty set of locks on words of w.
func NewLockSet(w rma.Window) *LockSet {
	return &LockSet{w: w, held: map[uint64]held{}}
}

// Lock takes the lock of object id, at a, in mode m. A read lock held
// already is upgraded to a write lock if m is Write (which fails with
// ErrBusy while other readers hold it).
func (s *LockSet) Lock(id uint64, a Addr, m Mode) error {
	if h, ok := s.held[id]; ok {
		if h.m >= m {
			return nil
		}
		// Upgrade: only possible if we are the single reader.
		for i := 0; i < Attempts; i++ {
			prev, err := s.w.CompareAndSwap(a.Rank, a.Off, 1, Writer)
			if err != nil {
				return err
			}
			if prev == 1 {
				s.held[id] = held{a, Write}
				return nil
			}
			pause(i)
		}
		return fmt.Errorf("%w: upgrade of word %d on rank %d", ErrBusy, a.Off, a.Rank)
	}
	if err := Lock(s.w, a.Rank, a.Off, m); err != nil {
		return err
	}
	s.held[id] = held{a, m}
	return nil
}

// Holds reports whether the set holds a lock of object id.
func (s *LockSet) Holds(id uint64) bool {
	_, ok := s.held[id]
	return ok
}

// Len is the number of locks held.
func (s *LockSet) Len() int { return len(s.held) }

// ReleaseAll releases every lock, in the order of the ids, and empties the
// set. It returns the first error but releases the others anyway.
func (s *LockSet) ReleaseAll() error {
	ids := make([]uint64, 0, len(s.held))
	for id := range s.held {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	var first error
	for _, id := range ids {
		h := s.held[id]
		if err := Unlock(s.w, h.a.Rank, h.a.Off, h.m); err != nil && first == nil {
			first = err
		}
	}
	clear(s.held)
	return first
}
