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
//   - a Get is MPI_Get and MPI_Win_flush_local, and so is a Put;
//   - a Flush is an MPI_Win_flush only if a Put to its target is
//     outstanding, and a FlushAll an MPI_Win_flush_all only if any is;
//   - a single atomic is its MPI call and MPI_Win_flush;
//   - a batch of n atomics (rma.Atomics) is n calls and a flush per
//     target, or one MPI_Win_flush_all over more than FlushBatchAll
//     targets, which completes the puts to them too.
package count

import (
	"io"
	"slices"
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

// FlushBatchAll is the most targets whose batch of atomics rma/mpi
// completes with a flush each; one over more flushes all at once.
const FlushBatchAll = 8

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
	// pending: a Put to the target is outstanding, for the MPI count of
	// flushes.
	pending []atomic.Bool
}

func (w *window) Get(dst []byte, target, offset int) error {
	w.n.gets.Add(1)
	w.n.mpi.Add(2)
	w.n.bytes.Add(uint64(len(dst)))
	return w.Window.Get(dst, target, offset)
}

func (w *window) Put(src []byte, target, offset int) error {
	w.n.puts.Add(1)
	w.n.mpi.Add(2)
	w.n.bytes.Add(uint64(len(src)))
	if target >= 0 && target < len(w.pending) {
		w.pending[target].Store(true)
	}
	return w.Window.Put(src, target, offset)
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
	pend := false
	for t := range w.pending {
		pend = w.pending[t].Swap(false) || pend
	}
	if pend {
		w.n.mpi.Add(1)
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
// atomics, then a flush per target, or one for all.
func (w *window) Atomics(ops []rma.Atomic) error {
	var targets []int
	for i := range ops {
		if len(targets) > FlushBatchAll {
			break
		}
		if !slices.Contains(targets, ops[i].Target) {
			targets = append(targets, ops[i].Target)
		}
	}
	flushes := uint64(len(targets))
	if flushes > FlushBatchAll {
		flushes = 1
	}
	for t := range w.pending { // the flushes complete the puts too
		if flushes == 1 && len(targets) > 1 || slices.Contains(targets, t) {
			w.pending[t].Store(false)
		}
	}
	n := uint64(len(ops))
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
