package gdirma_test

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
)

// TestStressStructure has goroutines on every rank create and delete
// vertices and edges among a shared set of vertices at once, through
// transactions that conflict often. Afterwards the graph must be
// consistent: every edge of a vertex names it as an end, both ends list
// the edge, and the degrees agree with the edges.
func TestStressStructure(t *testing.T) {
	ranks, workers, ops, n := 4, 3, 60, 24
	if testing.Short() {
		ranks, workers, ops = 2, 3, 30
	}
	for _, bs := range []int{64, 1024} {
		t.Run(fmt.Sprintf("bs=%d", bs), func(t *testing.T) {
			run(t, ranks, gdirma.Params{BlockSize: bs, MemoryPerRank: 1 << 20}, func(c rma.Comm, db gdi.Database) error {
				return stressStructure(c, db, workers, ops, n)
			})
		})
	}
}

func stressStructure(c rma.Comm, db gdi.Database, workers, ops, n int) error {
	l, err := db.CreateLabel("S")
	if err != nil {
		return err
	}
	if c.Rank() == 0 {
		err := retry(db, func(tx gdi.Transaction) error {
			for i := range n {
				x, err := tx.CreateVertex([]byte(fmt.Sprintf("s%d", i)))
				if err != nil {
					return err
				}
				if err := x.AddLabel(l); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	if err := c.Barrier(); err != nil {
		return err
	}
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(c.Rank()), uint64(w)))
			for i := range ops {
				a, b := rng.IntN(n), rng.IntN(n)
				op := rng.IntN(10)
				tx, err := db.StartTransaction()
				if err != nil {
					errs <- err
					return
				}
				err = func() error {
					find := func(i int) (gdi.VertexHolder, bool, error) {
						uid, ok, err := tx.TranslateVertexID(l, []byte(fmt.Sprintf("s%d", i)))
						if err != nil || !ok {
							return nil, false, err
						}
						x, err := tx.AssociateVertex(uid)
						return x, err == nil, err
					}
					x, okx, err := find(a)
					if err != nil {
						return err
					}
					switch {
					case !okx: // recreate a deleted vertex
						y, err := tx.CreateVertex([]byte(fmt.Sprintf("s%d", a)))
						if err != nil {
							return err
						}
						return y.AddLabel(l)
					case op < 6: // connect
						y, oky, err := find(b)
						if err != nil || !oky {
							return err
						}
						d := gdi.Directed
						if op%2 == 0 {
							d = gdi.Undirected
						}
						_, err = tx.CreateEdge(d, x, y)
						return err
					case op < 7: // move one edge to origin b
						es, err := x.Edges(gdi.EdgeOutgoing, nil)
						if err != nil || len(es) == 0 {
							return err
						}
						y, oky, err := find(b)
						if err != nil || !oky {
							return err
						}
						e, err := tx.AssociateEdge(es[i%len(es)])
						if err != nil {
							return err
						}
						return e.SetOrigin(y)
					case op < 8: // drop one edge
						es, err := x.Edges(gdi.EdgeAll, nil)
						if err != nil || len(es) == 0 {
							return err
						}
						e, err := tx.AssociateEdge(es[i%len(es)])
						if err != nil {
							return err
						}
						return e.Free()
					default: // delete the vertex with its edges
						return x.Free()
					}
				}()
				if err == nil {
					err = tx.Commit()
				} else {
					tx.Abort()
				}
				if err != nil {
					// A vertex recreated by another rank meanwhile makes
					// the recreation here fail with ErrNonUniqueID.
					c := gdi.ErrorClass(err)
					if c != gdi.ErrTransactionCritical && c != gdi.ErrTransactionCommitFail && c != gdi.ErrNonUniqueID {
						errs <- err
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		return err
	}
	if err := c.Barrier(); err != nil {
		return err
	}
	// Check from every rank.
	tx, err := db.StartTransaction()
	if err != nil {
		return err
	}
	defer tx.Abort()
	for i := range n {
		uid, ok, err := tx.TranslateVertexID(l, []byte(fmt.Sprintf("s%d", i)))
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		x, err := tx.AssociateVertex(uid)
		if err != nil {
			return err
		}
		es, err := x.Edges(gdi.EdgeAll, nil)
		if err != nil {
			return err
		}
		var deg uint64
		for _, eu := range es {
			e, err := tx.AssociateEdge(eu)
			if err != nil {
				return fmt.Errorf("vertex s%d lists edge %v: %v", i, eu, err)
			}
			o, tg, err := e.Vertices()
			if err != nil {
				return err
			}
			if o != uid && tg != uid {
				return fmt.Errorf("vertex s%d lists an edge between %v and %v", i, o, tg)
			}
			deg++
			if o == tg {
				deg++
			}
			for _, end := range []gdi.VertexUID{o, tg} {
				y, err := tx.AssociateVertex(end)
				if err != nil {
					return fmt.Errorf("edge %v of s%d has a dangling end %v: %v", eu, i, end, err)
				}
				yes, err := y.Edges(gdi.EdgeAll, nil)
				if err != nil {
					return err
				}
				found := false
				for _, f := range yes {
					found = found || f == eu
				}
				if !found {
					return fmt.Errorf("edge %v of s%d missing at its end %v", eu, i, end)
				}
			}
		}
		d, err := x.Properties(gdi.PropertyTypeDegree)
		if err != nil {
			return err
		}
		if got, _ := d[0].Uint64Slice(); got[0] != deg {
			return fmt.Errorf("s%d: degree %d, %d edge ends", i, got[0], deg)
		}
	}
	return nil
}
