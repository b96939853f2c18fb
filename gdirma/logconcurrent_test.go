package gdirma_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
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
// numbers, whatever the number of goroutines committing, and that a
// replay in rounds applies them in that order.
func TestRedoLogGoroutines(t *testing.T) {
	const goroutines = 4
	// Many rounds of replay, whose records interleave between the ranks.
	defer gdirma.SetReplayRound(7)()
	perG := ranktest.Iterations(40, 400)
	for _, mode := range []gdirma.LogMode{gdirma.LogSync, gdirma.LogAsync} {
		t.Run(string(mode), func(t *testing.T) {
			base := t.TempDir()
			ranktest.Run(t, 2, func(c rma.Comm) error {
				p := ckptParams
				p.MemoryPerRank = 1 << 21
				p.DHTEntries = 4096
				db, dir, err := loggedDB(c, base, mode, p)
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
				rdb, err := freeAndRestore(c, db, dir)
				if err != nil {
					return err
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

// TestRedoLogReplayOrder has rank 0 set a property of one vertex ten
// times, then rank 1 twice, and restores with rounds of five records: the
// records of rank 1 come before rank 0's second round in its log order,
// but after it in the global one, so a replay that did not bound each
// round by the other ranks' would leave rank 0's last value.
func TestRedoLogReplayOrder(t *testing.T) {
	defer gdirma.SetReplayRound(5)()
	base := t.TempDir()
	ranktest.Run(t, 2, func(c rma.Comm) error {
		db, dir, err := loggedDB(c, base, gdirma.LogSync, ckptParams)
		if err != nil {
			return err
		}
		l, err1 := db.CreateLabel("L")
		pt, err2 := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "v", Entity: gdi.SingleEntity, Datatype: gdi.Int64, Size: gdi.FixedSize, Count: 1})
		if err := errors.Join(err1, err2); err != nil {
			return err
		}
		set := func(x int64) error {
			return retry(db, func(tx gdi.Transaction) error {
				v, ok, err := findVertex(tx, l, "hub")
				if err != nil || !ok {
					return fmt.Errorf("hub: %v %w", ok, err)
				}
				return v.SetProperty(pt, gdi.Int64s(x))
			})
		}
		if c.Rank() == 0 {
			err := retry(db, func(tx gdi.Transaction) error {
				v, err := tx.CreateVertex([]byte("hub"))
				if err != nil {
					return err
				}
				return errors.Join(v.AddLabel(l), v.AddProperty(pt, gdi.Int64s(0)))
			})
			for x := int64(1); x <= 10 && err == nil; x++ {
				err = set(x)
			}
			if err != nil {
				return err
			}
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		if c.Rank() == 1 {
			if err := errors.Join(set(101), set(102)); err != nil {
				return err
			}
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		rdb, err := freeAndRestore(c, db, dir)
		if err != nil {
			return err
		}
		defer rdb.Free()
		rl, _ := rdb.LabelFromName("L")
		rp, _ := rdb.PropertyTypeFromName("v")
		return gdirma.InTx(rdb, func(tx gdi.Transaction) error {
			v, ok, err := findVertex(tx, rl, "hub")
			if err != nil || !ok {
				return fmt.Errorf("hub after the restore: %v %w", ok, err)
			}
			vs, err := v.Properties(rp)
			if err != nil || len(vs) != 1 {
				return fmt.Errorf("hub's property: %v %w", vs, err)
			}
			if x, _ := vs[0].Int64Slice(); len(x) != 1 || x[0] != 102 {
				return fmt.Errorf("hub's property is %v after the restore, want 102", x)
			}
			return nil
		})
	})
}

// loggedDB creates a database with params p and the redo log in mode, in
// the directory base/log of rank 0, which it returns too.
func loggedDB(c rma.Comm, base string, mode gdirma.LogMode, p gdirma.Params) (gdi.Database, string, error) {
	dir, err := sharedDir(c, filepath.Join(base, "log"))
	if err != nil {
		return nil, "", err
	}
	p.Log, p.LogDir = mode, dir
	db, err := gdirma.Driver{}.CreateDatabase(c, p)
	return db, dir, err
}

// freeAndRestore frees db and creates it again from the checkpoint and
// the logs in dir.
func freeAndRestore(c rma.Comm, db gdi.Database, dir string) (gdi.Database, error) {
	if err := db.Free(); err != nil {
		return nil, err
	}
	rdb, err := gdirma.Driver{}.CreateDatabase(c, gdirma.Params{Restore: dir, LogDir: dir})
	if err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	return rdb, nil
}

// TestRestoreWithoutLogDir restores a checkpoint whose logs hold commits
// without Params.LogDir: the restore fails with ErrArgument naming the
// log, rather than silently dropping the commits; with LogDir it has them.
func TestRestoreWithoutLogDir(t *testing.T) {
	base := t.TempDir()
	ranktest.Run(t, 2, func(c rma.Comm) error {
		db, dir, err := loggedDB(c, base, gdirma.LogSync, ckptParams)
		if err != nil {
			return err
		}
		l, err := db.CreateLabel("Person")
		if err != nil {
			return err
		}
		acked, err := commitConcurrently(db, l, c.Rank(), 1, 3)
		if err != nil {
			db.Free()
			return err
		}
		if err := db.Free(); err != nil {
			return err
		}
		_, err = gdirma.Driver{}.CreateDatabase(c, gdirma.Params{Restore: dir})
		if gdi.ErrorClass(err) != gdi.ErrArgument || !strings.Contains(fmt.Sprint(err), ".log") {
			return fmt.Errorf("restore without LogDir of a checkpoint with logged commits: %v, want ErrArgument naming the log", err)
		}
		rdb, err := gdirma.Driver{}.CreateDatabase(c, gdirma.Params{Restore: dir, LogDir: dir})
		if err != nil {
			return fmt.Errorf("restore with LogDir: %w", err)
		}
		defer rdb.Free()
		return expectVertices(rdb, "Person", acked)
	})
}
