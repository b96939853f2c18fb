package gdirma_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/internal/ranktest"
	"github.com/gdi-go/gdi/rma"
	"golang.org/x/sys/cpu"
)

// benchVertices is the graph size of BenchmarkOLTP: 2^16 vertices by
// default, GDIRMA_BENCH_VERTICES to change it. Every vertex has 16
// outgoing edges to random vertices.
func benchVertices() int {
	if s := os.Getenv("GDIRMA_BENCH_VERTICES"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			return n
		}
	}
	return 1 << 16
}

const benchDegree = 16

// benchGraph builds the graph collectively: each rank creates every
// size-th vertex, then their outgoing edges, in batches, retrying batches
// that conflict with other ranks.
//
// The ranks of rma/local share one heap, so a rank's benchGraph is padded:
// ops write idBuf, and a cache line shared with another rank's state would
// be timed as a cost of the database.
type benchGraph struct {
	_    cpu.CacheLinePad
	db   gdi.Database
	v    gdi.Label
	num  gdi.PropertyType
	uids []gdi.VertexUID // all vertices, by number
	// idBuf is where ops format IDs, so that the benchmark times the
	// database rather than fmt.
	idBuf []byte
	_     cpu.CacheLinePad
}

// benchRank is the state one rank's ops of BenchmarkOLTP write, padded
// as benchGraph is. Two ranks' generators on one cache line cost 120 ns
// an op at ranks=2 (BenchmarkOLTP/CountEdges on 2 cores).
type benchRank struct {
	_         cpu.CacheLinePad
	pcg       rand.PCG
	conflicts int
	_         cpu.CacheLinePad
}

// id formats an application-level ID into g.idBuf: prefix and i.
func (g *benchGraph) id(prefix string, i uint64) []byte {
	g.idBuf = strconv.AppendUint(append(g.idBuf[:0], prefix...), i, 10)
	return g.idBuf
}

func retry(db gdi.Database, fn func(tx gdi.Transaction) error) error {
	for attempt := 0; ; attempt++ {
		tx, err := db.StartTransaction()
		if err != nil {
			return err
		}
		err = fn(tx)
		if err == nil {
			err = tx.Commit()
		} else {
			tx.Abort()
		}
		c := gdi.ErrorClass(err)
		if err == nil || attempt > 50 || (c != gdi.ErrTransactionCommitFail && c != gdi.ErrTransactionCritical) {
			return err
		}
		if attempt > 5 { // locks held longer, as with a synced redo log
			time.Sleep(time.Duration(attempt) * 50 * time.Microsecond)
		}
	}
}

// buildBenchGraph builds the graph of n vertices, with room in the hash
// table for ids more application IDs per rank (those AddVertex creates).
func buildBenchGraph(c rma.Comm, n, ids int) (*benchGraph, error) {
	blocks := 8 * n * (benchDegree + 2) / c.Size() // generous
	db, err := gdirma.Driver{}.CreateDatabase(c, gdirma.Params{BlockSize: 256, MemoryPerRank: max(64<<20, blocks*256), DHTEntries: 2*n/c.Size() + ids + (1 << 16)})
	if err != nil {
		return nil, err
	}
	g := &benchGraph{db: db}
	if g.v, err = db.CreateLabel("V"); err != nil {
		return nil, err
	}
	if g.num, err = db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "num", Entity: gdi.SingleEntity, Datatype: gdi.Int64, Size: gdi.FixedSize, Count: 1}); err != nil {
		return nil, err
	}
	const batch = 256
	var mine []int
	for i := c.Rank(); i < n; i += c.Size() {
		mine = append(mine, i)
	}
	for s := 0; s < len(mine); s += batch {
		err := retry(db, func(tx gdi.Transaction) error {
			for _, i := range mine[s:min(s+batch, len(mine))] {
				x, err := tx.CreateVertex([]byte(fmt.Sprintf("v%d", i)))
				if err != nil {
					return err
				}
				if err := x.AddLabel(g.v); err != nil {
					return err
				}
				if err := x.AddProperty(g.num, gdi.Int64s(int64(i))); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if err := c.Barrier(); err != nil {
		return nil, err
	}
	g.uids = make([]gdi.VertexUID, n)
	err = retry(db, func(tx gdi.Transaction) error {
		for i := range n {
			u, ok, err := tx.TranslateVertexID(g.v, []byte(fmt.Sprintf("v%d", i)))
			if err != nil || !ok {
				return fmt.Errorf("vertex v%d: %v %v", i, ok, err)
			}
			g.uids[i] = u
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(uint64(c.Rank()), 1))
	const ebatch = 4
	for s := 0; s < len(mine); s += ebatch {
		var targets []int
		for range ebatch * benchDegree {
			targets = append(targets, rng.IntN(n))
		}
		err := retry(db, func(tx gdi.Transaction) error {
			k := 0
			for _, i := range mine[s:min(s+ebatch, len(mine))] {
				x, err := tx.AssociateVertex(g.uids[i])
				if err != nil {
					return err
				}
				for range benchDegree {
					y, err := tx.AssociateVertex(g.uids[targets[k]])
					k++
					if err != nil {
						return err
					}
					if _, err := tx.CreateEdge(gdi.Directed, x, y); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return g, c.Barrier()
}

// addVertices adds count vertices on the calling rank, each with
// benchDegree edges to vertices of the graph and benchDegree from them, as
// a vertex of the graph has: what DeleteVertex deletes, edges included.
func (g *benchGraph) addVertices(c rma.Comm, count int) ([]gdi.VertexUID, error) {
	out := make([]gdi.VertexUID, 0, count)
	const batch = 64
	for len(out) < count {
		start, k := len(out), min(batch, count-len(out))
		err := retry(g.db, func(tx gdi.Transaction) error {
			out = out[:start] // a failed attempt's vertices are gone
			for range k {
				x, err := tx.CreateVertex(nil)
				if err != nil {
					return err
				}
				u, err := x.UID()
				if err != nil {
					return err
				}
				out = append(out, u)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	rng := rand.New(rand.NewPCG(uint64(c.Rank()), 11))
	const ebatch = 2
	for s := 0; s < len(out); s += ebatch {
		var others []gdi.VertexUID
		for range 2 * ebatch * benchDegree {
			others = append(others, g.uids[rng.IntN(len(g.uids))])
		}
		err := retry(g.db, func(tx gdi.Transaction) error {
			k := 0
			for _, u := range out[s:min(s+ebatch, len(out))] {
				x, err := tx.AssociateVertex(u)
				if err != nil {
					return err
				}
				for e := range 2 * benchDegree {
					y, err := tx.AssociateVertex(others[k])
					k++
					if err != nil {
						return err
					}
					from, to := x, y
					if e%2 == 1 {
						from, to = y, x
					}
					if _, err := tx.CreateEdge(gdi.Directed, from, to); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, c.Barrier()
}

// BenchmarkOLTP times single-process transactions, each one operation, on
// every rank at once, over a graph of benchVertices() vertices with 16
// edges each. The graph is built anew for every b.N round, so run it with
// a fixed count, for example:
//
//	go test -run '^$' -bench OLTP -benchtime 2000x ./gdirma/
func BenchmarkOLTP(b *testing.B) {
	type op func(g *benchGraph, tx gdi.Transaction, rng *rand.Rand, i int, extra []gdi.VertexUID) error
	n := benchVertices()
	ops := []struct {
		name string
		fn   op
	}{
		{"GetVertexProperties", func(g *benchGraph, tx gdi.Transaction, rng *rand.Rand, _ int, _ []gdi.VertexUID) error {
			u, ok, err := tx.TranslateVertexID(g.v, g.id("v", uint64(rng.IntN(n))))
			if err != nil || !ok {
				return fmt.Errorf("translate: %v %v", ok, err)
			}
			x, err := tx.AssociateVertex(u)
			if err != nil {
				return err
			}
			_, err = x.Properties(g.num)
			return err
		}},
		{"CountEdges", func(g *benchGraph, tx gdi.Transaction, rng *rand.Rand, _ int, _ []gdi.VertexUID) error {
			x, err := tx.AssociateVertex(g.uids[rng.IntN(n)])
			if err != nil {
				return err
			}
			_, err = x.Properties(gdi.PropertyTypeDegree)
			return err
		}},
		{"GetEdges", func(g *benchGraph, tx gdi.Transaction, rng *rand.Rand, _ int, _ []gdi.VertexUID) error {
			x, err := tx.AssociateVertex(g.uids[rng.IntN(n)])
			if err != nil {
				return err
			}
			_, err = x.Edges(gdi.EdgeAll, nil)
			return err
		}},
		{"AddVertex", func(g *benchGraph, tx gdi.Transaction, rng *rand.Rand, i int, _ []gdi.VertexUID) error {
			g.idBuf = strconv.AppendUint(append(strconv.AppendInt(append(g.idBuf[:0], "new"...), int64(i), 10), '-'), rng.Uint64(), 10)
			x, err := tx.CreateVertex(g.idBuf)
			if err != nil {
				return err
			}
			if err := x.AddLabel(g.v); err != nil {
				return err
			}
			return x.AddProperty(g.num, gdi.Int64s(int64(i)))
		}},
		{"DeleteVertex", func(g *benchGraph, tx gdi.Transaction, _ *rand.Rand, i int, extra []gdi.VertexUID) error {
			x, err := tx.AssociateVertex(extra[i])
			if err != nil {
				return err
			}
			return x.Free()
		}},
		{"UpdateVertexProperty", func(g *benchGraph, tx gdi.Transaction, rng *rand.Rand, i int, _ []gdi.VertexUID) error {
			x, err := tx.AssociateVertex(g.uids[rng.IntN(n)])
			if err != nil {
				return err
			}
			return x.UpdateProperty(g.num, gdi.Int64s(int64(i)))
		}},
		{"AddEdge", func(g *benchGraph, tx gdi.Transaction, rng *rand.Rand, _ int, _ []gdi.VertexUID) error {
			x, err := tx.AssociateVertex(g.uids[rng.IntN(n)])
			if err != nil {
				return err
			}
			y, err := tx.AssociateVertex(g.uids[rng.IntN(n)])
			if err != nil {
				return err
			}
			_, err = tx.CreateEdge(gdi.Directed, x, y)
			return err
		}},
	}
	for _, o := range ops {
		b.Run(o.name, func(b *testing.B) {
			for _, ranks := range []int{1, 2} {
				b.Run(fmt.Sprintf("ranks=%d", ranks), func(b *testing.B) {
					ranktest.Bench(b, ranks, func(c rma.Comm, N int) (func(i int) error, func() error, error) {
						ids := 0
						if o.name == "AddVertex" {
							ids = N
						}
						g, err := buildBenchGraph(c, n, ids)
						if err != nil {
							return nil, nil, err
						}
						var extra []gdi.VertexUID
						if o.name == "DeleteVertex" { // vertices to delete, one per op
							if extra, err = g.addVertices(c, N); err != nil {
								return nil, nil, err
							}
						}
						r := &benchRank{pcg: *rand.NewPCG(uint64(c.Rank()), 7)}
						rng := rand.New(&r.pcg)
						opFn := func(i int) error {
							return func() error {
								tx, err := g.db.StartTransaction()
								if err != nil {
									return err
								}
								if err := o.fn(g, tx, rng, i, extra); err != nil {
									tx.Abort()
									if gdi.ErrorClass(err) == gdi.ErrTransactionCritical {
										r.conflicts++
										return nil
									}
									return err
								}
								if err := tx.Commit(); err != nil {
									// A lock conflict is part of the figure; a
									// full hash table or pool is the
									// benchmark's own mistake.
									if gdi.ErrorClass(err) == gdi.ErrTransactionCommitFail && !errors.Is(err, gdi.ErrNoMemory) {
										r.conflicts++
										return nil
									}
									return err
								}
								return nil
							}()
						}
						cleanup := func() error {
							if c.Rank() == 0 && r.conflicts > 0 {
								b.ReportMetric(float64(r.conflicts)/float64(N), "aborts/op")
							}
							return g.db.Free()
						}
						return opFn, cleanup, nil
					})
				})
			}
		})
	}
}

// BenchmarkHotVertex has every rank read the properties of one vertex,
// the same for all, one transaction each: the case of a hub that many
// transactions read at once, where what readers do to the vertex's lock
// word decides whether they slow each other down.
func BenchmarkHotVertex(b *testing.B) {
	for _, ranks := range []int{1, 2} {
		b.Run(fmt.Sprintf("ranks=%d", ranks), func(b *testing.B) {
			ranktest.Bench(b, ranks, func(c rma.Comm, N int) (func(i int) error, func() error, error) {
				g, err := buildBenchGraph(c, 64, 0)
				if err != nil {
					return nil, nil, err
				}
				opFn := func(int) error {
					tx, err := g.db.StartTransaction()
					if err != nil {
						return err
					}
					x, err := tx.AssociateVertex(g.uids[0])
					if err == nil {
						_, err = x.Properties(g.num)
					}
					if err != nil {
						tx.Abort()
						return err
					}
					return tx.Commit()
				}
				return opFn, g.db.Free, nil
			})
		})
	}
}
