package olap

import (
	"fmt"
	"math"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/gdi-go/gdi/conformance/refdb"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/workload/graphalytics"
)

// testEdgeWeight is a symmetric weight of the ends a and b.
func testEdgeWeight(a, b uint64) float64 { return float64((a*b+a+b)%97+1) / 100 }

// TestSetEdgeWeights weighs unweighted data sets on both backends and
// checks that every edge got the weight of its ends, written once, by
// extracting the graph with the weights and by the BI query.
func TestSetEdgeWeights(t *testing.T) {
	for _, name := range []string{"test-bfs-directed", "test-bfs-undirected"} {
		d := readDataset(t, name)
		if d.Weighted {
			t.Fatalf("%s is weighted", name)
		}
		weighted := *d
		weighted.Edges = nil
		for _, e := range d.Edges {
			weighted.Edges = append(weighted.Edges, graphalytics.Edge{Src: e.Src, Dst: e.Dst, W: testEdgeWeight(e.Src, e.Dst)})
		}
		wantBI := biBrute(&weighted, 3, 0.5)
		for _, driver := range []gdi.Driver{refdb.Driver{}, gdirma.Driver{}} {
			for _, ranks := range []int{1, 3} {
				var calls atomic.Int64
				onDBWith(t, driver, d, ranks, graphalytics.LoadAuto, func(db gdi.Database, comm rma.Comm, s graphalytics.Schema, idx gdi.Index) error {
					weight, err := weighTestGraph(db, comm, idx, &calls)
					if err != nil {
						return err
					}
					if err := checkWeights(db, comm, idx, weight); err != nil {
						return err
					}
					got, err := BI(db, comm, BIQuery{Index: idx, Weight: weight, MinDegree: 3, MinWeight: 0.5})
					if err != nil {
						return err
					}
					if got.Sources != wantBI.Sources || got.Edges != wantBI.Edges || math.Abs(got.WeightSum-wantBI.WeightSum) > 1e-9*wantBI.WeightSum {
						return fmt.Errorf("BI over the weights %+v, want %+v", got, wantBI)
					}
					return nil
				})
				if n := calls.Load(); n != int64(len(d.Edges)) {
					t.Errorf("%s on %d ranks of %T: %d weights written for %d edges", name, ranks, driver, n, len(d.Edges))
				}
			}
		}
	}
}

// weighTestGraph creates the weight property and weighs the edges with
// testEdgeWeight, counting the weights written in calls.
func weighTestGraph(db gdi.Database, comm rma.Comm, idx gdi.Index, calls *atomic.Int64) (gdi.PropertyType, error) {
	weight, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "w", Entity: gdi.SingleEntity, Datatype: gdi.Double, Size: gdi.FixedSize, Count: 1})
	if err != nil {
		return weight, err
	}
	keys, err := LocalVertexKeys(db, idx)
	if err = rma.Agree(comm, err); err != nil {
		return weight, err
	}
	done := 0
	err = SetEdgeWeights(db, comm, keys, WeightOptions{
		Weight: weight,
		W: func(a, b []byte) float64 {
			calls.Add(1)
			x, _ := strconv.ParseUint(string(a), 10, 64)
			y, _ := strconv.ParseUint(string(b), 10, 64)
			return testEdgeWeight(x, y)
		},
		Progress: func(n int) { done += n },
	})
	if err == nil && done != len(keys) {
		err = fmt.Errorf("progress reported %d of %d vertices", done, len(keys))
	}
	return weight, err
}

// checkWeights extracts the graph with the weights (a missing one is an
// error) and checks each against testEdgeWeight.
func checkWeights(db gdi.Database, comm rma.Comm, idx gdi.Index, weight gdi.PropertyType) error {
	g, err := ExtractGraph(db, comm, ExtractOptions{Index: idx, Weight: weight})
	if err != nil {
		return err
	}
	for v := range g.NumLocal {
		for k := g.OutOff[v]; k < g.OutOff[v+1]; k++ {
			a, b := g.ID[v], g.ID[g.Out[k]]
			if want := testEdgeWeight(a, b); g.OutW[k] != want {
				return fmt.Errorf("edge %d -> %d has weight %v, want %v", a, b, g.OutW[k], want)
			}
		}
	}
	return nil
}
