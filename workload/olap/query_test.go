package olap

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/gdi-go/gdi/conformance/refdb"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/workload/graphalytics"
)

// arcs are the (a, b, w) of the pattern a-[e]->b: directed edges forwards,
// undirected edges both ways.
func arcs(d *graphalytics.Dataset) []graphalytics.Edge {
	var out []graphalytics.Edge
	for _, e := range d.Edges {
		out = append(out, e)
		if !d.Directed {
			out = append(out, graphalytics.Edge{Src: e.Dst, Dst: e.Src, W: e.W})
		}
	}
	return out
}

// biBrute answers a BIQuery over the data set directly.
func biBrute(d *graphalytics.Dataset, minDeg uint64, minW float64) BIResult {
	deg := map[uint64]uint64{}
	for _, e := range d.Edges {
		deg[e.Src]++
		deg[e.Dst]++
	}
	var r BIResult
	sources := map[uint64]bool{}
	for _, a := range arcs(d) {
		if deg[a.Src] >= minDeg && deg[a.Dst] >= minDeg && a.W > minW {
			sources[a.Src] = true
			r.Edges++
			r.WeightSum += a.W
		}
	}
	r.Sources = int64(len(sources))
	return r
}

// biWays are the ways TestBI answers the query: through holders on both
// backends, and straight on gdirma's storage.
var biWays = []struct {
	name   string
	driver gdi.Driver
	bi     func(gdi.Database, rma.Comm, BIQuery) (BIResult, error)
}{
	{"refdb", refdb.Driver{}, BI},
	{"gdirma", gdirma.Driver{}, BI},
	{"gdirma on storage", gdirma.Driver{}, func(db gdi.Database, comm rma.Comm, q BIQuery) (BIResult, error) {
		tx, err := db.StartCollectiveTransaction()
		if err != nil {
			return BIResult{}, err
		}
		defer tx.Commit()
		return BIOnStorage(tx, comm, q)
	}},
}

func TestBI(t *testing.T) {
	for _, name := range []string{"example-directed", "example-undirected", "test-sssp-directed", "test-sssp-undirected"} {
		d := readDataset(t, name)
		for _, ranks := range []int{1, 2, 4} {
			for _, q := range []struct {
				deg uint64
				w   float64
			}{{0, -1}, {3, 0.3}, {4, 1}} {
				want := biBrute(d, q.deg, q.w)
				if q.deg == 3 && want.Edges == 0 {
					t.Fatalf("%s: the test query matches nothing", name)
				}
				for _, way := range biWays {
					onDBWith(t, way.driver, d, ranks, graphalytics.LoadAuto, func(db gdi.Database, comm rma.Comm, s graphalytics.Schema, idx gdi.Index) error {
						got, err := way.bi(db, comm, BIQuery{Index: idx, Vertex: s.Vertex, Weight: s.Weight, MinDegree: q.deg, MinWeight: q.w})
						if err != nil {
							return err
						}
						if got.Sources != want.Sources || got.Edges != want.Edges || math.Abs(got.WeightSum-want.WeightSum) > 1e-9*math.Abs(want.WeightSum) {
							return fmt.Errorf("%s, %s, deg>=%d w>%v: %+v, want %+v", name, way.name, q.deg, q.w, got, want)
						}
						return nil
					})
				}
			}
		}
	}
}

// testMLP maps 3 features to 4 hidden units and back to 3.
var testMLP = MLP{
	W1: [][]float64{{0.5, -0.2, 0.1}, {0.3, 0.3, -0.4}, {-0.1, 0.2, 0.6}, {0.2, -0.5, 0.25}},
	B1: []float64{0.1, 0, -0.05, 0.2},
	W2: [][]float64{{0.4, -0.3, 0.2, 0.1}, {-0.2, 0.5, 0.1, -0.3}, {0.3, 0.1, -0.4, 0.2}},
	B2: []float64{0, 0.05, -0.1},
}

func initFeature(id uint64) []float64 {
	return []float64{float64(id%7) / 7, float64(id%3) - 1, 1 / float64(id+1)}
}

func TestGNN(t *testing.T) {
	const layers = 2
	for _, name := range []string{"example-directed", "test-pr-undirected"} {
		d := readDataset(t, name)
		// The reference: the same layers over the data set.
		want := map[uint64][]float64{}
		for _, v := range d.Vertices {
			want[v] = initFeature(v)
		}
		for range layers {
			next := map[uint64][]float64{}
			for _, v := range d.Vertices {
				next[v] = slices.Clone(want[v])
			}
			for _, a := range arcs(d) {
				for i, x := range want[a.Dst] {
					next[a.Src][i] += x
				}
			}
			for v, f := range next {
				out, err := testMLP.Apply(f)
				if err != nil {
					t.Fatal(err)
				}
				for i := range out {
					out[i] = math.Tanh(out[i])
				}
				next[v] = out
			}
			want = next
		}
		for _, run := range []struct {
			driver gdi.Driver
			ranks  int
		}{{refdb.Driver{}, 1}, {refdb.Driver{}, 3}, {gdirma.Driver{}, 1}, {gdirma.Driver{}, 3}} {
			ranks := run.ranks
			var mu sync.Mutex
			got := map[uint64][]float64{}
			onDBWith(t, run.driver, d, ranks, graphalytics.LoadAuto, func(db gdi.Database, comm rma.Comm, s graphalytics.Schema, idx gdi.Index) error {
				feat, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "feature", Entity: gdi.SingleEntity, Datatype: gdi.Double, Size: gdi.MaxSize, Count: 16})
				if err != nil {
					return err
				}
				if err := comm.Barrier(); err != nil {
					return err
				}
				err = SetFeatures(db, comm, idx, feat, func(id []byte) []float64 {
					x, _ := strconv.ParseUint(string(id), 10, 64)
					return initFeature(x)
				})
				if err != nil {
					return err
				}
				for range layers {
					if err := GNNLayer(db, comm, idx, feat, testMLP); err != nil {
						return err
					}
				}
				if comm.Rank() != 0 {
					return nil
				}
				tx, err := db.StartTransaction()
				if err != nil {
					return err
				}
				defer tx.Abort()
				for _, v := range d.Vertices {
					uid, ok, err := tx.TranslateVertexID(s.Vertex, graphalytics.AppID(v))
					if err != nil || !ok {
						return fmt.Errorf("vertex %d: %v %v", v, ok, err)
					}
					h, err := tx.AssociateVertex(uid)
					if err != nil {
						return err
					}
					f, err := features(h, feat)
					if err != nil {
						return err
					}
					mu.Lock()
					got[v] = f
					mu.Unlock()
				}
				return nil
			})
			for _, v := range d.Vertices {
				if len(got[v]) != len(want[v]) {
					t.Fatalf("%s, %d ranks: vertex %d has features %v, want %v", name, ranks, v, got[v], want[v])
				}
				for i := range want[v] {
					if math.Abs(got[v][i]-want[v][i]) > 1e-12 {
						t.Errorf("%s, %d ranks: vertex %d has features %v, want %v", name, ranks, v, got[v], want[v])
						break
					}
				}
			}
		}
	}
}
