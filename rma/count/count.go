// Package count counts what the network would see of a rank's one-sided
// communication: Wrap gives an rma.Comm whose windows count every get,
// put, atomic and flush the calling rank makes on them, and the bytes
// they move, whatever backend is below.
//
// The counts are the origin's: each rank's Comm counts the calls that
// rank makes, its own part of a window included, as a PMPI interposer
// counting MPI_Get, MPI_Put, the atomics and MPI_Win_flush would. Reading
// them is cheap (Counts), so a caller that knows what it is doing brackets
// that with two reads: gdi bench oltp -rmastats brackets each operation.
//
// A counted window keeps the optional capabilities of the window below:
// it is an rma.Prefetcher only where that one is (a hint, not counted),
// and its Idle and Snapshot go to the window below, or fall back as the
// rma package says callers must. It is always an rma.AtomicBatcher, as
// rma/mpi's windows are, and counts a batch as rma/mpi performs it.
// Collectives are not counted.
//
// # MPI calls
//
// Besides the calls made on it, a counted window counts the MPI calls
// rma/mpi would make for them if no window were shared, which is what a
// PMPI interposer sees across machines (Counts.MPI):
//   - a Get is MPI_Get, and a Put MPI_Put, staged until a flush, or, if
//     larger than MaxStaged, followed by MPI_Win_flush_local;
//   - a Flush is an MPI_Win_flush only if a Get or Put to its target is
//     staged, or a large Put outstanding, and a FlushAll is a Flush of
//     each target;
//   - a single atomic is its MPI call and MPI_Win_flush;
//   - a batch of n atomics (rma.Atomics) is n calls and a flush per
//     target, which completes what is staged for it too.
package count

import (
	"io"
	"sync/atomic"
	"time"

	"github.com/gdi-go/gdi/rma"
)

// Counts are calls made on counted windows. Atomics are compare-and-swap,
// fetch-and-add, and atomic gets and puts, single or batched; Flushes are
// Flush and FlushAll calls, and the flushes of batches. Bytes are those
// gets and puts move, and 8 per atomic. MPI is the MPI calls rma/mpi
// would make for them (see the package doc).
type Counts struct {
	Gets, Puts, Atomics, Flushes, Bytes, MPI uint64
}

// MaxStaged is the largest Get or Put rma/mpi stages.
const MaxStaged = 64 << 10

// Calls is the number of one-sided calls: gets, puts, atomics and
// flushes.
func (c Counts) Calls() uint64 { return c.Gets + c.Puts + c.Atomics + c.Flushes }

// Add returns c plus d.
func (c Counts) Add(d Counts) Counts {
	return Counts{c.Gets + d.Gets, c.Puts + d.Puts, c.Atomics + d.Atomics, c.Flushes + d.Flushes, c.Bytes + d.Bytes, c.MPI + d.MPI}
}

// Sub returns c less d, the calls between two reads.
func (c Counts) Sub(d Counts) Counts {
	return Counts{c.Gets - d.Gets, c.Puts - d.Puts, c.Atomics - d.Atomics, c.Flushes - d.Flushes, c.Bytes - d.Bytes, c.MPI - d.MPI}
}

// Comm is an rma.Comm whose windows count the calls made on them.
type Comm struct {
	rma.Comm
	n *counters
}

// counters are a Comm's counts, shared by its windows.
type counters struct {
	gets, puts, atomics, flushes, bytes, mpi atomic.Uint64
}

// Wrap returns c with counting windows: every window NewWindow makes from
// now on counts into the Comm's Counts.
func Wrap(c rma.Comm) *Comm { return &Comm{Comm: c, n: new(counters)} }

// Counts returns the calls made so far on the Comm's windows by this
// rank.
func (c *Comm) Counts() Counts {
	n := c.n
	return Counts{n.gets.Load(), n.puts.Load(), n.atomics.Load(), n.flushes.Load(), n.bytes.Load(), n.mpi.Load()}
}

// NewWindow makes a window of the Comm below and counts its calls.
func (c *Comm) NewWindow(size int) (rma.Window, error) {
	w, err := c.Comm.NewWindow(size)
	if err != nil {
		return nil, err
	}
	cw := &window{Window: w, n: c.n, rank: c.Rank(), pending: make([]atomic.Bool, c.Size())}
	if pf, ok := w.(rma.Prefetcher); ok {
		return &prefetchWindow{cw, pf}, nil
	}
	return cw, nil
}

// window counts the calls made on the window below.
type window struct {
	rma.Window
	n    *counters
	rank int
	// pending: a Get or Put to the target is outstanding, for the MPI
	// count of flushes.
	pending []atomic.Bool
}

func (w *window) Get(dst []byte, target, offset int) error {
	w.n.gets.Add(1)
	w.n.bytes.Add(uint64(len(dst)))
	w.transfer(len(dst), target, true)
	return w.Window.Get(dst, target, offset)
}

func (w *window) Put(src []byte, target, offset int) error {
	w.n.puts.Add(1)
	w.n.bytes.Add(uint64(len(src)))
	w.transfer(len(src), target, false)
	return w.Window.Put(src, target, offset)
}

// transfer counts the MPI calls of a Get (get) or Put of n bytes to
// target and notes what a flush of target completes.
func (w *window) transfer(n, target int, get bool) {
	staged := n <= MaxStaged
	if staged {
		w.n.mpi.Add(1)
	} else {
		w.n.mpi.Add(2)
	}
	if (staged || !get) && n > 0 && target >= 0 && target < len(w.pending) {
		w.pending[target].Store(true)
	}
}

func (w *window) Flush(target int) error {
	w.n.flushes.Add(1)
	if target >= 0 && target < len(w.pending) && w.pending[target].Swap(false) {
		w.n.mpi.Add(1)
	}
	return w.Window.Flush(target)
}

func (w *window) FlushAll() error {
	w.n.flushes.Add(1)
	for t := range w.pending {
		if w.pending[t].Swap(false) {
			w.n.mpi.Add(1)
		}
	}
	return w.Window.FlushAll()
}

// atomic counts one atomic call, completed alone.
func (w *window) atomic() {
	w.n.atomics.Add(1)
	w.n.mpi.Add(2)
	w.n.bytes.Add(8)
}

// Atomics (rma.AtomicBatcher) counts a batch as rma/mpi performs it: its
// atomics, then a flush per target.
func (w *window) Atomics(ops []rma.Atomic) error {
	var room [4]int
	targets := rma.Targets(ops, room[:0])
	for _, t := range targets { // the flushes complete what is staged too
		if t >= 0 && t < len(w.pending) {
			w.pending[t].Store(false)
		}
	}
	n, flushes := uint64(len(ops)), uint64(len(targets))
	w.n.atomics.Add(n)
	w.n.flushes.Add(flushes)
	w.n.mpi.Add(n + flushes)
	w.n.bytes.Add(8 * n)
	return rma.Atomics(w.Window, ops)
}

func (w *window) CompareAndSwap(target, offset int, old, new uint64) (uint64, error) {
	w.atomic()
	return w.Window.CompareAndSwap(target, offset, old, new)
}

func (w *window) FetchAndAdd(target, offset int, delta uint64) (uint64, error) {
	w.atomic()
	return w.Window.FetchAndAdd(target, offset, delta)
}

func (w *window) AtomicGet(target, offset int) (uint64, error) {
	w.atomic()
	return w.Window.AtomicGet(target, offset)
}

func (w *window) AtomicPut(target, offset int, v uint64) error {
	w.atomic()
	return w.Window.AtomicPut(target, offset, v)
}

// Idle (rma.Idler) is the window below's, or reports false, as a window
// without it would.
func (w *window) Idle(d time.Duration) bool {
	idl, ok := w.Window.(rma.Idler)
	return ok && idl.Idle(d)
}

// Snapshot and Restore (rma.Snapshotter) copy through the window below,
// uncounted: checkpoints are not the traffic being measured.
func (w *window) Snapshot(dst io.Writer) error { return rma.SaveWindow(w.Window, w.rank, dst) }

func (w *window) Restore(src io.Reader) error { return rma.LoadWindow(w.Window, w.rank, src) }

// prefetchWindow is a counted window over one that prefetches.
type prefetchWindow struct {
	*window
	pf rma.Prefetcher
}

func (w *prefetchWindow) Prefetch(target, offset, n int) { w.pf.Prefetch(target, offset, n) }
