package gdirma_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/internal/ranktest"
	"github.com/gdi-go/gdi/rma"
)

// TestAutoCheckpoint bounds the log at 4 KiB and commits from 3
// goroutines per rank: the database checkpoints on its own while they
// commit, the log directory keeps a bounded number of generations, and a
// restore (from the fuzzy checkpoint and the log segments after it) has
// every acknowledged commit, whole.
func TestAutoCheckpoint(t *testing.T) {
	minPerG := ranktest.Iterations(30, 300)
	for _, mode := range []gdirma.LogMode{gdirma.LogSync, gdirma.LogAsync} {
		t.Run(string(mode), func(t *testing.T) {
			base := t.TempDir()
			lgs := make([]pairLedger, 2)
			ranktest.Run(t, 2, func(c rma.Comm) error {
				p := faultParams
				p.MemoryPerRank, p.DHTEntries, p.DHTBuckets = 4<<20, 1<<16, 1<<14
				p.LogCheckpointSize = 4 << 10
				db, dir, err := loggedDB(c, base, mode, p)
				if err != nil {
					return err
				}
				l, err := db.CreateLabel("Pair")
				if err != nil {
					return err
				}
				lg := &lgs[c.Rank()]
				errs := make([]error, 3)
				done := make(chan int)
				for g := range 3 {
					go func() {
						defer func() { done <- g }()
						// Until three checkpoints were taken while they ran.
						end := time.Now().Add(20 * time.Second)
						for i := 0; time.Now().Before(end); i++ {
							if gen, _ := gdirma.CurrentGeneration(dir); gen >= 4 && i >= minPerG {
								return
							}
							id := fmt.Sprintf("r%d-g%d-%d", c.Rank(), g, i)
							if err := commitPairRetry(db, l, id); err != nil {
								errs[g] = err
								return
							}
							lg.add(&lg.acked, id)
						}
					}()
				}
				for range 3 {
					<-done
				}
				if err := errors.Join(errs...); err != nil {
					db.Free()
					return err
				}
				// Free ends the rounds; then the directory is still.
				if err := db.Free(); err != nil {
					return err
				}
				rep, err := gdirma.InspectCheckpoint(dir)
				if err != nil {
					return err
				}
				gens, _ := filepath.Glob(filepath.Join(dir, "gen-*"))
				if c.Rank() == 0 {
					t.Logf("%s: checkpoint generation %d (fuzzy %v), %d generation directories", mode, rep.Generation, rep.Fuzzy, len(gens))
				}
				if !rep.Fuzzy || rep.Generation < 4 {
					return fmt.Errorf("no automatic checkpoint: generation %d, fuzzy %v", rep.Generation, rep.Fuzzy)
				}
				if len(gens) > 4 {
					return fmt.Errorf("%d generation directories kept: %v", len(gens), gens)
				}
				if err := errors.Join(c.Barrier(), boundedSegments(dir)); err != nil {
					return err
				}
				rdb, err := gdirma.Driver{}.CreateDatabase(c, gdirma.Params{Restore: dir, LogDir: dir})
				if err != nil {
					return fmt.Errorf("restore: %w", err)
				}
				defer rdb.Free()
				if err := lg.check(rdb); err != nil {
					return err
				}
				gdb := rdb.(*gdirma.Database)
				return errors.Join(gdb.CheckHolders(), gdb.CheckImplicitIndex())
			})
		})
	}
}

// boundedSegments fails if a log segment of dir is larger than a few
// times the bound of TestAutoCheckpoint (commits wait past 4 times it).
func boundedSegments(dir string) error {
	logs, _ := filepath.Glob(filepath.Join(dir, "gen-*", "rank-*.log"))
	for _, p := range logs {
		if fi, err := os.Stat(p); err == nil && fi.Size() > 64<<10 {
			return fmt.Errorf("log segment %s has %d bytes, the bound is 4 KiB", p, fi.Size())
		}
	}
	return nil
}

// commitPairRetry commits the pair id, trying again while commits of
// other goroutines get in its way.
func commitPairRetry(db gdi.Database, l gdi.Label, id string) error {
	var err error
	for range 200 {
		if err = commitPair(db, l, id); err == nil || !gdi.IsTransactionCritical(err) && gdi.ErrorClass(err) != gdi.ErrTransactionCommitFail {
			return err
		}
	}
	return err
}
