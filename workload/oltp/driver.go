package oltp

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"golang.org/x/sys/cpu"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/generator"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/count"
)

// Config describes a run. It must be the same on every rank, except
// Progress.
type Config struct {
	Mix Mix
	// Graph generated the database's data, and Meta holds the handles of
	// its labels and property types in the database.
	Graph *generator.Graph
	Meta  *generator.Metadata
	// Goroutines issuing operations on each rank; 0 means 1.
	Goroutines int
	// The run stops after Count operations per rank if Count > 0, and
	// otherwise after Duration.
	Count    int
	Duration time.Duration
	// Zipf draws targets from Zipf distributions (shape 0.8 for reads,
	// 0.741 for writes) instead of uniformly.
	Zipf bool
	Seed uint64
	// NoPrefetch turns off the hints of the IDs of each goroutine's next
	// operation, which the driver otherwise gives a database that takes
	// them (gdi.VertexIDPrefetcher) while the current operation runs.
	NoPrefetch bool
	// Progress, if not nil, is called now and then on every rank with the
	// operations that rank has finished so far.
	Progress func(done int64)
	// Calls, if not nil, returns the one-sided calls this rank has made
	// so far (a count.Comm's Counts, the Comm db runs on): it is read
	// before and after every operation, and the report gives the calls
	// per operation type (OpReport.Calls). It needs one goroutine per
	// rank, so that no other operation's calls fall in between.
	Calls func() count.Counts
}

// outcome of one operation.
type outcome int

const (
	committed outcome = iota
	notFound
	failed
)

// Latencies are recorded in nanoseconds, from 100 ns to 100 s, with three
// significant digits.
const (
	histLow, histHigh, histDigits = 100, 100_000_000_000, 3
)

// stats of one operation type on one goroutine.
type stats struct {
	count [3]int64 // by outcome
	hist  *hdrhistogram.Histogram
	calls count.Counts // with Config.Calls: of all its operations
}

// Run runs the workload on every rank of c against db, whose contents cfg
// describes, and returns the figures of all ranks (the same on every rank).
// It is collective.
func Run(c rma.Comm, db gdi.Database, cfg Config) (*Report, error) {
	if err := cfg.Mix.Validate(); err != nil {
		return nil, err
	}
	if cfg.Graph == nil || cfg.Meta == nil {
		return nil, errors.New("oltp: Config needs the Graph and its Metadata")
	}
	if cfg.Count <= 0 && cfg.Duration <= 0 {
		return nil, errors.New("oltp: Config needs a Count or a Duration")
	}
	gs := max(cfg.Goroutines, 1)
	if cfg.Calls != nil && gs > 1 {
		return nil, fmt.Errorf("oltp: counting calls per operation needs one goroutine per rank, not %d", gs)
	}
	var reads, writes *zipf
	if cfg.Zipf {
		reads, writes = newZipf(0.8), newZipf(0.741)
	}
	workers := make([]*worker, gs)
	for g := range workers {
		w, err := newWorker(c, db, cfg, g, reads, writes)
		if err != nil {
			return nil, err
		}
		workers[g] = w
	}
	// Generating and loading the graph leaves garbage behind; collecting
	// it now keeps that work out of the timed run, as testing.B does
	// before every benchmark. (RM at scale 16 on 2 ranks, 200000
	// operations per rank: 655K to 725K per second, medians of six runs.)
	runtime.GC()
	if err := c.Barrier(); err != nil {
		return nil, err
	}

	// Every operation updates these. The padding keeps them off cache
	// lines that another rank's goroutines write: the ranks of rma/local
	// share one heap (see the padding of gdirma.Database).
	var counters struct {
		_      cpu.CacheLinePad
		done   atomic.Int64
		budget atomic.Int64 // operations left on this rank, with Count
		_      cpu.CacheLinePad
	}
	done, budget := &counters.done, &counters.budget
	budget.Store(int64(cfg.Count))
	deadline := time.Now().Add(cfg.Duration)
	more := func() bool {
		if cfg.Count > 0 {
			return budget.Add(-1) >= 0
		}
		return time.Now().Before(deadline)
	}
	start := time.Now()
	errs := make([]error, gs)
	var wg sync.WaitGroup
	for g, w := range workers {
		wg.Go(func() {
			for more() {
				if err := w.step(); err != nil {
					errs[g] = err
					return
				}
				if n := done.Add(1); cfg.Progress != nil && n%4096 == 0 && g == 0 {
					cfg.Progress(n)
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	for _, w := range workers {
		w.close()
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return gather(c, cfg, workers, elapsed)
}

// worker issues operations from one goroutine, which alone writes it: the
// padding keeps other workers' writes off its cache lines.
type worker struct {
	_       cpu.CacheLinePad
	db      gdi.Database
	g       *generator.Graph
	m       *generator.Metadata
	rng     *rand.Rand // draws from pcg
	pcg     rand.PCG   // here, not allocated apart, to be padded with the rest
	choose  chooser
	reads   *zipf
	writes  *zipf
	mask    uint64 // vertex numbers are below mask+1
	scale   int
	fresh   uint64 // next fresh vertex number, advanced by stride
	stride  uint64
	slot    uint64           // the worker's place among all: fresh is n+slot modulo stride
	byLabel []gdi.Constraint // "has edge label i", one per edge label
	propsOf [][]int          // property type indexes of each vertex label
	person  int              // vertex label index of Person, or -1
	first   int              // property type indexes for updates
	last    int
	name    int
	stats   [NumOps]stats
	idBuf   []byte    // where open formats application IDs: idRoom at first
	base    time.Time // latencies are differences of times since base
	// With pf set, every operation is drawn one ahead of its run, and the
	// IDs of the next one are hinted while the current one runs.
	pf      gdi.VertexIDPrefetcher
	next    plan
	calls   func() count.Counts // Config.Calls
	hintBuf []byte              // hintRoom at first
	// The buffers start in the worker, padded with it: allocated apart,
	// two ranks' buffers may share a cache line that both write every
	// operation.
	idRoom, hintRoom [20]byte // a uint64 in decimal
	_                cpu.CacheLinePad
}

func newWorker(c rma.Comm, db gdi.Database, cfg Config, g int, reads, writes *zipf) (*worker, error) {
	gr := cfg.Graph
	n := gr.NumVertices()
	s := gr.Scheme()
	w := &worker{
		db: db, g: gr, m: cfg.Meta, calls: cfg.Calls,
		pcg:    *rand.NewPCG(cfg.Seed^uint64(c.Rank())<<32, uint64(g)+1),
		choose: newChooser(cfg.Mix),
		reads:  reads, writes: writes,
		mask:   n - 1,
		scale:  bits.Len64(n - 1),
		fresh:  n + uint64(c.Rank()*max(cfg.Goroutines, 1)+g),
		stride: uint64(c.Size() * max(cfg.Goroutines, 1)),
		slot:   uint64(c.Rank()*max(cfg.Goroutines, 1) + g),
		person: -1, first: -1, last: -1, name: -1,
		base: time.Now(),
	}
	w.rng = rand.New(&w.pcg)
	w.idBuf, w.hintBuf = w.idRoom[:0], w.hintRoom[:0]
	if !cfg.NoPrefetch {
		w.pf, _ = db.(gdi.VertexIDPrefetcher)
	}
	for i := range w.stats {
		w.stats[i].hist = hdrhistogram.New(histLow, histHigh, histDigits)
	}
	for i, l := range s.VertexLabels {
		var ps []int
		for _, u := range l.Properties {
			ps = append(ps, u.Property)
		}
		w.propsOf = append(w.propsOf, ps)
		if l.Name == "Person" {
			w.person = i
		}
	}
	for i, p := range s.Properties {
		switch p.Name {
		case "firstName":
			w.first = i
		case "lastName":
			w.last = i
		case "name":
			w.name = i
		}
	}
	for _, l := range cfg.Meta.EdgeLabels {
		con, err := edgeLabelConstraint(db, l)
		if err != nil {
			return nil, err
		}
		w.byLabel = append(w.byLabel, con)
	}
	if w.pf != nil {
		w.next = w.draw()
		w.hint(w.next)
	}
	return w, nil
}

func edgeLabelConstraint(db gdi.Database, l gdi.Label) (gdi.Constraint, error) {
	sub, err := db.CreateSubconstraint()
	if err != nil {
		return nil, err
	}
	if err := sub.AddLabelCondition(l, gdi.Equal); err != nil {
		return nil, err
	}
	con, err := db.CreateConstraint()
	if err != nil {
		return nil, err
	}
	if err := con.AddSubconstraint(sub); err != nil {
		return nil, err
	}
	return con, sub.Free()
}

func (w *worker) close() {
	for _, c := range w.byLabel {
		_ = c.Free()
	}
}

// target draws a vertex number of the loaded graph and the vertices added
// so far (as LinkBench's ID range grows with its inserts): uniformly, or
// from a Zipf distribution whose hot ranks are loaded vertices, scattered,
// and whose tail ranks are the added vertices, newest last.
func (w *worker) target(z *zipf) uint64 {
	n := w.fresh - w.slot // every worker has added about as many as this one
	if z == nil {
		return w.rng.Uint64N(n)
	}
	k := z.rank(n, w.rng.Float64)
	if k > w.mask {
		return k // an added vertex
	}
	return w.scatter(k)
}

// labelOf is the vertex label index of vertex number x: its generated
// label, or for an added vertex that of the loaded vertex it imitates
// (addVertex), so that any rank can find it by its ID.
func (w *worker) labelOf(x uint64) int { return w.g.VertexLabel(x % (w.mask + 1)) }

// scatter is a bijection of [0, 2^scale) that spreads Zipf ranks over the
// vertices, so the hot ones are not the low numbers (and so one label).
func (w *worker) scatter(k uint64) uint64 {
	k = k * 0x9e3779b97f4a7c15 & w.mask
	k ^= k >> (w.scale/2 + 1)
	return k * 0xbf58476d1ce4e5b9 & w.mask
}

// plan is an operation drawn before its run: its type, and the vertex
// numbers of its target and, for AddEdge, of the other end.
type plan struct {
	op   Op
	x, y uint64
}

// draw draws the next operation of the mix.
func (w *worker) draw() plan {
	op := w.choose.pick(w.rng.Float64())
	z := w.reads
	if op.Write() {
		z = w.writes
	}
	p := plan{op: op}
	if op != AddVertex {
		p.x = w.target(z)
		if op == AddEdge {
			p.y = w.target(z)
		}
	}
	return p
}

// hint tells the database the IDs p will translate.
func (w *worker) hint(p plan) {
	if p.op == AddVertex {
		return
	}
	w.hintID(p.x)
	if p.op == AddEdge {
		w.hintID(p.y)
	}
}

func (w *worker) hintID(x uint64) { w.pf.PrefetchVertexID(w.appID(&w.hintBuf, x)) }

// appID returns the label of vertex x and its application ID, formatted
// into *buf.
func (w *worker) appID(buf *[]byte, x uint64) (gdi.Label, []byte) {
	*buf = generator.AppendAppID((*buf)[:0], x)
	return w.m.VertexLabels[w.labelOf(x)], *buf
}

// step runs one operation and records its outcome and latency. With
// hints, it draws the operation after it first and hints its IDs, which
// is not timed.
func (w *worker) step() error {
	p := w.draw()
	if w.pf != nil {
		p, w.next = w.next, p
		w.hint(w.next)
	}
	op := p.op
	// Both ends are read as time since the worker's base, which reads
	// only the monotonic clock: time.Now would read the wall clock too.
	start := time.Since(w.base)
	var before count.Counts
	if w.calls != nil {
		before = w.calls()
	}
	out := w.run(p)
	st := &w.stats[op]
	if w.calls != nil {
		st.calls = st.calls.Add(w.calls().Sub(before))
	}
	st.count[out]++
	if out == committed {
		_ = st.hist.RecordValue(max(int64(time.Since(w.base)-start), histLow))
	}
	return nil
}

// run performs p in a transaction, which it commits if every step
// succeeded and aborts otherwise. Errors of the database are outcomes (a
// lock conflict fails the operation), not errors of the run.
func (w *worker) run(p plan) outcome {
	tx, err := w.db.StartTransaction()
	if err != nil {
		return failed
	}
	out, err := w.apply(tx, p)
	if err != nil || out != committed {
		_ = tx.Abort()
		if err == nil && out == notFound {
			return notFound
		}
		return failed
	}
	if err := tx.Commit(); err != nil {
		return failed
	}
	return committed
}

func (w *worker) apply(tx gdi.Transaction, p plan) (outcome, error) {
	op, x := p.op, p.x
	if op == AddVertex {
		return w.addVertex(tx)
	}
	v, out, err := w.open(tx, x)
	if out != committed || err != nil {
		return out, err
	}
	switch op {
	case GetVertexProperties:
		for _, p := range w.propsOf[w.labelOf(x)] {
			if _, err := v.Properties(w.m.PropertyTypes[p]); err != nil {
				return failed, err
			}
		}
	case CountEdges, GetEdges:
		row := w.g.Scheme().EdgeMatrix[w.labelOf(x)]
		con := w.byLabel[row[w.rng.IntN(len(row))]]
		if _, err := v.Edges(gdi.EdgeAll, con); err != nil {
			return failed, err
		}
	case DeleteVertex:
		if err := v.Free(); err != nil {
			return failed, err
		}
	case UpdateProperty:
		if err := w.updateProperty(v, x); err != nil {
			return failed, err
		}
	case AddEdge:
		y := p.y
		u, out, err := w.open(tx, y)
		if out != committed || err != nil {
			return out, err
		}
		e, err := tx.CreateEdge(gdi.Undirected, v, u)
		if err != nil {
			return failed, err
		}
		l := w.g.Scheme().EdgeMatrix[w.labelOf(x)][w.labelOf(y)]
		if err := e.AddLabel(w.m.EdgeLabels[l]); err != nil {
			return failed, err
		}
	default:
		return failed, fmt.Errorf("oltp: no operation %v", op)
	}
	return committed, nil
}

// open translates vertex x's application ID and associates the vertex.
func (w *worker) open(tx gdi.Transaction, x uint64) (gdi.VertexHolder, outcome, error) {
	uid, found, err := tx.TranslateVertexID(w.appID(&w.idBuf, x))
	if err != nil && gdi.Failed(err) { // a warning (a shared ID) still found one
		return nil, failed, err
	}
	if !found {
		return nil, notFound, nil
	}
	v, err := tx.AssociateVertex(uid)
	if err != nil {
		return nil, failed, err
	}
	return v, committed, nil
}

// addVertex creates a vertex with a fresh ID, the label of the loaded
// vertex its ID imitates (labelOf), and the properties of a loaded vertex
// of that label.
func (w *worker) addVertex(tx gdi.Transaction) (outcome, error) {
	id := w.fresh
	w.fresh += w.stride
	k := w.labelOf(id)
	lo, hi := w.g.LabelRange(k)
	v, err := tx.CreateVertex(generator.AppID(id))
	if err != nil {
		return failed, err
	}
	if err := v.AddLabel(w.m.VertexLabels[k]); err != nil {
		return failed, err
	}
	for _, p := range w.g.VertexProperties(lo + w.rng.Uint64N(hi-lo)) {
		if err := v.AddProperty(w.m.PropertyTypes[p.Type], p.Value); err != nil {
			return failed, err
		}
	}
	return committed, nil
}

// updateProperty replaces a Person's first and last name, or the name of
// any other vertex, with the values of another vertex of the same label.
func (w *worker) updateProperty(v gdi.VertexHolder, x uint64) error {
	k := w.labelOf(x)
	props := []int{w.name}
	if k == w.person {
		props = []int{w.first, w.last}
	}
	lo, hi := w.g.LabelRange(k)
	from := lo + w.rng.Uint64N(hi-lo)
	for _, p := range props {
		if p < 0 {
			continue
		}
		val, ok := w.g.Value(from, p)
		if !ok {
			continue
		}
		if err := v.SetProperty(w.m.PropertyTypes[p], val); err != nil {
			return err
		}
	}
	return nil
}
