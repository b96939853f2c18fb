package oltp

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/gdi-go/gdi/conformance/refdb"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/generator"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

func TestMixes(t *testing.T) {
	for _, m := range Mixes {
		if err := m.Validate(); err != nil {
			t.Error(err)
		}
		got, err := MixByName(m.Name)
		if err != nil || got != m {
			t.Errorf("MixByName(%q) = %v, %v", m.Name, got.Name, err)
		}
	}
	if _, err := MixByName("nosuch"); err == nil {
		t.Error("MixByName of an unknown mix succeeded")
	}
	if err := (Mix{"bad", [NumOps]float64{50, 40}}).Validate(); err == nil {
		t.Error("a mix adding up to 90% validated")
	}
}

// TestChooser draws many operations and compares their shares with the mix.
func TestChooser(t *testing.T) {
	const n = 200000
	rng := rand.New(rand.NewPCG(1, 2))
	for _, m := range Mixes {
		c := newChooser(m)
		var got [NumOps]int
		for range n {
			got[c.pick(rng.Float64())]++
		}
		for o, p := range m.Percent {
			want := p / 100 * n
			sd := math.Sqrt(n * p / 100 * (1 - p/100))
			if p == 0 && got[o] != 0 || math.Abs(float64(got[o])-want) > 5*sd+1 {
				t.Errorf("%s: %v drawn %d times of %d, want %.0f", m.Name, Op(o), got[o], n, want)
			}
		}
	}
}

// TestZipf compares the frequencies of ranks with 1/(k+1)^θ / ζ(n, θ).
func TestZipf(t *testing.T) {
	const items, draws = 1000, 400000
	rng := rand.New(rand.NewPCG(3, 4))
	for _, theta := range []float64{0.8, 0.741} {
		z := newZipf(theta)
		zeta := 0.0
		for k := 1; k <= items; k++ {
			zeta += 1 / math.Pow(float64(k), theta)
		}
		counts := make([]int, items)
		for range draws {
			k := z.rank(items, rng.Float64)
			if k >= items {
				t.Fatalf("rank %d out of [0, %d)", k, items)
			}
			counts[k]++
		}
		for _, k := range []int{0, 1, 2, 3, 10, 100, 999} {
			p := 1 / math.Pow(float64(k+1), theta) / zeta
			want := p * draws
			if sd := math.Sqrt(draws * p * (1 - p)); math.Abs(float64(counts[k])-want) > 5*sd {
				t.Errorf("θ=%v: rank %d drawn %d times, want %.0f", theta, k, counts[k], want)
			}
		}
		// The tail is much flatter than the head, but not empty.
		if counts[items-1] == 0 || counts[0] < 20*counts[items-1] {
			t.Errorf("θ=%v: first rank %d, last rank %d: not Zipf-shaped", theta, counts[0], counts[items-1])
		}
	}
}

func TestScatterIsABijection(t *testing.T) {
	for _, scale := range []int{1, 2, 7, 12} {
		w := &worker{mask: 1<<scale - 1, scale: scale}
		seen := make(map[uint64]bool)
		for k := range uint64(1 << scale) {
			x := w.scatter(k)
			if x > w.mask || seen[x] {
				t.Fatalf("scale %d: scatter(%d) = %d repeats or leaves the range", scale, k, x)
			}
			seen[x] = true
		}
	}
}

// TestZipfTargetsGrow: Zipf targets cover the vertices added so far, in
// the tail; the hot ones stay loaded vertices.
func TestZipfTargetsGrow(t *testing.T) {
	const scale, added = 10, 1 << 10 // as many added as loaded
	w := &worker{mask: 1<<scale - 1, scale: scale, rng: rand.New(rand.NewPCG(5, 6))}
	w.fresh = 1<<scale + added
	z := newZipf(0.8)
	hot := w.scatter(0)
	var fresh, hits int
	const draws = 200000
	for range draws {
		switch x := w.target(z); {
		case x >= w.fresh:
			t.Fatalf("target %d beyond the %d vertices so far", x, w.fresh)
		case x > w.mask:
			fresh++
		case x == hot:
			hits++
		}
	}
	// At θ = 0.8, ranks 1024 to 2047 of 2048 have 0.160 of the mass, and
	// rank 0 has 0.054.
	if share := float64(fresh) / draws; share < 0.15 || share > 0.17 {
		t.Errorf("added vertices drew %.3f of the targets, want about 0.160", share)
	}
	if share := float64(hits) / draws; share < 0.05 || share > 0.058 {
		t.Errorf("the hottest loaded vertex drew %.3f of the targets, want about 0.054", share)
	}
}

// loaded builds the graph of cfg in refdb on every rank and runs fn.
func loaded(t testing.TB, ranks int, cfg generator.Config, fn func(c rma.Comm, db gdi.Database, g *generator.Graph, m *generator.Metadata) error) {
	t.Helper()
	g, err := generator.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	err = local.Run(ranks, func(c rma.Comm) error {
		db, err := refdb.Driver{}.CreateDatabase(c, nil)
		if err != nil {
			return err
		}
		m, err := g.Scheme().CreateMetadata(db)
		if err != nil {
			return err
		}
		if err := g.Insert(c, db, m, generator.InsertOptions{}); err != nil {
			return err
		}
		return errors.Join(fn(c, db, g, m), db.Free())
	})
	if err != nil {
		t.Fatal(err)
	}
}

// countVertices counts the vertices of every label through an index.
func countVertices(c rma.Comm, db gdi.Database, m *generator.Metadata) (int, error) {
	idx, err := db.CreateIndex(gdi.HashTableIndex, 0)
	if err != nil {
		return 0, err
	}
	for _, l := range m.VertexLabels {
		if err := idx.AddLabel(l); err != nil {
			return 0, err
		}
	}
	if err := c.Barrier(); err != nil {
		return 0, err
	}
	tx, err := db.StartTransaction()
	if err != nil {
		return 0, err
	}
	uids, err := tx.VerticesOfIndex(idx, nil)
	if err != nil {
		return 0, errors.Join(err, tx.Abort())
	}
	return len(uids), errors.Join(tx.Commit(), idx.Free())
}

// TestRunLB runs the LinkBench mix and checks that the figures add up and
// that what was committed is in the database: the vertex count changes by
// the committed adds minus the committed deletes.
func TestRunLB(t *testing.T) {
	const ranks, goroutines, count = 2, 2, 400
	loaded(t, ranks, generator.Config{Scale: 7, EdgeFactor: 4, Seed: 5}, func(c rma.Comm, db gdi.Database, g *generator.Graph, m *generator.Metadata) error {
		before, err := countVertices(c, db, m)
		if err != nil {
			return err
		}
		if before != int(g.NumVertices()) {
			return fmt.Errorf("loaded %d vertices, want %d", before, g.NumVertices())
		}
		r, err := Run(c, db, Config{Mix: LB, Graph: g, Meta: m, Goroutines: goroutines, Count: count, Seed: 9})
		if err != nil {
			return err
		}
		if total := r.Committed + r.NotFound + r.Failed; total != ranks*count {
			return fmt.Errorf("%d operations reported, want %d", total, ranks*count)
		}
		for i, o := range r.Ops {
			n := o.Committed + o.NotFound + o.Failed
			if LB.Percent[i] > 2 && n == 0 {
				return fmt.Errorf("no %s operation in %d", o.Op, ranks*count)
			}
			if got := r.Histogram(Op(i)).TotalCount(); got != o.Committed {
				return fmt.Errorf("%s: histogram holds %d latencies for %d commits", o.Op, got, o.Committed)
			}
			if o.Committed > 0 && (o.P50 <= 0 || o.P50 > o.P99 || o.P99 > o.Max) {
				return fmt.Errorf("%s: percentiles out of order: %+v", o.Op, o)
			}
		}
		if r.Throughput <= 0 || r.Elapsed <= 0 {
			return fmt.Errorf("throughput %v over %v", r.Throughput, r.Elapsed)
		}
		after, err := countVertices(c, db, m)
		if err != nil {
			return err
		}
		added, deleted := r.Ops[AddVertex].Committed, r.Ops[DeleteVertex].Committed
		if want := before + int(added-deleted); after != want {
			return fmt.Errorf("%d vertices after %d adds and %d deletes from %d, want %d", after, added, deleted, before, want)
		}
		return nil
	})
}

// TestRunReadMostly: a read-only stream changes nothing, finds every
// vertex, and on one goroutine per rank never fails.
func TestRunReadMostly(t *testing.T) {
	readOnly := Mix{"reads", [NumOps]float64{30, 20, 50}}
	loaded(t, 2, generator.Config{Scale: 6, EdgeFactor: 4, Seed: 6}, func(c rma.Comm, db gdi.Database, g *generator.Graph, m *generator.Metadata) error {
		for _, zipf := range []bool{false, true} {
			r, err := Run(c, db, Config{Mix: readOnly, Graph: g, Meta: m, Count: 300, Zipf: zipf})
			if err != nil {
				return err
			}
			if r.Committed != 600 || r.NotFound != 0 || r.Failed != 0 {
				return fmt.Errorf("zipf=%v: %d committed, %d not found, %d failed; want 600 committed", zipf, r.Committed, r.NotFound, r.Failed)
			}
		}
		n, err := countVertices(c, db, m)
		if err == nil && n != int(g.NumVertices()) {
			err = fmt.Errorf("reads changed the vertex count to %d", n)
		}
		return err
	})
}

func TestRunDuration(t *testing.T) {
	loaded(t, 1, generator.Config{Scale: 5, EdgeFactor: 2, Seed: 7}, func(c rma.Comm, db gdi.Database, g *generator.Graph, m *generator.Metadata) error {
		r, err := Run(c, db, Config{Mix: RI, Graph: g, Meta: m, Duration: 50 * time.Millisecond})
		if err != nil {
			return err
		}
		if r.Committed == 0 || r.Elapsed < 50*time.Millisecond {
			return fmt.Errorf("a 50 ms run committed %d operations in %v", r.Committed, r.Elapsed)
		}
		return nil
	})
}

func TestRunBadConfig(t *testing.T) {
	loaded(t, 1, generator.Config{Scale: 3, EdgeFactor: 1, Seed: 1}, func(c rma.Comm, db gdi.Database, g *generator.Graph, m *generator.Metadata) error {
		for _, cfg := range []Config{
			{Mix: LB, Graph: g, Meta: m}, // neither count nor duration
			{Mix: LB, Count: 1},          // no graph
			{Mix: Mix{"x", [NumOps]float64{1}}, Graph: g, Meta: m, Count: 1}, // 1%
		} {
			if _, err := Run(c, db, cfg); err == nil {
				return fmt.Errorf("Run(%+v) succeeded", cfg)
			}
		}
		return nil
	})
}

// hinted wraps a database that takes ID hints and notes, in order, the
// hints it gets and the IDs its transactions translate.
type hinted struct {
	gdi.Database
	mu      sync.Mutex
	hints   []string
	lookups []string
}

func (h *hinted) PrefetchVertexID(l gdi.Label, id []byte) {
	h.mu.Lock()
	h.hints = append(h.hints, fmt.Sprint(l, string(id)))
	h.mu.Unlock()
}

func (h *hinted) StartTransaction() (gdi.Transaction, error) {
	tx, err := h.Database.StartTransaction()
	return &hintedTx{tx, h}, err
}

type hintedTx struct {
	gdi.Transaction
	h *hinted
}

func (tx *hintedTx) TranslateVertexID(l gdi.Label, id []byte) (gdi.VertexUID, bool, error) {
	tx.h.mu.Lock()
	tx.h.lookups = append(tx.h.lookups, fmt.Sprint(l, string(id)))
	tx.h.mu.Unlock()
	return tx.Transaction.TranslateVertexID(l, id)
}

// TestPrefetchHintsNextOperation checks that the driver hints every ID an
// operation translates, in the order they are translated, before the
// operation runs; and that it gives no hints with NoPrefetch.
func TestPrefetchHintsNextOperation(t *testing.T) {
	mix := Mix{"reads and edges", [NumOps]float64{30, 10, 40, 0, 0, 0, 20}}
	loaded(t, 2, generator.Config{Scale: 6, EdgeFactor: 4, Seed: 8}, func(c rma.Comm, db gdi.Database, g *generator.Graph, m *generator.Metadata) error {
		for _, off := range []bool{false, true} {
			h := &hinted{Database: db}
			r, err := Run(c, h, Config{Mix: mix, Graph: g, Meta: m, Count: 200, Seed: 3, NoPrefetch: off})
			if err != nil {
				return err
			}
			// Two ranks adding edges at once may fail one on a lock; no
			// vertex goes missing.
			if r.Committed+r.Failed != 400 || r.Failed > 20 {
				return fmt.Errorf("NoPrefetch=%v: %d committed, %d not found, %d failed of 400", off, r.Committed, r.NotFound, r.Failed)
			}
			if off {
				if len(h.hints) != 0 {
					return fmt.Errorf("NoPrefetch: %d hints given", len(h.hints))
				}
				continue
			}
			// The operation drawn after the last one run was hinted too:
			// one ID, or two for AddEdge.
			if n := len(h.hints) - len(h.lookups); n < 1 || n > 2 {
				return fmt.Errorf("%d hints for %d lookups", len(h.hints), len(h.lookups))
			}
			for i, l := range h.lookups {
				if h.hints[i] != l {
					return fmt.Errorf("lookup %d is %s, hint %d was %s", i, l, i, h.hints[i])
				}
			}
		}
		return nil
	})
}

// TestAddedVerticesAreTargets: on a graph of 16 vertices, a write-heavy
// mix of 3,000 operations deletes the loaded vertices within its first
// few hundred; the vertices it adds join the targets, as LinkBench's ID
// range grows, so more operations find theirs (46 to 50% here, as the
// goroutines' adds and deletes interleave), and the added ones are read,
// changed and deleted too.
func TestAddedVerticesAreTargets(t *testing.T) {
	mix := Mix{"adds", [NumOps]float64{20, 0, 10, 25, 10, 15, 20}}
	loaded(t, 2, generator.Config{Scale: 4, EdgeFactor: 2, Seed: 3}, func(c rma.Comm, db gdi.Database, g *generator.Graph, m *generator.Metadata) error {
		r, err := Run(c, db, Config{Mix: mix, Graph: g, Meta: m, Goroutines: 2, Count: 1500, Seed: 4})
		if err != nil {
			return err
		}
		// With the loaded range alone as targets, 71% found nothing.
		if share := r.NotFoundShare(); share > 0.62 {
			return fmt.Errorf("%.0f%% of the operations found no vertex: the added vertices are no targets", 100*share)
		}
		if d := r.Ops[DeleteVertex].Committed; d <= int64(g.NumVertices()) {
			return fmt.Errorf("%d deletes committed, of a graph of %d loaded vertices: no added vertex was deleted", d, g.NumVertices())
		}
		return nil
	})
}
