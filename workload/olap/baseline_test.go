package olap

import (
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/gdi-go/gdi/workload/graphalytics"
)

func TestCSRBaselines(t *testing.T) {
	// 0-1-2 chain plus 3->4 directed, 5 isolated; a self-loop on 2.
	edges := [][2]uint64{{0, 1}, {1, 2}, {2, 2}, {3, 4}}
	each := func(fn func(u, v uint64)) {
		for _, e := range edges {
			fn(e[0], e[1])
		}
	}
	und, err := BuildCSR(6, false, each)
	if err != nil {
		t.Fatal(err)
	}
	if got := und.BFS(0); !slices.Equal(got, []int32{0, 1, 2, -1, -1, -1}) {
		t.Errorf("undirected BFS = %v", got)
	}
	if got := und.WCC(); !slices.Equal(got, []uint32{0, 0, 0, 3, 3, 5}) {
		t.Errorf("WCC = %v", got)
	}
	dir, err := BuildCSR(6, true, each)
	if err != nil {
		t.Fatal(err)
	}
	if got := dir.BFS(4); !slices.Equal(got, []int32{-1, -1, -1, -1, 0, -1}) {
		t.Errorf("directed BFS from a sink = %v", got)
	}
	if got := dir.In[dir.InOff[4]:dir.InOff[5]]; !slices.Equal(got, []uint32{3}) {
		t.Errorf("in-edges of 4 = %v", got)
	}
	pr := dir.PageRank(0.85, 20)
	sum := 0.0
	for _, p := range pr {
		sum += p
	}
	if sum < 0.999999 || sum > 1.000001 {
		t.Errorf("PageRank mass %v, want 1 (sinks spread their rank)", sum)
	}
	if _, err := BuildCSR(3, false, func(fn func(u, v uint64)) { fn(0, 7) }); err == nil {
		t.Error("an edge outside the vertices was accepted")
	}
}

// TestCSRSSSPAndBI checks Dijkstra and the BI aggregate of the baseline on
// a hand-made weighted graph:
//
//	0 -1- 1 -2- 2 -1- 3,  0 -4- 2 (twice),  3 -0.5- 3,  4 -3- 5
//
// plus an isolated 6, undirected and then directed.
func TestCSRSSSPAndBI(t *testing.T) {
	edges := [][2]uint64{{0, 1}, {1, 2}, {2, 3}, {0, 2}, {0, 2}, {3, 3}, {4, 5}}
	w := map[[2]uint32]float64{{0, 1}: 1, {1, 2}: 2, {2, 3}: 1, {0, 2}: 4, {3, 3}: 0.5, {4, 5}: 3}
	weigh := func(u, v uint32) float64 { return w[[2]uint32{min(u, v), max(u, v)}] }
	each := func(fn func(u, v uint64)) {
		for _, e := range edges {
			fn(e[0], e[1])
		}
	}
	inf := math.Inf(1)
	und, err := BuildCSR(7, false, each)
	if err != nil {
		t.Fatal(err)
	}
	und.SetWeights(weigh)
	if got := und.SSSP(0); !slices.Equal(got, []float64{0, 1, 3, 4, inf, inf, inf}) {
		t.Errorf("undirected SSSP from 0 = %v", got)
	}
	if got := und.SSSP(3); !slices.Equal(got, []float64{4, 3, 1, 0, inf, inf, inf}) {
		t.Errorf("undirected SSSP from 3 = %v", got)
	}
	// Degrees 3 (0), 2 (1), 4 (2), 3 (3: the loop twice), 1, 1, 0. With
	// degree >= 2 and weight > 0.5 the arcs are 0-1, 1-0, 1-2, 2-1, 2-3,
	// 3-2, and 0-2 and 2-0 twice: 10 arcs of weight 24 from 4 sources;
	// the loop (0.5) is out, and counts once when the bound admits it:
	// with degree >= 3 and weight > 0.4, 0-2 and 2-0 twice, 2-3, 3-2 and
	// the loop, 7 arcs of weight 18.5 from 0, 2 and 3.
	if got, want := und.BI(2, 0.5), (BIResult{4, 10, 24}); got != want {
		t.Errorf("undirected BI(2, 0.5) = %+v, want %+v", got, want)
	}
	if got, want := und.BI(3, 0.4), (BIResult{3, 7, 18.5}); got != want {
		t.Errorf("undirected BI(3, 0.4) = %+v, want %+v", got, want)
	}
	dir, err := BuildCSR(7, true, each)
	if err != nil {
		t.Fatal(err)
	}
	dir.SetWeights(weigh)
	if got := dir.SSSP(1); !slices.Equal(got, []float64{inf, 0, 2, 3, inf, inf, inf}) {
		t.Errorf("directed SSSP from 1 = %v", got)
	}
	// Directed degrees are the same; the arcs go forwards only: 0->1,
	// 1->2, 2->3, 0->2 twice and the loop once, of weight 12.5.
	if got, want := dir.BI(2, 0.4), (BIResult{4, 6, 12.5}); got != want {
		t.Errorf("directed BI(2, 0.4) = %+v, want %+v", got, want)
	}
}

// TestCSRBaselinesMatchGraphalytics runs the baselines on the official data
// sets and checks them with the Graphalytics rules, so the baseline of gdi
// bench olap computes the same thing as the algorithms it is compared with.
func TestCSRBaselinesMatchGraphalytics(t *testing.T) {
	for _, name := range []string{"example-directed", "example-undirected", "test-pr-directed", "test-pr-undirected", "test-bfs-directed", "test-wcc-undirected", "test-sssp-directed", "test-sssp-undirected"} {
		d, err := graphalytics.ReadDataset(datasets, name)
		if err != nil {
			t.Skipf("data sets not found: %v", err)
		}
		dense := make(map[uint64]uint64, len(d.Vertices))
		for i, v := range d.Vertices {
			dense[v] = uint64(i)
		}
		g, err := BuildCSR(len(d.Vertices), d.Directed, func(fn func(u, v uint64)) {
			for _, e := range d.Edges {
				fn(dense[e.Src], dense[e.Dst])
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		p, err := ParamsOf(d)
		if err != nil {
			t.Fatal(err)
		}
		weights := map[[2]uint64]float64{}
		for _, e := range d.Edges {
			weights[[2]uint64{dense[e.Src], dense[e.Dst]}] = e.W
			if !d.Directed {
				weights[[2]uint64{dense[e.Dst], dense[e.Src]}] = e.W
			}
		}
		g.SetWeights(func(u, v uint32) float64 { return weights[[2]uint64{uint64(u), uint64(v)}] })
		ssspSource, err := SSSPSource(d, p)
		if err != nil {
			t.Fatal(err)
		}
		results := map[string]func() map[uint64]string{
			"BFS": func() map[uint64]string {
				out := map[uint64]string{}
				for i, l := range g.BFS(int(dense[p.Source])) {
					if l < 0 {
						out[d.Vertices[i]] = strconv.FormatInt(math.MaxInt64, 10)
					} else {
						out[d.Vertices[i]] = strconv.Itoa(int(l))
					}
				}
				return out
			},
			"PR": func() map[uint64]string {
				out := map[uint64]string{}
				for i, v := range g.PageRank(p.Damping, p.Iterations) {
					out[d.Vertices[i]] = strconv.FormatFloat(v, 'g', -1, 64)
				}
				return out
			},
			"SSSP": func() map[uint64]string {
				out := map[uint64]string{}
				for i, x := range g.SSSP(int(dense[ssspSource])) {
					out[d.Vertices[i]] = formatReal(x)
				}
				return out
			},
			"WCC": func() map[uint64]string {
				out := map[uint64]string{}
				for i, c := range g.WCC() {
					out[d.Vertices[i]] = strconv.FormatUint(d.Vertices[c], 10)
				}
				return out
			},
		}
		checked := 0
		for alg, run := range results {
			want, err := graphalytics.ReadExpected(filepath.Join(datasets, name+"-"+alg))
			if err != nil {
				continue // the data set has no expected output for alg
			}
			if err := graphalytics.Validate(alg, want, run()); err != nil {
				t.Errorf("%s %s: %v", name, alg, err)
			}
			checked++
		}
		if checked == 0 {
			t.Errorf("%s: no expected output checked", name)
		}
	}
}
