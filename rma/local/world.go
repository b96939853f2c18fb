package local

import (
	"errors"
	"fmt"
	"runtime/debug"
	"sync"

	"github.com/gdi-go/gdi/rma"
)

// Run starts n ranks as goroutines, each calling fn with its own Comm, and
// waits for all of them. It returns the errors of the ranks that failed, or
// nil. A panic in a rank is turned into an error carrying its stack.
func Run(n int, fn func(rma.Comm) error) error {
	if n < 1 {
		return fmt.Errorf("%w: local.Run needs at least one rank, got %d", rma.ErrArgument, n)
	}
	w := newWorld(n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for r := range n {
		wg.Go(func() {
			errs[r] = runRank(r, &comm{w: w, rank: r}, fn)
			w.exit(r, errs[r])
		})
	}
	wg.Wait()
	return rootCause(errs)
}

func runRank(r int, c rma.Comm, fn func(rma.Comm) error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("rank %d panicked: %v\n%s", r, p, debug.Stack())
		}
	}()
	if err := fn(c); err != nil {
		return fmt.Errorf("rank %d: %w", r, err)
	}
	return nil
}

// rootCause joins the errors of failed ranks, leaving out ranks that only
// failed because another one did.
func rootCause(errs []error) error {
	var roots, aborted []error
	for _, err := range errs {
		switch {
		case err == nil:
		case errors.Is(err, rma.ErrAborted):
			aborted = append(aborted, err)
		default:
			roots = append(roots, err)
		}
	}
	if len(roots) > 0 {
		return errors.Join(roots...)
	}
	return errors.Join(aborted...)
}

// world is the state shared by the ranks of one Run: the rendezvous of
// collectives and the record of ranks that have ended.
type world struct {
	n      int
	mu     sync.Mutex
	cond   sync.Cond
	rounds map[uint64]*round
	exited []bool
	failed error // first rank error; aborts every collective
}

// round is one collective call, matched across ranks by sequence number.
type round struct {
	kind    string
	vals    []any
	bad     []error // per-rank argument errors, shared so all ranks fail alike
	arrived []bool
	count   int // ranks that have deposited their value
	done    int // ranks that have finished reading the others' values
}

func newWorld(n int) *world {
	w := &world{n: n, rounds: make(map[uint64]*round), exited: make([]bool, n)}
	w.cond.L = &w.mu
	return w
}

func (w *world) exit(rank int, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.exited[rank] = true
	if err != nil && w.failed == nil {
		w.failed = err
	}
	w.cond.Broadcast()
}

// stuck reports why the round cannot complete, or nil while it still can.
// Called with w.mu held.
func (w *world) stuck(r *round) error {
	if w.failed != nil {
		return fmt.Errorf("%w: %s: %v", rma.ErrAborted, r.kind, firstLine(w.failed))
	}
	for rank, gone := range w.exited {
		if gone && !r.arrived[rank] {
			return fmt.Errorf("%w: rank %d returned without calling %s", rma.ErrAborted, rank, r.kind)
		}
	}
	return nil
}

func firstLine(err error) string {
	s := err.Error()
	for i := range len(s) {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}

// comm is one rank's view of the world.
type comm struct {
	w    *world
	rank int
	seq  uint64
}

func (c *comm) Rank() int { return c.rank }
func (c *comm) Size() int { return c.w.n }

// collective deposits v as this rank's contribution to the next collective of
// the given kind, waits for every rank, calls use with all contributions in
// rank order, and returns once every rank has finished its use. The second
// wait lets callers read their peers' buffers in use without copying them
// first: no rank returns, and so no rank reuses its buffer, before all have
// read.
//
// bad is this rank's verdict on its own arguments. If any rank's is non-nil,
// use is skipped and every rank returns that error, so a bad argument on one
// rank fails the collective everywhere and the ranks stay in step.
func (c *comm) collective(kind string, v any, bad error, use func(vals []any) error) error {
	w := c.w
	seq := c.seq
	c.seq++
	w.mu.Lock()
	defer w.mu.Unlock()
	r := w.rounds[seq]
	if r == nil {
		r = &round{kind: kind, vals: make([]any, w.n), bad: make([]error, w.n), arrived: make([]bool, w.n)}
		w.rounds[seq] = r
	}
	if r.kind != kind {
		err := fmt.Errorf("%w: collective %d is %s on one rank and %s on rank %d", rma.ErrArgument, seq, r.kind, kind, c.rank)
		if w.failed == nil {
			w.failed = err
		}
		w.cond.Broadcast()
		return err
	}
	r.vals[c.rank] = v
	r.bad[c.rank] = bad
	r.arrived[c.rank] = true
	r.count++
	if r.count == w.n {
		w.cond.Broadcast()
	}
	for r.count < w.n {
		if err := w.stuck(r); err != nil {
			return err
		}
		w.cond.Wait()
	}
	// Everyone has arrived. use runs outside the lock; it only reads the
	// deposited values and writes this rank's own buffers.
	var err error
	for rank, e := range r.bad {
		if e != nil {
			err = fmt.Errorf("%s failed on rank %d: %w", kind, rank, e)
			break
		}
	}
	if err == nil {
		w.mu.Unlock()
		err = use(r.vals)
		w.mu.Lock()
	}
	r.done++
	if r.done == w.n {
		delete(w.rounds, seq)
		w.cond.Broadcast()
	}
	for r.done < w.n {
		if w.failed != nil {
			return fmt.Errorf("%w: %s: %v", rma.ErrAborted, kind, firstLine(w.failed))
		}
		w.cond.Wait()
	}
	return err
}
