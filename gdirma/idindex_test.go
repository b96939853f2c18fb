package gdirma_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/internal/invariants"
	"github.com/gdi-go/gdi/rma"
	rmacount "github.com/gdi-go/gdi/rma/count"
	"github.com/gdi-go/gdi/rma/local"
)

// createUnlabelled commits n vertices without labels, with IDs
// prefix0, prefix1, ..., and n edges between them with label l and IDs
// prefix0-e, ...
func createUnlabelled(db gdi.Database, prefix string, n int, l gdi.Label) error {
	return gdirma.InTx(db, func(tx gdi.Transaction) error {
		var prev gdi.VertexHolder
		for i := range n {
			v, err := tx.CreateVertex(fmt.Appendf(nil, "%s%d", prefix, i))
			if err != nil {
				return err
			}
			if prev != nil {
				e, err := tx.CreateEdge(gdi.Directed, prev, v)
				if err == nil {
					err = e.AddProperty(gdi.PropertyTypeID, gdi.Bytes(fmt.Appendf(nil, "%s%d-e", prefix, i)))
				}
				if err == nil {
					err = e.AddLabel(l)
				}
				if err != nil {
					return err
				}
			}
			prev = v
		}
		return nil
	})
}

// TestIDLookupsWithoutScan: finding a vertex without labels by its ID
// (TranslateVertexID with LabelNone) and checking an edge's ID for
// uniqueness (AddLabel on an edge with an ID) cost as many one-sided
// calls on a graph ten times larger: they read the index, not every
// holder.
func TestIDLookupsWithoutScan(t *testing.T) {
	err := local.Run(2, func(c rma.Comm) error {
		cc := rmacount.Wrap(c)
		db, err := gdirma.Driver{}.CreateDatabase(cc, gdirma.Params{MemoryPerRank: 8 << 20})
		if err != nil {
			return err
		}
		defer db.Free()
		l, err := db.CreateLabel("link")
		if err != nil {
			return err
		}
		var costs []uint64
		for _, n := range []int{40, 400} {
			if err := createUnlabelled(db, fmt.Sprintf("r%d-%d-", c.Rank(), n), n, l); err != nil {
				return err
			}
			if err := c.Barrier(); err != nil {
				return err
			}
			before := cc.Counts()
			err := gdirma.InTx(db, func(tx gdi.Transaction) error {
				uid, ok, err := tx.TranslateVertexID(gdi.LabelNone, fmt.Appendf(nil, "r%d-%d-7", c.Rank(), n))
				if err != nil || !ok {
					return errors.Join(err, fmt.Errorf("vertex without labels not found (%v)", ok))
				}
				v, err := tx.AssociateVertex(uid)
				if err != nil {
					return err
				}
				w, err := tx.CreateVertex(nil)
				if err != nil {
					return err
				}
				e, err := tx.CreateEdge(gdi.Directed, v, w)
				if err == nil {
					err = e.AddProperty(gdi.PropertyTypeID, gdi.Bytes(fmt.Appendf(nil, "r%d-%d-3-e", c.Rank(), n)))
				}
				if err == nil {
					err = e.AddLabel(l)
				}
				if gdi.ErrorClass(err) != gdi.ErrNonUniqueID {
					return fmt.Errorf("an edge given another edge's label and ID: %v, want ErrNonUniqueID", err)
				}
				return nil
			})
			if err != nil {
				return err
			}
			costs = append(costs, cc.Counts().Sub(before).Calls())
		}
		if !invariants.Enabled && costs[1] > costs[0]+costs[0]/4 {
			return fmt.Errorf("the lookups cost %d one-sided calls on a graph of %d vertices a rank, %d on ten times more: they scan", costs[0], 40, costs[1])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestSharedIDsWithoutLabels: vertices without labels may share an ID.
// Goroutines of every rank create and delete such vertices, four IDs
// among them, at once; then the implicit index agrees with the holders,
// and TranslateVertexID with LabelNone finds one vertex of an ID while
// there is one, with WarnNonUniqueID while there are several, and none
// once all are deleted.
func TestSharedIDsWithoutLabels(t *testing.T) {
	const goroutines, rounds, ids = 3, 24, 4
	err := local.Run(2, func(c rma.Comm) error {
		db, err := gdirma.Driver{}.CreateDatabase(c, gdirma.Params{MemoryPerRank: 4 << 20})
		if err != nil {
			return err
		}
		defer db.Free()
		var mu sync.Mutex
		live := make([]int64, ids) // vertices of each ID this rank left
		var wg sync.WaitGroup
		errs := make([]error, goroutines)
		for g := range goroutines {
			wg.Go(func() {
				for i := range rounds {
					id := fmt.Appendf(nil, "shared-%d", i%ids)
					var uid gdi.VertexUID
					err := retryCommit(db, func(tx gdi.Transaction) error {
						v, err := tx.CreateVertex(id)
						if err == nil {
							uid, err = v.UID()
						}
						return err
					})
					if err == nil && (g+i)%2 == 0 {
						err = retryCommit(db, func(tx gdi.Transaction) error {
							v, err := tx.AssociateVertex(uid)
							if err == nil {
								err = v.Free()
							}
							return err
						})
					} else if err == nil {
						mu.Lock()
						live[i%ids]++
						mu.Unlock()
					}
					if err != nil {
						errs[g] = err
						return
					}
				}
			})
		}
		wg.Wait()
		if err := errors.Join(errors.Join(errs...), c.Barrier(), db.(*gdirma.Database).CheckImplicitIndex()); err != nil {
			return err
		}
		if err := c.AllreduceInt64(live, rma.OpSum); err != nil {
			return err
		}
		if c.Rank() == 0 {
			for i, n := range live {
				if err := drainID(db, fmt.Sprintf("shared-%d", i), n); err != nil {
					return err
				}
			}
		}
		return c.Barrier()
	})
	if err != nil {
		t.Fatal(err)
	}
}

// drainID deletes the n vertices without labels that have ID id one at a
// time, each found by TranslateVertexID, which must warn while there are
// several, and find none at the end.
func drainID(db gdi.Database, id string, n int64) error {
	for ; ; n-- {
		err := gdirma.InTx(db, func(tx gdi.Transaction) error {
			uid, found, err := tx.TranslateVertexID(gdi.LabelNone, []byte(id))
			switch {
			case found != (n > 0):
				return fmt.Errorf("%s with %d vertices left: found %v (%v)", id, n, found, err)
			case (gdi.ErrorClass(err) == gdi.WarnNonUniqueID) != (n > 1):
				return fmt.Errorf("%s with %d vertices left: %v", id, n, err)
			case !found:
				return nil
			}
			v, err := tx.AssociateVertex(uid)
			if err == nil {
				err = v.Free()
			}
			return err
		})
		if err != nil || n == 0 {
			return err
		}
	}
}

// retryCommit runs fn in a transaction and commits it, again while
// commits of other goroutines get in its way.
func retryCommit(db gdi.Database, fn func(gdi.Transaction) error) error {
	var err error
	for range 200 {
		var tx gdi.Transaction
		if tx, err = db.StartTransaction(); err != nil {
			return err
		}
		if err = fn(tx); err == nil {
			err = tx.Commit()
		} else {
			_ = tx.Abort()
		}
		if err == nil || !gdi.IsTransactionCritical(err) && gdi.ErrorClass(err) != gdi.ErrTransactionCommitFail {
			return err
		}
	}
	return err
}
