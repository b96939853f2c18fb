package olap

import (
	"fmt"
	"path/filepath"
	"slices"

	"testing"

	"github.com/gdi-go/gdi/conformance/refdb"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
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

// TestExtractAdjacency: the extracted adjacency of every local vertex,
// with its weights, is the data set's, each weight next to its neighbour,
// on 1, 2 and 4 ranks, on refdb (vertex by vertex) and on gdirma (by keys,
// the weights from its scan of edge holders), alternately.
func TestExtractAdjacency(t *testing.T) {
	for _, name := range names {
		d := readDataset(t, name)
		for i, ranks := range []int{1, 2, 4} {
			driver := []gdi.Driver{refdb.Driver{}, gdirma.Driver{}}[(i+len(name))%2]
			t.Run(fmt.Sprintf("%s/ranks=%d/%T", name, ranks, driver), func(t *testing.T) {
				onDBWith(t, driver, d, ranks, graphalytics.LoadAuto, func(db gdi.Database, comm rma.Comm, s graphalytics.Schema, idx gdi.Index) error {
					g, err := ExtractGraph(db, comm, ExtractOptions{Index: idx, Weight: s.Weight})
					if err != nil {
						return err
					}
					return checkAdjacency(d, g)
				})
			})
		}
	}
}

// checkAdjacency compares the adjacency of g's local vertices with d's.
func checkAdjacency(d *graphalytics.Dataset, g *Graph) error {
	type arc struct {
		v, w uint64
		wt   float64
	}
	var wantOut, wantIn, gotOut, gotIn []arc
	local := func(id uint64) bool { return g.LocalOf(id) >= 0 }
	for _, e := range d.Edges {
		w := e.W
		if !d.Weighted {
			w = 0
		}
		if local(e.Src) {
			wantOut = append(wantOut, arc{e.Src, e.Dst, w})
		}
		if local(e.Dst) {
			wantIn = append(wantIn, arc{e.Dst, e.Src, 0})
		}
		if !d.Directed && e.Src != e.Dst {
			if local(e.Dst) {
				wantOut = append(wantOut, arc{e.Dst, e.Src, w})
			}
			if local(e.Src) {
				wantIn = append(wantIn, arc{e.Src, e.Dst, 0})
			}
		}
	}
	for i := range g.NumLocal {
		out, in := g.Out[g.OutOff[i]:g.OutOff[i+1]], g.In[g.InOff[i]:g.InOff[i+1]]
		for k, s := range out {
			var w float64
			if g.OutW != nil {
				w = g.OutW[int(g.OutOff[i])+k]
			}
			gotOut = append(gotOut, arc{g.ID[i], g.ID[s], w})
		}
		for _, s := range in {
			gotIn = append(gotIn, arc{g.ID[i], g.ID[s], 0})
		}
	}
	cmpArc := func(a, b arc) int {
		switch {
		case a.v != b.v:
			return cmpU64(a.v, b.v)
		case a.w != b.w:
			return cmpU64(a.w, b.w)
		case a.wt < b.wt:
			return -1
		case a.wt > b.wt:
			return 1
		}
		return 0
	}
	for _, s := range [][]arc{wantOut, wantIn, gotOut, gotIn} {
		slices.SortFunc(s, cmpArc)
	}
	if !slices.Equal(gotOut, wantOut) {
		return fmt.Errorf("out-arcs of the local vertices: %v, want %v", gotOut, wantOut)
	}
	if !slices.Equal(gotIn, wantIn) {
		return fmt.Errorf("in-arcs of the local vertices: %v, want %v", gotIn, wantIn)
	}
	return nil
}
