package gdirma_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/internal/ranktest"
	"github.com/gdi-go/gdi/rma"
)

// indexGraph is n vertices loaded with BulkLoad: vertex i has ID "v<i>",
// label V, label R if i%100 == 0, and property x = perm[i], a permutation
// of 0..n-1, so that a range of x of width w holds exactly w vertices.
type indexGraph struct {
	db      gdi.Database
	v, r    gdi.Label
	x       gdi.PropertyType
	perm    []int64
	byLabel gdi.Index // L = {V}
	rLabel  gdi.Index // L = {R}
	btree   gdi.Index // P = {x}, B-tree
	hash    gdi.Index // P = {x}, hash table
}

func buildIndexGraph(c rma.Comm, n int) (*indexGraph, error) {
	per := n/c.Size() + 1
	db, err := gdirma.Driver{}.CreateDatabase(c, gdirma.Params{
		BlockSize:          128,
		MemoryPerRank:      per*128*5/4 + 1<<20,
		DHTEntries:         per*5/4 + 1024,
		IndexMemoryPerRank: per*7*64 + 1<<20,
	})
	if err != nil {
		return nil, err
	}
	g := &indexGraph{db: db, perm: make([]int64, n)}
	for i, p := range rand.New(rand.NewPCG(7, 7)).Perm(n) {
		g.perm[i] = int64(p)
	}
	if g.v, err = db.CreateLabel("V"); err != nil {
		return nil, err
	}
	if g.r, err = db.CreateLabel("R"); err != nil {
		return nil, err
	}
	if g.x, err = db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "x", Entity: gdi.SingleEntity, Datatype: gdi.Int64, Size: gdi.FixedSize, Count: 1}); err != nil {
		return nil, err
	}
	src := gdi.BulkSource{
		Vertices: uint64(n),
		Vertex: func(i uint64, v *gdi.BulkVertex) error {
			v.ID = strconv.AppendUint(append(v.ID[:0], 'v'), i, 10)
			v.Labels = append(v.Labels[:0], g.v)
			if i%100 == 0 {
				v.Labels = append(v.Labels, g.r)
			}
			v.Properties = append(v.Properties[:0], gdi.BulkProperty{Type: g.x, Value: gdi.Int64s(g.perm[i])})
			return nil
		},
		Edges:     func(int, int, func(uint64, uint64, int) error) error { return nil },
		Direction: gdi.Directed,
	}
	if err := db.(*gdirma.Database).BulkLoad(src); err != nil {
		return nil, err
	}
	// The indexes are made after the load, so their entries come from the
	// collective build; the metamorphic test covers entries made by commits.
	mk := func(t gdi.IndexType, ls []gdi.Label, ps []gdi.PropertyType) (gdi.Index, error) {
		x, err := db.CreateIndex(t, 0)
		if err != nil {
			return nil, err
		}
		return x, x.AddLabelsAndPropertyTypes(ls, ps)
	}
	if g.byLabel, err = mk(gdi.HashTableIndex, []gdi.Label{g.v}, nil); err != nil {
		return nil, err
	}
	if g.rLabel, err = mk(gdi.HashTableIndex, []gdi.Label{g.r}, nil); err != nil {
		return nil, err
	}
	if g.btree, err = mk(gdi.BTreeIndex, nil, []gdi.PropertyType{g.x}); err != nil {
		return nil, err
	}
	if g.hash, err = mk(gdi.HashTableIndex, nil, []gdi.PropertyType{g.x}); err != nil {
		return nil, err
	}
	return g, nil
}

// xRange is the constraint lo <= x < hi.
func (g *indexGraph) xRange(lo, hi int64) (gdi.Constraint, error) {
	return g.xConstraint(gdi.PropertyCondition{PropertyType: g.x, Op: gdi.EqGreater, Value: gdi.Int64s(lo)},
		gdi.PropertyCondition{PropertyType: g.x, Op: gdi.Smaller, Value: gdi.Int64s(hi)})
}

// xEquals is the constraint x == v.
func (g *indexGraph) xEquals(v int64) (gdi.Constraint, error) {
	return g.xConstraint(gdi.PropertyCondition{PropertyType: g.x, Op: gdi.Equal, Value: gdi.Int64s(v)})
}

// xConstraint is the constraint of one subconstraint, the conjunction of
// conds.
func (g *indexGraph) xConstraint(conds ...gdi.PropertyCondition) (gdi.Constraint, error) {
	s, err := g.db.CreateSubconstraint()
	if err != nil {
		return nil, err
	}
	for _, pc := range conds {
		if err := s.AddPropertyCondition(pc.PropertyType, pc.Op, pc.Value); err != nil {
			return nil, err
		}
	}
	c, err := g.db.CreateConstraint()
	if err != nil {
		return nil, err
	}
	return c, c.AddSubconstraint(s)
}

// ids returns the application IDs of the vertices us, sorted.
func ids(tx gdi.Transaction, us []gdi.VertexUID) ([]string, error) {
	out := make([]string, 0, len(us))
	for _, u := range us {
		v, err := tx.AssociateVertex(u)
		if err != nil {
			return nil, err
		}
		vs, err := v.Properties(gdi.PropertyTypeID)
		if err != nil || len(vs) != 1 {
			return nil, fmt.Errorf("ID of %v: %v, %v", u, vs, err)
		}
		out = append(out, string(vs[0].Raw()))
	}
	slices.Sort(out)
	return out, nil
}

// TestIndexRangeQueryExact checks B-tree range queries, hash equality and
// label queries on a graph of 10^6 vertices (10^4 under -short) against
// the answers known from how the graph was made, on 2 ranks: global
// queries from every rank, and local ones that together make the global
// answer.
func TestIndexRangeQueryExact(t *testing.T) {
	n := 1_000_000
	if testing.Short() {
		n = 10_000
	}
	ranktest.Run(t, 2, func(c rma.Comm) error {
		g, err := buildIndexGraph(c, n)
		if err != nil {
			return err
		}
		want := func(keep func(i int) bool) []string {
			var out []string
			for i := range n {
				if keep(i) {
					out = append(out, "v"+strconv.Itoa(i))
				}
			}
			slices.Sort(out)
			return out
		}
		rng := rand.New(rand.NewPCG(uint64(c.Rank()), 3))
		tx, err := g.db.StartTransaction()
		if err != nil {
			return err
		}
		defer tx.Abort()
		for range 3 {
			lo := rng.Int64N(int64(n))
			hi := lo + rng.Int64N(int64(n)/50+1)
			cr, err := g.xRange(lo, hi)
			if err != nil {
				return err
			}
			for _, idx := range []gdi.Index{g.btree, g.hash} {
				us, err := tx.VerticesOfIndex(idx, cr)
				if err != nil {
					return err
				}
				got, err := ids(tx, us)
				if err != nil {
					return err
				}
				exp := want(func(i int) bool { return g.perm[i] >= lo && g.perm[i] < hi })
				if !slices.Equal(got, exp) {
					return fmt.Errorf("x in [%d, %d): %d vertices, want %d", lo, hi, len(got), len(exp))
				}
			}
			x := rng.Int64N(int64(n))
			ce, err := g.xEquals(x)
			if err != nil {
				return err
			}
			us, err := tx.VerticesOfIndex(g.hash, ce)
			if err != nil {
				return err
			}
			if got, err := ids(tx, us); err != nil || !slices.Equal(got, want(func(i int) bool { return g.perm[i] == x })) {
				return fmt.Errorf("x == %d: got %v, %v", x, got, err)
			}
		}
		us, err := tx.VerticesOfIndex(g.rLabel, nil)
		if err != nil {
			return err
		}
		if got, err := ids(tx, us); err != nil || !slices.Equal(got, want(func(i int) bool { return i%100 == 0 })) {
			return fmt.Errorf("label R: %d vertices, %v", len(got), err)
		}
		if err := tx.Commit(); err != nil {
			return err
		}
		// The local parts of a collective read transaction make the whole.
		ctx, err := g.db.StartCollectiveTransaction()
		if err != nil {
			return err
		}
		local, err := ctx.LocalVerticesOfIndex(g.rLabel, nil)
		if err != nil {
			return err
		}
		mine, err := ids(ctx, local)
		if err != nil {
			return err
		}
		if err := ctx.Commit(); err != nil {
			return err
		}
		all, err := c.Allgatherv([]byte(fmt.Sprint(len(mine))))
		if err != nil {
			return err
		}
		total := 0
		for _, b := range all {
			k, _ := strconv.Atoi(string(b))
			total += k
		}
		if total != len(want(func(i int) bool { return i%100 == 0 })) {
			return fmt.Errorf("local parts of label R hold %d vertices in all, want %d", total, n/100)
		}
		return g.db.Free()
	})
}

// benchIndexVertices is the graph size of BenchmarkIndexQuery: 2^20, or
// GDIRMA_INDEX_VERTICES.
func benchIndexVertices() int {
	if s := os.Getenv("GDIRMA_INDEX_VERTICES"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			return n
		}
	}
	return 1 << 20
}

// BenchmarkIndexQuery times index queries on 2 ranks over benchIndexVertices
// vertices (see indexGraph), each query a whole transaction on every rank
// at once:
//
//	hash-eq           x == c through the hash index: one vertex
//	btree-range-1pct  c <= x < c+n/100 through the B-tree: 1% of the graph
//	local-label       the rank's vertices with label R (1%), collective
//	scan-range-1pct   the baseline for btree-range-1pct: every local vertex
//	                  through the label index on V, reading x of each
//
// Run it with a fixed count, as the graph is built for every round:
//
//	go test -run '^$' -bench IndexQuery -benchtime 20x ./gdirma/
func BenchmarkIndexQuery(b *testing.B) {
	n := benchIndexVertices()
	type query func(g *indexGraph, rng *rand.Rand) (int, error)
	width := int64(max(1, n/100))
	cases := []struct {
		name string
		q    query
	}{
		{"hash-eq", func(g *indexGraph, rng *rand.Rand) (int, error) {
			c, err := g.xEquals(rng.Int64N(int64(n)))
			if err != nil {
				return 0, err
			}
			return count(g.db, false, func(tx gdi.Transaction) ([]gdi.VertexUID, error) { return tx.VerticesOfIndex(g.hash, c) })
		}},
		{"btree-range-1pct", func(g *indexGraph, rng *rand.Rand) (int, error) {
			lo := rng.Int64N(int64(n) - width + 1)
			c, err := g.xRange(lo, lo+width)
			if err != nil {
				return 0, err
			}
			return count(g.db, false, func(tx gdi.Transaction) ([]gdi.VertexUID, error) { return tx.VerticesOfIndex(g.btree, c) })
		}},
		{"local-label", func(g *indexGraph, _ *rand.Rand) (int, error) {
			return count(g.db, true, func(tx gdi.Transaction) ([]gdi.VertexUID, error) { return tx.LocalVerticesOfIndex(g.rLabel, nil) })
		}},
		{"scan-range-1pct", func(g *indexGraph, rng *rand.Rand) (int, error) {
			lo := rng.Int64N(int64(n) - width + 1)
			found := 0
			_, err := count(g.db, true, func(tx gdi.Transaction) ([]gdi.VertexUID, error) {
				us, err := tx.LocalVerticesOfIndex(g.byLabel, nil)
				if err != nil {
					return nil, err
				}
				for _, u := range us {
					v, err := tx.AssociateVertex(u)
					if err != nil {
						return nil, err
					}
					vs, err := v.Properties(g.x)
					if err != nil || len(vs) != 1 {
						return nil, fmt.Errorf("x: %v %v", vs, err)
					}
					xs, err := vs[0].Int64Slice()
					if err != nil {
						return nil, err
					}
					if xs[0] >= lo && xs[0] < lo+width {
						found++
					}
				}
				return nil, nil
			})
			return found, err
		}},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			ranktest.Bench(b, 2, func(c rma.Comm, N int) (func(int) error, func() error, error) {
				g, err := buildIndexGraph(c, n)
				if err != nil {
					return nil, nil, err
				}
				rng := rand.New(rand.NewPCG(uint64(c.Rank()), 5))
				results := 0
				op := func(int) error {
					k, err := tc.q(g, rng)
					results += k
					return err
				}
				cleanup := func() error {
					if c.Rank() == 0 {
						b.ReportMetric(float64(results)/float64(N), "results/op")
					}
					return g.db.Free()
				}
				return op, cleanup, nil
			})
		})
	}
}

// count runs query in a transaction (collective if collective) and returns
// the number of vertices it found.
func count(db gdi.Database, collective bool, query func(tx gdi.Transaction) ([]gdi.VertexUID, error)) (int, error) {
	start := db.StartTransaction
	if collective {
		start = db.StartCollectiveTransaction
	}
	tx, err := start()
	if err != nil {
		return 0, err
	}
	us, err := query(tx)
	if err != nil {
		tx.Abort()
		return 0, err
	}
	return len(us), tx.Commit()
}
