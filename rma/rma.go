package rma

import (
	"errors"
)

// Sentinel errors. Backends wrap them with details, so test with errors.Is.
var (
	// ErrRank reports a rank outside [0, Size()).
	ErrRank = errors.New("rma: rank out of range")
	// ErrRange reports a byte range outside the window, or a negative length
	// or offset.
	ErrRange = errors.New("rma: range outside window")
	// ErrAlignment reports an atomic operation on an offset that is not a
	// multiple of 8.
	ErrAlignment = errors.New("rma: misaligned atomic")
	// ErrFreed reports use of a window after Free.
	ErrFreed = errors.New("rma: window freed")
	// ErrArgument reports buffers or arguments of a collective that do not
	// fit together, such as a receive buffer of the wrong length.
	ErrArgument = errors.New("rma: bad argument")
	// ErrAborted reports that a collective cannot complete because another
	// rank failed or returned.
	ErrAborted = errors.New("rma: run aborted")
	// ErrNotBuiltIn reports a backend that this binary was built without.
	ErrNotBuiltIn = errors.New("rma: backend not built in")
	// ErrRanks reports a Launcher asked for more ranks than it can start,
	// such as an MPI job started with fewer processes.
	ErrRanks = errors.New("rma: cannot start that many ranks")
)

// Op is a reduction operation for Allreduce.
type Op int

// Reduction operations.
const (
	OpSum Op = iota
	OpMin
	OpMax
)

func (o Op) String() string {
	switch o {
	case OpSum:
		return "sum"
	case OpMin:
		return "min"
	case OpMax:
		return "max"
	}
	return "Op(?)"
}

// Comm is a communicator: the ranks of a run, their collectives, and the
// allocation of windows among them.
//
// All methods except Rank and Size are collective: every rank calls them in
// the same order. Collectives of one Comm must not be called concurrently by
// several goroutines of the same rank.
type Comm interface {
	// Rank is the calling rank, in [0, Size()).
	Rank() int
	// Size is the number of ranks.
	Size() int

	// Barrier returns once every rank has entered it.
	Barrier() error
	// Bcast copies buf of rank root into buf of every other rank. All ranks
	// pass buffers of the same length.
	Bcast(buf []byte, root int) error

	// AllreduceInt64 replaces buf on every rank, element by element, with
	// the reduction of all ranks' buf under op. All ranks pass the same
	// length. The same holds for the Uint64 and Float64 variants.
	AllreduceInt64(buf []int64, op Op) error
	AllreduceUint64(buf []uint64, op Op) error
	AllreduceFloat64(buf []float64, op Op) error

	// Allgather fills recv with the send buffers of all ranks in rank order.
	// All ranks pass send buffers of the same length n, and len(recv) must be
	// Size()*n.
	Allgather(send, recv []byte) error
	// Allgatherv returns the send buffers of all ranks, indexed by rank.
	// Lengths may differ between ranks, and may be zero.
	Allgatherv(send []byte) ([][]byte, error)
	// Alltoall sends block i of send to rank i and stores the block rank i
	// sent to the caller in block i of recv. len(send) and len(recv) are
	// equal, a multiple of Size(), and the same on all ranks.
	Alltoall(send, recv []byte) error
	// Alltoallv sends send[i] to rank i and returns what every rank sent to
	// the caller, indexed by sender. len(send) must be Size(); the buffers
	// may have any length, including zero.
	Alltoallv(send [][]byte) ([][]byte, error)

	// NewWindow allocates a window of size bytes on every rank, zeroed.
	// All ranks pass the same size.
	NewWindow(size int) (Window, error)
}

// Window is memory of every rank, accessible with one-sided operations.
// Its methods are safe for concurrent use by goroutines of the same rank.
// See the package documentation for the completion rules.
type Window interface {
	// Size is the window's size in bytes on each rank.
	Size() int

	// Get starts copying len(dst) bytes at offset of target's memory into
	// dst. dst is valid after Flush(target) or FlushAll.
	Get(dst []byte, target, offset int) error
	// Put starts copying src to offset of target's memory. src must not be
	// modified before Flush(target) or FlushAll, after which the data is
	// visible to every rank.
	Put(src []byte, target, offset int) error
	// Flush completes all Gets and Puts the calling rank issued to target.
	Flush(target int) error
	// FlushAll completes all Gets and Puts the calling rank issued.
	FlushAll() error

	// CompareAndSwap atomically replaces the word at offset of target with
	// new if it equals old, and returns the word it found.
	CompareAndSwap(target, offset int, old, new uint64) (prev uint64, err error)
	// FetchAndAdd atomically adds delta to the word at offset of target and
	// returns the previous value. Subtraction is adding the two's complement.
	FetchAndAdd(target, offset int, delta uint64) (prev uint64, err error)
	// AtomicGet atomically reads the word at offset of target.
	AtomicGet(target, offset int) (uint64, error)
	// AtomicPut atomically writes v to the word at offset of target.
	AtomicPut(target, offset int, v uint64) error

	// Free releases the window. It is collective. Every later call on the
	// window returns ErrFreed.
	Free() error
}

// Launcher starts n ranks, each running fn with its own Comm, and returns
// once all have returned. It returns an error if any rank did. local.Run is
// a Launcher.
type Launcher func(n int, fn func(Comm) error) error
