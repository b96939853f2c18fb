package gdirma_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/internal/ranktest"
	"github.com/gdi-go/gdi/internal/vfs/vfstest"
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

// TestAutoCheckpointQueuedRecord: a commit made during an automatic
// checkpoint, after rank 1 copied its data window and before rank 0 did,
// whose record is still queued in rank 0's async log when the checkpoint
// becomes current, is whole after the power goes: the new vertex (rank
// 0) and its edge in the anchor vertex (rank 1). The round makes every
// rank's log durable before its manifest counts; without that, rank 0's
// copy held the new vertex, rank 1's lacked the edge, and the replay,
// which never saw the lost record, did not add it.
func TestAutoCheckpointQueuedRecord(t *testing.T) {
	f := vfstest.New(faultRoot)
	defer gdirma.SetFS(f)()
	defer gdirma.SetAsyncLogInterval(time.Hour)() // only the round flushes
	var once sync.Once
	rank1Copied, lateCommit := make(chan struct{}), make(chan func() error, 1)
	lateErr := make(chan error, 1)
	defer gdirma.SetAutoCopyHook(func(rank int, copied bool) {
		switch {
		case rank == 1 && copied:
			once.Do(func() { close(rank1Copied) })
		case rank == 0 && !copied:
			<-rank1Copied
			select {
			case commit := <-lateCommit:
				lateErr <- commit()
			default:
			}
		}
	})()
	var img *vfstest.FS
	faultRun(t, 2, func(c rma.Comm) error {
		p := faultParams
		p.Log, p.LogDir = gdirma.LogAsync, faultRoot+"/log"
		p.LogCheckpointSize = 1 << 30 // no round but the one asked for
		db, err := gdirma.Driver{}.CreateDatabase(c, p)
		if err != nil {
			return err
		}
		defer db.Free()
		l, err := db.CreateLabel("Pair")
		if err != nil {
			return err
		}
		if c.Rank() == 1 {
			err = errors.Join(gdirma.InTx(db, func(tx gdi.Transaction) error {
				v, err := tx.CreateVertex([]byte("anchor"))
				if err != nil {
					return err
				}
				return v.AddLabel(l)
			}), gdirma.FlushLog(db.(*gdirma.Database)))
		}
		if err := errors.Join(err, c.Barrier()); err != nil {
			return err
		}
		if c.Rank() == 0 {
			lateCommit <- func() error { return commitLate(db, l) }
			if img, err = roundThenPowerLoss(db.(*gdirma.Database), f, lateErr); err != nil {
				return err
			}
		}
		return c.Barrier()
	})
	defer gdirma.SetFS(img)()
	faultRun(t, 2, func(c rma.Comm) error {
		db, err := gdirma.Driver{}.CreateDatabase(c, gdirma.Params{Restore: faultRoot + "/log", LogDir: faultRoot + "/log"})
		if err != nil {
			return fmt.Errorf("restore: %w", err)
		}
		defer db.Free()
		l, err := db.LabelFromName("Pair")
		if err != nil {
			return err
		}
		return gdirma.InTx(db, func(tx gdi.Transaction) error {
			late, okLate, err := findVertex(tx, l, "late")
			if err != nil {
				return err
			}
			anchor, okAnchor, err := findVertex(tx, l, "anchor")
			if err != nil || !okAnchor || !okLate {
				return errors.Join(err, fmt.Errorf("restored: anchor %v, late %v; want both", okAnchor, okLate))
			}
			in, err := anchor.Edges(gdi.EdgeIncoming, nil)
			if err != nil {
				return err
			}
			out, err := late.Edges(gdi.EdgeOutgoing, nil)
			if err != nil || len(in) != 1 || len(out) != 1 {
				return errors.Join(err, fmt.Errorf("restored: the edge late→anchor is in %d of the anchor's and %d of late's edges, want 1 and 1: the commit is there in part", len(in), len(out)))
			}
			return nil
		})
	})
}

// commitLate commits the vertex late, on this rank, with an edge to the
// vertex anchor.
func commitLate(db gdi.Database, l gdi.Label) error {
	return gdirma.InTx(db, func(tx gdi.Transaction) error {
		anchor, ok, err := findVertex(tx, l, "anchor")
		if err != nil || !ok {
			return errors.Join(err, errors.New("no anchor"))
		}
		v, err := tx.CreateVertex([]byte("late"))
		if err == nil {
			err = v.AddLabel(l)
		}
		if err == nil {
			_, err = tx.CreateEdge(gdi.Directed, v, anchor)
		}
		return err
	})
}

// roundThenPowerLoss asks for an automatic checkpoint on rank 0, waits
// until the round has made its checkpoint current, having run the late
// commit (lateErr), and returns the file system a power loss at once
// would leave.
func roundThenPowerLoss(db *gdirma.Database, f *vfstest.FS, lateErr <-chan error) (*vfstest.FS, error) {
	gen, err := gdirma.CurrentGeneration(faultRoot + "/log")
	if err != nil {
		return nil, err
	}
	gdirma.WantAutoCheckpoint(db)
	if err := <-lateErr; err != nil {
		return nil, fmt.Errorf("the late commit: %w", err)
	}
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(time.Millisecond) {
		rerr, running := gdirma.AutoCheckpointErr(db)
		now, err := gdirma.CurrentGeneration(faultRoot + "/log")
		switch {
		case err != nil:
			return nil, err
		case running || now == gen:
			continue
		case rerr != nil:
			return nil, fmt.Errorf("the round: %w", rerr)
		}
		return f.Image(vfstest.DropAll, nil), nil
	}
	return nil, errors.New("no automatic checkpoint in 20 s")
}
