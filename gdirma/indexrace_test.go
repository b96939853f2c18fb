package gdirma_test

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/internal/ranktest"
	"github.com/gdi-go/gdi/rma"
)

// TestIndexChangeStress has committer goroutines on every rank create
// vertices with label L while the main goroutines collectively take L off
// an index and put it back, over and over, so that the index's tree is
// rebuilt while commits change its entries (issue 29). A commit must reach
// the index whether it runs before, during or after a rebuild: at the end,
// with L in the index, every committed vertex is found through the index
// exactly once, and the trees hold exactly two entries per vertex (one for
// the index, one for L), so none is lost, duplicated or left behind.
func TestIndexChangeStress(t *testing.T) {
	toggles, workers, commits := 60, 3, 1000
	if testing.Short() {
		toggles, workers, commits = 20, 2, 600
	}
	for _, ranks := range ranktest.Ranks {
		t.Run(fmt.Sprintf("ranks=%d", ranks), func(t *testing.T) {
			p := gdirma.Params{MemoryPerRank: 4 << 20}
			run(t, ranks, p, func(c rma.Comm, db gdi.Database) error {
				return indexChangeStress(t, c, db, workers, commits, toggles)
			})
		})
	}
}

// indexChangeStress runs workers committers of up to commits vertices each
// on every rank while the ranks toggle L at least toggles times, and on
// until every committer is done or 3*toggles are made.
func indexChangeStress(t *testing.T, c rma.Comm, db gdi.Database, workers, commits, toggles int) error {
	l, err := db.CreateLabel("L")
	if err != nil {
		return err
	}
	idx, err := db.CreateIndex(gdi.HashTableIndex, 0)
	if err != nil {
		return err
	}
	if err := idx.AddLabel(l); err != nil {
		return err
	}
	var stop atomic.Bool
	var running atomic.Int64
	running.Store(int64(workers))
	committed := make([][]string, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer running.Add(-1)
			committed[w], errs[w] = commitLabelled(db, l, fmt.Sprintf("r%d-w%d-", c.Rank(), w), commits, &stop)
		}()
	}
	// Toggle on, whatever fails, the same number of times on every rank,
	// so that the collectives match; the first error is reported below.
	var toggleErr error
	made := 0
	for ; ; made++ {
		busy := []int64{running.Load()}
		if err := c.AllreduceInt64(busy, rma.OpSum); err != nil {
			return err
		}
		if made >= toggles && busy[0] == 0 || made >= 3*toggles {
			break
		}
		for _, f := range []func(gdi.Label) error{idx.RemoveLabel, idx.AddLabel} {
			if err := f(l); err != nil && toggleErr == nil {
				toggleErr = err
			}
		}
	}
	stop.Store(true)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if err := c.Barrier(); err != nil {
		return err
	}
	mine := slices.Concat(committed...)
	total, err := sumOverRanks(c, len(mine))
	if err != nil {
		return err
	}
	found, err := indexIDs(db, idx)
	if err != nil {
		return err
	}
	entries, err := gdirma.IndexEntries(db.(*gdirma.Database), idx)
	if err != nil {
		return fmt.Errorf("%d committed in all: %w (toggles: %v)", total, err, toggleErr)
	}
	missing := 0
	for _, id := range mine {
		if _, ok := slices.BinarySearch(found, id); !ok {
			missing++
		}
	}
	dups := len(found) - len(slices.Compact(slices.Clone(found)))
	if c.Rank() == 0 {
		t.Logf("%d ranks: %d toggles, %d committed in all, %d found through the index, %d entries",
			c.Size(), made, total, len(found), entries)
	}
	if missing > 0 || dups > 0 || len(found) != total || entries != 2*total || toggleErr != nil {
		return fmt.Errorf("%d committed in all, %d found through the index (%d of this rank's %d missing, %d twice), %d entries (want %d); first error of a toggle: %v",
			total, len(found), missing, len(mine), dups, entries, 2*total, toggleErr)
	}
	return nil
}

// commitLabelled commits vertices with label l and IDs prefix<i>, one per
// transaction, until it has tried n or stop is set, and returns the IDs
// committed. Commits that fail (conflicts, busy locks) are not counted;
// other errors end it.
var pace = 500 * time.Microsecond

func commitLabelled(db gdi.Database, l gdi.Label, prefix string, n int, stop *atomic.Bool) ([]string, error) {
	var done []string
	for i := 0; i < n && !stop.Load(); i++ {
		id := prefix + strconv.Itoa(i)
		err := gdirma.InTx(db, func(tx gdi.Transaction) error {
			v, err := tx.CreateVertex([]byte(id))
			if err != nil {
				return err
			}
			return v.AddLabel(l)
		})
		switch {
		case err == nil:
			done = append(done, id)
			time.Sleep(pace)
		case gdi.ErrorClass(err) == gdi.ErrTransactionCommitFail, gdi.IsTransactionCritical(err):
		default:
			return done, fmt.Errorf("commit of %s: %w", id, err)
		}
	}
	return done, nil
}

// sumOverRanks returns the sum of every rank's n.
func sumOverRanks(c rma.Comm, n int) (int, error) {
	all, err := c.Allgatherv([]byte(strconv.Itoa(n)))
	if err != nil {
		return 0, err
	}
	total := 0
	for _, b := range all {
		k, err := strconv.Atoi(string(b))
		if err != nil {
			return 0, err
		}
		total += k
	}
	return total, nil
}

// indexIDs returns the IDs of the vertices that a query of idx without a
// constraint finds, sorted, with repeats.
func indexIDs(db gdi.Database, idx gdi.Index) ([]string, error) {
	tx, err := db.StartTransaction()
	if err != nil {
		return nil, err
	}
	defer tx.Abort()
	us, err := tx.VerticesOfIndex(idx, nil)
	if err != nil {
		return nil, err
	}
	return ids(tx, us)
}

// TestIndexChangeOutOfMemory adds a label to an index whose new entries
// do not fit the index memory of rank 0 (issue 29): every rank must fail
// with ErrNoMemory, and the call must change nothing: the index keeps its
// labels and entries, answers queries as before, and commits go on
// updating it.
func TestIndexChangeOutOfMemory(t *testing.T) {
	for _, ranks := range ranktest.Ranks {
		t.Run(fmt.Sprintf("ranks=%d", ranks), func(t *testing.T) {
			// 8 nodes of 25 entries per rank.
			p := gdirma.Params{MemoryPerRank: 1 << 20, IndexMemoryPerRank: 8 << 10}
			run(t, ranks, p, indexChangeOutOfMemory)
		})
	}
}

func indexChangeOutOfMemory(c rma.Comm, db gdi.Database) error {
	a, err := db.CreateLabel("A")
	if err != nil {
		return err
	}
	b, err := db.CreateLabel("B")
	if err != nil {
		return err
	}
	// Every rank has 10 vertices with A; rank 0 also 300 with B, whose
	// 600 entries cannot fit in 8 nodes.
	if err := createLabelled(db, a, fmt.Sprintf("a%d-", c.Rank()), 0, 10); err != nil {
		return err
	}
	if c.Rank() == 0 {
		for i := 0; i < 300; i += 50 {
			if err := createLabelled(db, b, "b-", i, i+50); err != nil {
				return err
			}
		}
	}
	if err := c.Barrier(); err != nil {
		return err
	}
	idx, err := db.CreateIndex(gdi.HashTableIndex, 0)
	if err != nil {
		return err
	}
	if err := idx.AddLabel(a); err != nil {
		return err
	}
	check := func(when string, perRank int) error {
		if ls, err := idx.Labels(); err != nil || !slices.Equal(ls, []gdi.Label{a}) {
			return fmt.Errorf("%s: L = %v, %v; want {A}", when, ls, err)
		}
		found, err := indexIDs(db, idx)
		if err != nil {
			return fmt.Errorf("%s: query: %w", when, err)
		}
		if len(found) != perRank*c.Size() || slices.ContainsFunc(found, func(id string) bool { return !strings.HasPrefix(id, "a") }) {
			return fmt.Errorf("%s: the index finds %d vertices %v, want the %d with A", when, len(found), found, perRank*c.Size())
		}
		n, err := gdirma.IndexEntries(db.(*gdirma.Database), idx)
		if err != nil || n != 2*perRank*c.Size() {
			return fmt.Errorf("%s: %d entries, %v; want %d", when, n, err, 2*perRank*c.Size())
		}
		return nil
	}
	if err := check("before", 10); err != nil {
		return err
	}
	addErr := idx.AddLabel(b)
	classes, err := c.Allgatherv([]byte(gdi.ErrorClass(addErr).String()))
	if err != nil {
		return err
	}
	for r, cl := range classes {
		if string(cl) != gdi.ErrNoMemory.String() {
			return fmt.Errorf("AddLabel(B) past the index memory: rank %d got %s, want %v on every rank (this rank: %v)", r, cl, gdi.ErrNoMemory, addErr)
		}
	}
	if err := check("after the failed AddLabel", 10); err != nil {
		return err
	}
	// Commits still reach the index.
	if err := c.Barrier(); err != nil {
		return err
	}
	if err := createLabelled(db, a, fmt.Sprintf("a%d-", c.Rank()), 10, 11); err != nil {
		return err
	}
	if err := c.Barrier(); err != nil {
		return err
	}
	return check("after a commit", 11)
}

// createLabelled commits, in one transaction, the vertices prefix<i> for
// i in [from, to), with label l.
func createLabelled(db gdi.Database, l gdi.Label, prefix string, from, to int) error {
	return gdirma.InTx(db, func(tx gdi.Transaction) error {
		for i := from; i < to; i++ {
			v, err := tx.CreateVertex([]byte(prefix + strconv.Itoa(i)))
			if err != nil {
				return err
			}
			if err := v.AddLabel(l); err != nil {
				return err
			}
		}
		return nil
	})
}
