package olap

import (
	"fmt"
	"slices"
	"testing"

	"github.com/gdi-go/gdi/conformance/refdb"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
	"github.com/gdi-go/gdi/workload/graphalytics"
)

// graphArcs is a graph as global (from ID, to ID) out-graphArcs and in-graphArcs, with
// its counts: what two extractions of one graph must agree on, whatever
// rank holds which vertex.
type graphArcs struct {
	n, m     int64
	directed bool
	out, in  [][2]uint64
}

// arcsOf gathers g's graphArcs on every rank (collective).
func arcsOf(comm rma.Comm, g *Graph) (graphArcs, error) {
	var mine []byte
	for i := range g.NumLocal {
		for _, s := range g.Out[g.OutOff[i]:g.OutOff[i+1]] {
			mine = appendU64(mine, 0, g.ID[i], g.ID[s])
		}
		for _, s := range g.In[g.InOff[i]:g.InOff[i+1]] {
			mine = appendU64(mine, 1, g.ID[i], g.ID[s])
		}
	}
	all, err := comm.Allgatherv(mine)
	if err != nil {
		return graphArcs{}, err
	}
	a := graphArcs{n: g.N, m: g.M, directed: g.Directed}
	for _, b := range all {
		for ; len(b) >= 24; b = b[24:] {
			x := [2]uint64{u64(b[8:]), u64(b[16:])}
			if u64(b) == 0 {
				a.out = append(a.out, x)
			} else {
				a.in = append(a.in, x)
			}
		}
	}
	cmp := func(x, y [2]uint64) int {
		if c := cmpU64(x[0], y[0]); c != 0 {
			return c
		}
		return cmpU64(x[1], y[1])
	}
	slices.SortFunc(a.out, cmp)
	slices.SortFunc(a.in, cmp)
	return a, nil
}

func (a graphArcs) equal(b graphArcs) bool {
	return a.n == b.n && a.m == b.m && a.directed == b.directed && slices.Equal(a.out, b.out) && slices.Equal(a.in, b.in)
}

// extractArcs loads d into a database of driver on ranks local ranks and
// returns the graphArcs of its extraction, with or without the backend's scan.
func extractArcs(t *testing.T, driver gdi.Driver, d *graphalytics.Dataset, ranks int, noScan, noKeys bool) graphArcs {
	t.Helper()
	var got graphArcs
	err := local.Run(ranks, func(comm rma.Comm) error {
		db, err := driver.CreateDatabase(comm, nil)
		if err != nil {
			return err
		}
		defer db.Free()
		s, err := graphalytics.Load(db, comm, d, graphalytics.LoadAuto)
		if err != nil {
			return err
		}
		idx, err := VertexIndex(db, comm, s.Vertex)
		if err != nil {
			return err
		}
		g, err := ExtractGraph(db, comm, ExtractOptions{Index: idx, NoScan: noScan, NoKeys: noKeys})
		if err != nil {
			return err
		}
		a, err := arcsOf(comm, g)
		if comm.Rank() == 0 {
			got = a
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestScanExtractsTheSameGraph: on every Graphalytics graph, extracting
// through gdirma's storage scan, by keys (gdi.KeyedAdjacencyScanner) and
// by UIDs (gdi.AdjacencyScanner), gives the graph that reading vertex by
// vertex gives, and that refdb (which has no scan) gives.
func TestScanExtractsTheSameGraph(t *testing.T) {
	for i, name := range names {
		d := readDataset(t, name)
		ranks := []int{1, 2, 4}[i%3]
		keyed := extractArcs(t, gdirma.Driver{}, d, ranks, false, false)
		scanned := extractArcs(t, gdirma.Driver{}, d, ranks, false, true)
		byVertex := extractArcs(t, gdirma.Driver{}, d, ranks, true, true)
		ref := extractArcs(t, refdb.Driver{}, d, ranks, false, false)
		if len(scanned.out) == 0 {
			t.Fatalf("%s: extracted no arcs", name)
		}
		if !keyed.equal(scanned) || !scanned.equal(byVertex) || !scanned.equal(ref) {
			t.Errorf("%s on %d ranks: the scan by keys extracts %s, by UIDs %s, vertex by vertex %s, refdb %s", name, ranks, keyed, scanned, byVertex, ref)
		}
	}
}

func (a graphArcs) String() string {
	return fmt.Sprintf("N=%d M=%d directed=%v, %d out-graphArcs, %d in-graphArcs", a.n, a.m, a.directed, len(a.out), len(a.in))
}
