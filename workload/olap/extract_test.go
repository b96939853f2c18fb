package olap

import (
	"fmt"
	"path/filepath"
	"slices"

	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/workload/graphalytics"
)

// TestExtractOnlyIndexed adds a vertex outside the index, joined to vertex
// 1 both ways, and checks that the extraction leaves it and its edges out,
// and that the ranges, ghosts and halo plan fit together.
func TestExtractOnlyIndexed(t *testing.T) {
	d := readDataset(t, "example-directed")
	exp, err := graphalytics.ReadExpected(filepath.Join(datasets, "example-directed-BFS"))
	if err != nil {
		t.Fatal(err)
	}
	onDB(t, d, 3, graphalytics.LoadAuto, func(db gdi.Database, comm rma.Comm, s graphalytics.Schema, idx gdi.Index) error {
		other, err := db.CreateLabel("Other")
		if err != nil {
			return err
		}
		if err := comm.Barrier(); err != nil {
			return err
		}
		if comm.Rank() == 1 {
			tx, err := db.StartTransaction()
			if err != nil {
				return err
			}
			x, _ := tx.CreateVertex([]byte("1000"))
			x.AddLabel(other)
			uid, _, _ := tx.TranslateVertexID(s.Vertex, []byte("1"))
			one, _ := tx.AssociateVertex(uid)
			if _, err := tx.CreateEdge(gdi.Directed, one, x); err != nil {
				return err
			}
			if _, err := tx.CreateEdge(gdi.Directed, x, one); err != nil {
				return err
			}
			if err := tx.Commit(); err != nil {
				return err
			}
		}
		if err := comm.Barrier(); err != nil {
			return err
		}
		g, err := ExtractGraph(db, comm, ExtractOptions{Index: idx, Weight: s.Weight})
		if err != nil {
			return err
		}
		if g.N != 10 || g.M != 17 || g.LocalOf(1000) >= 0 || slices.Contains(g.ID, 1000) {
			return fmt.Errorf("extracted N=%d M=%d ids %v", g.N, g.M, g.ID)
		}
		// The ghosts' IDs and global numbers agree with the owners'.
		ids := make([]uint64, g.NumSlots())
		copy(ids, g.ID[:g.NumLocal])
		if err := Exchange(g, ids); err != nil {
			return err
		}
		for s := g.NumLocal; s < g.NumSlots(); s++ {
			r, _ := g.Owner(g.GID[s])
			if ids[s] != g.ID[s] || r == comm.Rank() {
				return fmt.Errorf("ghost slot %d: id %d, owner says %d; owner rank %d", s, g.ID[s], ids[s], r)
			}
		}
		if g.Offsets[comm.Size()] != 10 || g.Offsets[comm.Rank()+1]-g.Offsets[comm.Rank()] != int64(g.NumLocal) {
			return fmt.Errorf("offsets %v with %d local vertices", g.Offsets, g.NumLocal)
		}
		vals, err := Run(g, "bfs", Params{Source: 1})
		if err != nil {
			return err
		}
		for i, v := range vals {
			if exp[g.ID[i]] != v {
				return fmt.Errorf("vertex %d at depth %s, want %s", g.ID[i], v, exp[g.ID[i]])
			}
		}
		return nil
	})
}
