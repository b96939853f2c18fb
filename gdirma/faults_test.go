package gdirma_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/internal/ranktest"
	"github.com/gdi-go/gdi/internal/vfs/vfstest"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
	"github.com/gdi-go/gdi/rma/mpi"
)

// Tests of durability against faults of the file system, on vfstest's
// file system in memory: a full disk, and a power loss at every moment of
// a scripted run. The unit of work is a pair: one commit creates the
// vertices <id>-a and <id>-b with the label Pair and an edge a→b, so a
// commit that is partly there shows as a lone vertex or a missing edge.

const faultRoot = "/gdi"

// faultRun runs fn on n local ranks, which share the file system in
// memory; under mpirun, where processes cannot share it, t is skipped.
func faultRun(t *testing.T, n int, fn func(c rma.Comm) error) {
	t.Helper()
	if mpi.InMPIRun() {
		t.Skip("a file system in memory is not shared by MPI processes")
	}
	if err := local.Run(n, fn); err != nil {
		t.Fatal(err)
	}
}

var faultParams = gdirma.Params{BlockSize: 128, MemoryPerRank: 1 << 18, DHTBuckets: 256, DHTEntries: 2048, IndexMemoryPerRank: 1 << 18}

// commitPair commits the pair id, once.
func commitPair(db gdi.Database, l gdi.Label, id string) error {
	tx, err := db.StartTransaction()
	if err != nil {
		return err
	}
	a, err := tx.CreateVertex([]byte(id + "-a"))
	if err == nil {
		err = a.AddLabel(l)
	}
	var b gdi.VertexHolder
	if err == nil {
		b, err = tx.CreateVertex([]byte(id + "-b"))
	}
	if err == nil {
		err = b.AddLabel(l)
	}
	if err == nil {
		_, err = tx.CreateEdge(gdi.Directed, a, b)
	}
	if err != nil {
		tx.Abort()
		return err
	}
	return tx.Commit()
}

// pairState reports how much of pair id is in the database: "none",
// "whole", or what it found of it.
func pairState(tx gdi.Transaction, l gdi.Label, id string) (string, error) {
	a, okA, err := findVertex(tx, l, id+"-a")
	if err != nil {
		return "", err
	}
	_, okB, err := findVertex(tx, l, id+"-b")
	if err != nil {
		return "", err
	}
	switch {
	case !okA && !okB:
		return "none", nil
	case !okA || !okB:
		return fmt.Sprintf("a %v, b %v", okA, okB), nil
	}
	es, err := a.Edges(gdi.EdgeOutgoing, nil)
	if err != nil {
		return "", err
	}
	if len(es) != 1 {
		return fmt.Sprintf("%d edges from a", len(es)), nil
	}
	return "whole", nil
}

// pairLedger is what the goroutines of a rank did: pairs acknowledged,
// pairs whose commit failed, and pairs in flight when the process died.
type pairLedger struct {
	mu                      sync.Mutex
	acked, failed, inflight []string
}

func (lg *pairLedger) add(to *[]string, id string) {
	lg.mu.Lock()
	*to = append(*to, id)
	lg.mu.Unlock()
}

// check fails unless every acknowledged pair is whole and every failed
// one absent; pairs in flight may be either, but not in part.
func (lg *pairLedger) check(db gdi.Database) error {
	l, err := db.LabelFromName("Pair")
	if err != nil {
		return err
	}
	if l == gdi.LabelNull {
		if len(lg.acked) > 0 {
			return fmt.Errorf("label Pair lost, with %d pairs acknowledged", len(lg.acked))
		}
		return nil // the crash came before the label
	}
	return gdirma.InTx(db, func(tx gdi.Transaction) error {
		for _, set := range []struct {
			ids  []string
			want []string
		}{
			{lg.acked, []string{"whole"}},
			{lg.failed, []string{"none"}},
			{lg.inflight, []string{"whole", "none"}},
		} {
			for _, id := range set.ids {
				got, err := pairState(tx, l, id)
				if err != nil {
					return err
				}
				if !slices.Contains(set.want, got) {
					return fmt.Errorf("pair %s: %s, want %v", id, got, set.want)
				}
			}
		}
		return nil
	})
}

// restoreAndCheck restores the database of the log directory on img and
// checks lg and then more, if not nil, against it.
func restoreAndCheck(c rma.Comm, img *vfstest.FS, lg *pairLedger, more func(gdi.Database) error) error {
	var restore func()
	if c.Rank() == 0 {
		restore = gdirma.SetFS(img)
	}
	if err := c.Barrier(); err != nil {
		return err
	}
	defer func() {
		_ = c.Barrier()
		if restore != nil {
			restore()
		}
	}()
	db, err := gdirma.Driver{}.CreateDatabase(c, gdirma.Params{Restore: faultRoot + "/log", LogDir: faultRoot + "/log"})
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	defer db.Free()
	if err := lg.check(db); err != nil {
		return fmt.Errorf("restored: %w", err)
	}
	if more != nil {
		if err := more(db); err != nil {
			return fmt.Errorf("restored: %w", err)
		}
	}
	gdb := db.(*gdirma.Database)
	return errors.Join(gdb.CheckHolders(), gdb.CheckImplicitIndex())
}

// TestRedoLogFullDisk runs out of disk space under commits from several
// goroutines per rank, then makes room: a commit the log could not take
// fails and leaves nothing, in memory or after a restore; acknowledged
// commits all survive; and once there is room again, commits succeed.
func TestRedoLogFullDisk(t *testing.T) {
	const goroutines = 4
	perG := ranktest.Iterations(30, 150)
	for _, mode := range []gdirma.LogMode{gdirma.LogSync, gdirma.LogAsync} {
		t.Run(string(mode), func(t *testing.T) {
			f := vfstest.New(faultRoot)
			defer gdirma.SetFS(f)()
			lgs := make([]pairLedger, 2)
			faultRun(t, 2, func(c rma.Comm) error {
				p := faultParams
				p.Log, p.LogDir = mode, faultRoot+"/log"
				db, err := gdirma.Driver{}.CreateDatabase(c, p)
				if err != nil {
					return err
				}
				if _, err := makeSchema(db); err != nil { // for dumpCkpt
					return err
				}
				l, err := db.CreateLabel("Pair")
				if err != nil {
					return err
				}
				lg := &lgs[c.Rank()]
				var wg sync.WaitGroup
				for g := range goroutines {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for i := range perG {
							id := fmt.Sprintf("r%d-g%d-%d", c.Rank(), g, i)
							if err := commitPair(db, l, id); err != nil {
								lg.add(&lg.failed, id)
							} else {
								lg.add(&lg.acked, id)
							}
						}
					}()
				}
				if c.Rank() == 0 {
					// The disk fills up part way through a record, then
					// gets room again.
					time.Sleep(5 * time.Millisecond)
					f.SetSpace(int64(rand.IntN(200)))
					time.Sleep(30 * time.Millisecond)
					f.SetSpace(-1)
				}
				wg.Wait()
				if err := c.Barrier(); err != nil {
					return err
				}
				if err := oneFailedCommit(c, db, l, f, lg); err != nil {
					return err
				}
				// Room again: the next commit succeeds.
				id := fmt.Sprintf("r%d-after", c.Rank())
				if err := commitPair(db, l, id); err != nil {
					return fmt.Errorf("commit once the disk has room: %w", err)
				}
				lg.add(&lg.acked, id)
				if err := lg.check(db); err != nil {
					return fmt.Errorf("live: %w", err)
				}
				if err := db.Free(); err != nil {
					return err
				}
				return restoreAndCheck(c, f.Image(vfstest.DropAll, nil), lg, nil)
			})
			for r := range lgs {
				t.Logf("rank %d: %d acknowledged, %d failed", r, len(lgs[r].acked), len(lgs[r].failed))
			}
		})
	}
}

// oneFailedCommit fills the disk and commits a pair on every rank in
// turn, which must fail with ErrTransactionCommitFail and change nothing:
// not the graph, not the free blocks. In async mode the first commit on
// the full disk is acknowledged (into lg), its flush fails, and the next
// commit is the one that fails. It leaves the disk with room.
func oneFailedCommit(c rma.Comm, db gdi.Database, l gdi.Label, f *vfstest.FS, lg *pairLedger) error {
	gdb := db.(*gdirma.Database)
	for r := range c.Size() {
		if err := c.Barrier(); err != nil {
			return err
		}
		if c.Rank() != r {
			continue
		}
		if err := gdirma.FlushLog(gdb); err != nil {
			return err
		}
		f.SetSpace(0)
		if async := gdirma.LogModeOf(gdb) == gdirma.LogAsync; async {
			id := fmt.Sprintf("r%d-queued", r)
			if err := commitPair(db, l, id); err != nil {
				return fmt.Errorf("async commit on a full disk: %w", err)
			}
			lg.add(&lg.acked, id)
			if err := gdirma.FlushLog(gdb); gdi.ErrorClass(err) != gdi.ErrNoSpace {
				return fmt.Errorf("flush on a full disk: %v, want ErrNoSpace", err)
			}
		}
		before, err := dumpCkpt(db)
		if err != nil {
			return err
		}
		free, err := gdirma.FreeBlocks(gdb)
		if err != nil {
			return err
		}
		err = commitPair(db, l, fmt.Sprintf("r%d-full", r))
		if gdi.ErrorClass(err) != gdi.ErrTransactionCommitFail {
			return fmt.Errorf("commit on a full disk: %v, want ErrTransactionCommitFail", err)
		}
		lg.add(&lg.failed, fmt.Sprintf("r%d-full", r))
		after, err := dumpCkpt(db)
		if err != nil {
			return err
		}
		if after != before {
			return fmt.Errorf("a commit the log refused changed the graph:\n%s", diffLines(before, after))
		}
		if n, err := gdirma.FreeBlocks(gdb); err != nil || n != free {
			return fmt.Errorf("a commit the log refused: %d free blocks, %d before (%v)", n, free, err)
		}
		if err := gdb.CheckHolders(); err != nil {
			return err
		}
		f.SetSpace(-1)
		if err := gdirma.FlushLog(gdb); err != nil {
			return fmt.Errorf("flush once the disk has room: %w", err)
		}
	}
	return c.Barrier()
}

// crashScript is the scripted run of TestPowerLoss on one rank: a
// database with the log on in faultRoot/log, bounded so that it also
// checkpoints on its own, the checkpoint schema (whose FreeLabel
// checkpoints), then goroutines committing pairs, a checkpoint, more
// pairs, and Free. It stops at the first error of a
// collective call: after the crash point every call fails. lgs[g] is
// goroutine g's ledger, its acknowledged pairs in order; created reports
// whether CreateDatabase returned.
func crashScript(c rma.Comm, f *vfstest.FS, mode gdirma.LogMode, goroutines, perPhase int, lgs []pairLedger) (created bool, err error) {
	p := faultParams
	p.Log, p.LogDir = mode, faultRoot+"/log"
	p.LogCheckpointSize = 2 << 10 // automatic checkpoints too
	db, err := gdirma.Driver{}.CreateDatabase(c, p)
	if err != nil {
		return false, err
	}
	defer db.Free()
	if _, err := makeSchema(db); err != nil {
		return true, err
	}
	l, err := db.CreateLabel("Pair")
	if err != nil {
		return true, err
	}
	for phase := range 2 {
		var wg sync.WaitGroup
		for g := range goroutines {
			wg.Add(1)
			go func() {
				defer wg.Done()
				lg := &lgs[g]
				for i := range perPhase {
					id := fmt.Sprintf("r%d-g%d-%d-%d", c.Rank(), g, phase, i)
					err := commitPair(db, l, id)
					switch {
					case err == nil:
						lg.add(&lg.acked, id)
					case f.Crashed():
						lg.add(&lg.inflight, id)
					default:
						lg.add(&lg.failed, id)
					}
				}
			}()
		}
		wg.Wait()
		if phase == 0 {
			if err := db.(*gdirma.Database).Checkpoint(faultRoot + "/log"); err != nil {
				return true, err
			}
		}
	}
	return true, db.Free()
}

// TestPowerLoss runs crashScript on 2 ranks with 2 goroutines each, and
// cuts the power after each of its file operations in turn (every fifth
// in -short): the file system a reboot finds keeps what was durable and
// drops, keeps, or keeps a torn part of the rest. A restore of each must
// succeed once CreateDatabase has returned, with every acknowledged pair
// whole (in sync mode; in async mode a prefix of each goroutine's), none
// in part, and none that failed before the crash.
func TestPowerLoss(t *testing.T) {
	const goroutines, perPhase = 2, 6
	stride := 1
	if testing.Short() {
		stride = 5
	}
	for _, mode := range []gdirma.LogMode{gdirma.LogSync, gdirma.LogAsync} {
		t.Run(string(mode), func(t *testing.T) {
			// A run without a crash counts the operations.
			f := vfstest.New(faultRoot)
			restore := gdirma.SetFS(f)
			faultRun(t, 2, func(c rma.Comm) error {
				_, err := crashScript(c, f, mode, goroutines, perPhase, make([]pairLedger, goroutines))
				return err
			})
			restore()
			ops := f.Ops()
			t.Logf("%d file operations", ops)
			rng := rand.New(rand.NewPCG(uint64(ops), 7))
			for at := 1; at <= ops; at += stride {
				powerLossAt(t, mode, at, goroutines, perPhase, rng)
			}
		})
	}
}

// powerLossAt runs crashScript with the crash after operation at, then
// restores from the three kinds of image and checks each.
func powerLossAt(t *testing.T, mode gdirma.LogMode, at, goroutines, perPhase int, rng *rand.Rand) {
	t.Helper()
	f := vfstest.New(faultRoot)
	f.CrashAfter(at)
	defer gdirma.SetFS(f)()
	lgs := make([][]pairLedger, 2)
	created := make([]bool, 2)
	faultRun(t, 2, func(c rma.Comm) error {
		lgs[c.Rank()] = make([]pairLedger, goroutines)
		created[c.Rank()], _ = crashScript(c, f, mode, goroutines, perPhase, lgs[c.Rank()])
		return nil
	})
	images := []struct {
		name string
		img  *vfstest.FS
	}{
		{"drop", f.Image(vfstest.DropAll, nil)},
		{"keep", f.Image(vfstest.KeepAll, nil)},
		{"torn", f.Image(vfstest.Torn, rng)},
	}
	for _, im := range images {
		err := local.Run(2, func(c rma.Comm) error {
			return restoreAndCheckAll(c, im.img, lgs[c.Rank()], mode)
		})
		if err != nil && !(created[0] == false && gdi.ErrorClass(err) == gdi.ErrNoSuchFile) {
			t.Fatalf("power loss after operation %d, image %s: %v", at, im.name, err)
		}
	}
}

// restoreAndCheckAll restores the database of the log directory on img
// and checks the ledgers of the rank's goroutines: in sync mode each
// wholly; in async mode the pairs found of each goroutine must be a
// prefix of those it had acknowledged.
func restoreAndCheckAll(c rma.Comm, img *vfstest.FS, lgs []pairLedger, mode gdirma.LogMode) error {
	var all pairLedger
	for i := range lgs {
		lg := &lgs[i]
		all.failed = append(all.failed, lg.failed...)
		all.inflight = append(all.inflight, lg.inflight...)
		if mode == gdirma.LogSync {
			all.acked = append(all.acked, lg.acked...)
		} else {
			all.inflight = append(all.inflight, lg.acked...)
		}
	}
	return restoreAndCheck(c, img, &all, func(db gdi.Database) error {
		if mode == gdirma.LogAsync {
			for i := range lgs {
				if err := checkPrefix(db, lgs[i].acked); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// checkPrefix fails unless the pairs of ids found whole are a prefix of
// ids.
func checkPrefix(db gdi.Database, ids []string) error {
	l, err := db.LabelFromName("Pair")
	if err != nil || l == gdi.LabelNull {
		return err // no label: no pair either, which is a prefix
	}
	return gdirma.InTx(db, func(tx gdi.Transaction) error {
		gap := ""
		for _, id := range ids {
			got, err := pairState(tx, l, id)
			if err != nil {
				return err
			}
			switch {
			case got != "whole":
				gap = id
			case gap != "":
				return fmt.Errorf("pair %s is there, but %s, acknowledged before it by the same goroutine, is lost", id, gap)
			}
		}
		return nil
	})
}

// TestRedoLogAsyncLag stalls the disk under an async log: commits are
// acknowledged at once only while the oldest record not yet written is
// younger than AsyncMaxLag; past that a commit waits for the disk, which
// bounds what a crash can lose. All of them survive a restore.
func TestRedoLogAsyncLag(t *testing.T) {
	f := vfstest.New(faultRoot)
	defer gdirma.SetFS(f)()
	var lg pairLedger
	faultRun(t, 1, func(c rma.Comm) error {
		p := faultParams
		p.Log, p.LogDir = gdirma.LogAsync, faultRoot+"/log"
		db, err := gdirma.Driver{}.CreateDatabase(c, p)
		if err != nil {
			return err
		}
		l, err := db.CreateLabel("Pair")
		if err != nil {
			return err
		}
		release := f.HoldWrites()
		for _, id := range []string{"a", "b"} {
			if err := commitPair(db, l, id); err != nil {
				release()
				return fmt.Errorf("commit %s with the disk stalled, before the lag: %w", id, err)
			}
			lg.add(&lg.acked, id)
		}
		time.Sleep(gdirma.AsyncMaxLag + 20*time.Millisecond)
		done := make(chan error, 1)
		go func() { done <- commitPair(db, l, "late") }()
		select {
		case err := <-done:
			release()
			return fmt.Errorf("a commit past the lag, with the disk stalled, returned (%v) before the disk did", err)
		case <-time.After(50 * time.Millisecond):
		}
		release()
		if err := <-done; err != nil {
			return fmt.Errorf("the commit past the lag, once the disk went on: %w", err)
		}
		lg.add(&lg.acked, "late")
		if err := db.Free(); err != nil {
			return err
		}
		return restoreAndCheck(c, f.Image(vfstest.DropAll, nil), &lg, nil)
	})
}
