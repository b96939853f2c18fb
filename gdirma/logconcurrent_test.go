package gdirma_test

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/internal/ranktest"
	"github.com/gdi-go/gdi/rma"
)

// TestRedoLogGoroutines commits from several goroutines per rank with the
// log on, frees the database without a checkpoint and restores it from
// the logs: every acknowledged commit must be there. It guards the rule
// that a rank's records reach its log in the order of their sequence
// numbers, whatever the number of goroutines committing.
func TestRedoLogGoroutines(t *testing.T) {
	const goroutines = 4
	perG := ranktest.Iterations(40, 400)
	for _, mode := range []gdirma.LogMode{gdirma.LogSync, gdirma.LogAsync} {
		t.Run(string(mode), func(t *testing.T) {
			base := t.TempDir()
			ranktest.Run(t, 2, func(c rma.Comm) error {
				dir, err := sharedDir(c, filepath.Join(base, "log"))
				if err != nil {
					return err
				}
				p := ckptParams
				p.MemoryPerRank = 1 << 21
				p.DHTEntries = 4096
				p.Log, p.LogDir = mode, dir
				db, err := gdirma.Driver{}.CreateDatabase(c, p)
				if err != nil {
					return err
				}
				l, err := db.CreateLabel("Person")
				if err != nil {
					return err
				}
				acked, err := commitConcurrently(db, l, c.Rank(), goroutines, perG)
				if err != nil {
					db.Free()
					return err
				}
				if err := db.Free(); err != nil {
					return err
				}
				rdb, err := gdirma.Driver{}.CreateDatabase(c, gdirma.Params{Restore: dir, LogDir: dir})
				if err != nil {
					return fmt.Errorf("restore: %w", err)
				}
				defer rdb.Free()
				return expectVertices(rdb, "Person", acked)
			})
		})
	}
}

// commitConcurrently commits perG vertices with label l from each of n
// goroutines and returns the IDs of those whose commit was acknowledged.
func commitConcurrently(db gdi.Database, l gdi.Label, rank, n, perG int) ([]string, error) {
	var mu sync.Mutex
	var acked []string
	var wg sync.WaitGroup
	errs := make([]error, n)
	for g := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perG {
				id := fmt.Sprintf("r%d-g%d-%d", rank, g, i)
				err := retry(db, func(tx gdi.Transaction) error {
					v, err := tx.CreateVertex([]byte(id))
					if err != nil {
						return err
					}
					return v.AddLabel(l)
				})
				if err != nil {
					errs[g] = fmt.Errorf("goroutine %d, vertex %s: %w", g, id, err)
					return
				}
				mu.Lock()
				acked = append(acked, id)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return acked, err
		}
	}
	return acked, nil
}

// expectVertices fails unless every ID in ids names a vertex with the
// label named label.
func expectVertices(db gdi.Database, label string, ids []string) error {
	l, err := db.LabelFromName(label)
	if err != nil || l == gdi.LabelNull {
		return fmt.Errorf("label %s lost (%v)", label, err)
	}
	missing := 0
	first := ""
	err = gdirma.InTx(db, func(tx gdi.Transaction) error {
		for _, id := range ids {
			_, ok, err := findVertex(tx, l, id)
			if err != nil {
				return err
			}
			if !ok {
				if missing == 0 {
					first = id
				}
				missing++
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if missing > 0 {
		return fmt.Errorf("%d of %d acknowledged commits lost (vertex %s among them)", missing, len(ids), first)
	}
	return nil
}
