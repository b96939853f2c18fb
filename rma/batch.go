package rma

import (
	"fmt"
	"slices"
)

// AtomicKind is the operation of an Atomic.
type AtomicKind uint8

// Kinds of atomics, as the methods of Window of the same names.
const (
	CompareAndSwap AtomicKind = iota + 1
	FetchAndAdd
	AtomicGet
	AtomicPut
)

func (k AtomicKind) String() string {
	switch k {
	case CompareAndSwap:
		return "CompareAndSwap"
	case FetchAndAdd:
		return "FetchAndAdd"
	case AtomicGet:
		return "AtomicGet"
	case AtomicPut:
		return "AtomicPut"
	}
	return fmt.Sprintf("AtomicKind(%d)", uint8(k))
}

// Atomic is one atomic operation of a batch (Atomics), on the word at
// Offset of Target:
//
//   - CompareAndSwap replaces it with Arg if it equals Old;
//   - FetchAndAdd adds Arg to it;
//   - AtomicGet reads it;
//   - AtomicPut replaces it with Arg.
//
// The batch sets Prev to the word found, but for an AtomicPut.
type Atomic struct {
	Kind     AtomicKind
	Target   int
	Offset   int
	Old, Arg uint64
	Prev     uint64
}

// AtomicBatcher is an optional capability of a Window whose atomics wait
// for a round trip each: Atomics starts every operation of ops, then
// completes them together, with one flush per target instead of one per
// operation. Across machines a batch of n atomics costs about one round
// trip instead of n.
//
// The operations of a batch are not ordered among themselves: those on
// one word must commute, as fetch-and-adds do, and then each sees the
// word as some order of them leaves it. Each is atomic with respect to
// every other atomic, as the single ones are. A batch that fails may have
// performed any subset of its operations; which ones is not reported.
//
// A batch that succeeds also completes, as Flush of its targets would,
// the Gets and Puts the calling rank issued to them before it.
type AtomicBatcher interface {
	Atomics(ops []Atomic) error
}

// Atomics performs ops on w, which must be on distinct words or commute,
// and sets their Prev: as one batch if w is an AtomicBatcher, else one at
// a time, in order, stopping at the first error, and then flushes their
// targets.
func Atomics(w Window, ops []Atomic) error {
	if b, ok := w.(AtomicBatcher); ok {
		return b.Atomics(ops)
	}
	for i := range ops {
		if err := ops[i].Do(w); err != nil {
			return err
		}
	}
	var room [4]int
	for _, t := range Targets(ops, room[:0]) {
		if err := w.Flush(t); err != nil {
			return err
		}
	}
	return nil
}

// Targets appends to dst the targets of ops, each once, in the order they
// first appear: the ranks a batch flushes.
func Targets(ops []Atomic, dst []int) []int {
	for i := range ops {
		if t := ops[i].Target; !slices.Contains(dst, t) {
			dst = append(dst, t)
		}
	}
	return dst
}

// Do performs op alone on w, with the Window method of its kind.
func (op *Atomic) Do(w Window) (err error) {
	switch op.Kind {
	case CompareAndSwap:
		op.Prev, err = w.CompareAndSwap(op.Target, op.Offset, op.Old, op.Arg)
	case FetchAndAdd:
		op.Prev, err = w.FetchAndAdd(op.Target, op.Offset, op.Arg)
	case AtomicGet:
		op.Prev, err = w.AtomicGet(op.Target, op.Offset)
	case AtomicPut:
		err = w.AtomicPut(op.Target, op.Offset, op.Arg)
	default:
		err = fmt.Errorf("%w: atomic of kind %v", ErrArgument, op.Kind)
	}
	return err
}
