package olap

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/workload/graphalytics"
)

// TestBFSOnStorage: on every Graphalytics graph and 1, 2 and 4 ranks, the
// search straight on gdirma's storage gives the levels of the search on
// the graph extracted in the same transaction, and a tree that passes the
// Graph500 rules, whether its levels go top-down only, bottom-up only, or
// as the heuristic chooses; and it stops at maxDepth.
func TestBFSOnStorage(t *testing.T) {
	for _, name := range names {
		d := readDataset(t, name)
		p, err := ParamsOf(d)
		if err != nil {
			t.Fatal(err)
		}
		for _, ranks := range []int{1, 2, 4} {
			onDBWith(t, gdirma.Driver{}, d, ranks, graphalytics.LoadAuto, func(db gdi.Database, comm rma.Comm, _ graphalytics.Schema, idx gdi.Index) error {
				err := storageMatchesCSR(db, comm, idx, p.Source)
				if err != nil {
					err = fmt.Errorf("%s on %d ranks: %w", name, ranks, err)
				}
				return err
			})
		}
	}
}

// storageMatchesCSR runs both searches from root in one collective read
// transaction and compares them.
func storageMatchesCSR(db gdi.Database, comm rma.Comm, idx gdi.Index, root uint64) error {
	tx, err := db.StartCollectiveTransaction()
	if err != nil {
		return err
	}
	defer tx.Abort()
	g, err := Extract(tx, comm, ExtractOptions{Index: idx})
	if err != nil {
		return err
	}
	for _, depth := range []int64{math.MaxInt64, 2} {
		want, err := bfs(g, root, depth)
		if err != nil {
			return err
		}
		for _, share := range []int64{1, 1 << 40, bottomUpShare} {
			rounds := 0
			got, err := bfsOnStorage(tx.(gdi.KeyedAdjacencyReader), comm, idx, root, depth, func() { rounds++ }, share)
			if err != nil {
				return err
			}
			if !slices.Equal(got.Level, want.Level) {
				return fmt.Errorf("depth %d, share %d: levels %v on storage, %v on the graph", depth, share, got.Level, want.Level)
			}
			if depth == 2 && rounds > 2 {
				return fmt.Errorf("share %d: %d rounds for depth 2", share, rounds)
			}
			if depth == math.MaxInt64 {
				if err := Validate(g, got); err != nil {
					return fmt.Errorf("share %d: %w", share, err)
				}
			}
		}
	}
	return nil
}
