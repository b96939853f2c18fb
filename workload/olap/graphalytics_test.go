package olap

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gdi-go/gdi/conformance/refdb"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
	"github.com/gdi-go/gdi/workload/graphalytics"
)

const datasets = "../../../shared/testdata/graphalytics/datasets"

// names are the 14 graphs of the official small suite.
var names = []string{
	"example-directed", "example-undirected",
	"test-bfs-directed", "test-bfs-undirected", "test-cdlp-directed", "test-cdlp-undirected",
	"test-lcc-directed", "test-lcc-undirected", "test-pr-directed", "test-pr-undirected",
	"test-sssp-directed", "test-sssp-undirected", "test-wcc-directed", "test-wcc-undirected",
}

func readDataset(t testing.TB, name string) *graphalytics.Dataset {
	t.Helper()
	if _, err := os.Stat(datasets); err != nil {
		t.Skipf("no Graphalytics data sets: %v", err)
	}
	d, err := graphalytics.ReadDataset(datasets, name)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// onDB loads d on ranks refdb ranks, creates the vertex index, and calls fn
// on every rank.
func onDB(t testing.TB, d *graphalytics.Dataset, ranks int, mode graphalytics.LoadMode,
	fn func(db gdi.Database, comm rma.Comm, s graphalytics.Schema, idx gdi.Index) error) {
	t.Helper()
	onDBWith(t, refdb.Driver{}, d, ranks, mode, fn)
}

// onDBWith is onDB on a database of driver.
func onDBWith(t testing.TB, driver gdi.Driver, d *graphalytics.Dataset, ranks int, mode graphalytics.LoadMode,
	fn func(db gdi.Database, comm rma.Comm, s graphalytics.Schema, idx gdi.Index) error) {
	t.Helper()
	err := local.Run(ranks, func(comm rma.Comm) error {
		db, err := driver.CreateDatabase(comm, nil)
		if err != nil {
			return err
		}
		defer db.Free()
		s, err := graphalytics.Load(db, comm, d, mode)
		if err != nil {
			return err
		}
		idx, err := VertexIndex(db, comm, s.Vertex)
		if err != nil {
			return err
		}
		return fn(db, comm, s, idx)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// onGraph loads d on ranks refdb ranks, extracts it, and calls fn on every
// rank with the graph (inside no transaction).
func onGraph(t testing.TB, d *graphalytics.Dataset, ranks int, mode graphalytics.LoadMode, fn func(g *Graph) error) {
	t.Helper()
	onDB(t, d, ranks, mode, func(db gdi.Database, comm rma.Comm, s graphalytics.Schema, idx gdi.Index) error {
		g, err := ExtractGraph(db, comm, ExtractOptions{Index: idx, Weight: s.Weight})
		if err != nil {
			return err
		}
		return fn(g)
	})
}

// onGraphWith loads d into a database of driver on ranks ranks and calls
// fn on every rank with its graph extracted twice: without weights (which
// a backend may serve by scanning its storage) and with them, if d has any.
func onGraphWith(t testing.TB, driver gdi.Driver, d *graphalytics.Dataset, ranks int, fn func(g, weighted *Graph) error) {
	t.Helper()
	onDBWith(t, driver, d, ranks, graphalytics.LoadAuto, func(db gdi.Database, comm rma.Comm, s graphalytics.Schema, idx gdi.Index) error {
		g, err := ExtractGraph(db, comm, ExtractOptions{Index: idx})
		if err != nil {
			return err
		}
		weighted := g
		if s.Weight != gdi.PropertyTypeNull {
			if weighted, err = ExtractGraph(db, comm, ExtractOptions{Index: idx, Weight: s.Weight}); err != nil {
				return err
			}
		}
		return fn(g, weighted)
	})
}

// TestGraphalytics runs every algorithm with an expected output on every
// data set, on 1, 2 and 4 ranks, and validates with the Graphalytics rules:
// on refdb (read vertex by vertex) and on gdirma, whose extraction scans
// its storage by keys, for SSSP with the weights of its edge holders.
func TestGraphalytics(t *testing.T) {
	for _, backend := range []struct {
		name   string
		driver gdi.Driver
	}{{"refdb", refdb.Driver{}}, {"gdirma", gdirma.Driver{}}} {
		t.Run(backend.name, func(t *testing.T) { graphalyticsOn(t, backend.driver) })
	}
}

func graphalyticsOn(t *testing.T, driver gdi.Driver) {
	for _, name := range names {
		d := readDataset(t, name)
		params, err := ParamsOf(d)
		if err != nil {
			t.Fatal(err)
		}
		expected := map[string]map[uint64]string{}
		for _, alg := range graphalytics.Algorithms {
			path := filepath.Join(datasets, name+"-"+alg)
			if _, err := os.Stat(path); err != nil {
				continue
			}
			if expected[alg], err = graphalytics.ReadExpected(path); err != nil {
				t.Fatal(err)
			}
		}
		if len(expected) == 0 {
			t.Fatalf("%s: no expected outputs", name)
		}
		rankCounts := []int{1, 2, 4}
		if strings.HasPrefix(name, "example") {
			rankCounts = append(rankCounts, 11) // some ranks own no vertex
		}
		for _, ranks := range rankCounts {
			t.Run(fmt.Sprintf("%s/ranks=%d", name, ranks), func(t *testing.T) {
				var mu sync.Mutex
				onGraphWith(t, driver, d, ranks, func(g, weighted *Graph) error {
					if g.N != int64(len(d.Vertices)) || g.M != int64(len(d.Edges)) || g.Directed != d.Directed {
						return fmt.Errorf("extracted %d vertices, %d edges, directed %v; want %d, %d, %v",
							g.N, g.M, g.Directed, len(d.Vertices), len(d.Edges), d.Directed)
					}
					for _, alg := range graphalytics.Algorithms {
						exp, ok := expected[alg]
						if !ok {
							continue
						}
						p := params
						if alg == "SSSP" {
							var err error
							if p.Source, err = SSSPSource(d, p); err != nil {
								return err
							}
						}
						on := g
						if alg == "SSSP" {
							on = weighted
						}
						vals, err := Run(on, strings.ToLower(alg), p)
						if err != nil {
							return fmt.Errorf("%s: %w", alg, err)
						}
						lines, err := Gather(on, vals)
						if err != nil || g.Comm().Rank() != 0 {
							if err != nil {
								return err
							}
							continue
						}
						got := map[uint64]string{}
						for _, l := range lines {
							got[l.ID] = l.Value
						}
						if err := graphalytics.Validate(alg, exp, got); err != nil {
							mu.Lock()
							t.Errorf("%s: %v", alg, err)
							mu.Unlock()
						}
					}
					return nil
				})
			})
		}
	}
}

// TestLoadTransactions extracts the same graph when it was loaded through
// transactions instead of the CSV loader.
func TestLoadTransactions(t *testing.T) {
	d := readDataset(t, "example-undirected")
	exp, err := graphalytics.ReadExpected(filepath.Join(datasets, "example-undirected-SSSP"))
	if err != nil {
		t.Fatal(err)
	}
	onGraph(t, d, 3, graphalytics.LoadTransactions, func(g *Graph) error {
		vals, err := Run(g, "sssp", Params{Source: 2})
		if err != nil {
			return err
		}
		lines, err := Gather(g, vals)
		if err != nil || lines == nil {
			return err
		}
		got := map[uint64]string{}
		for _, l := range lines {
			got[l.ID] = l.Value
		}
		return graphalytics.Validate("SSSP", exp, got)
	})
}
