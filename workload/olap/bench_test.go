package olap

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/workload/graphalytics"
)

// benchGraph writes a random directed weighted graph with n vertices
// (ids 3i+1) and about 8n edges in Graphalytics format to dir and reads it
// back.
func benchGraph(b *testing.B, n int) *graphalytics.Dataset {
	dir := b.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	var v, e strings.Builder
	for i := range n {
		fmt.Fprintf(&v, "%d\n", 3*i+1)
	}
	seen := map[[2]int]bool{}
	for range 8 * n {
		s, t := rng.IntN(n), rng.IntN(n)
		if s == t || seen[[2]int{s, t}] {
			continue
		}
		seen[[2]int{s, t}] = true
		fmt.Fprintf(&e, "%d %d %.3f\n", 3*s+1, 3*t+1, 0.001+rng.Float64())
	}
	props := "graph.bench.directed = true\ngraph.bench.bfs.source-vertex = 1\ngraph.bench.pr.num-iterations = 10\ngraph.bench.cdlp.max-iterations = 10\n"
	for name, text := range map[string]string{"bench.v": v.String(), "bench.e": e.String(), "bench.properties": props} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	d, err := graphalytics.ReadDataset(dir, "bench")
	if err != nil {
		b.Fatal(err)
	}
	return d
}

// BenchmarkOLAP times every query on a random graph of 2048 vertices and
// about 16k edges on 2 refdb ranks. The graph is loaded and extracted
// outside the timed loop, except for extract itself, which times the
// collective transaction with the extraction.
func BenchmarkOLAP(b *testing.B) {
	const ranks = 2
	d := benchGraph(b, 2048)
	p, err := ParamsOf(d)
	if err != nil {
		b.Fatal(err)
	}
	p.K = 3
	for _, algo := range append([]string{"extract"}, append(Algorithms, "bi", "gnn")...) {
		b.Run(algo, func(b *testing.B) {
			onDB(b, d, ranks, graphalytics.LoadCSV, func(db gdi.Database, comm rma.Comm, s graphalytics.Schema, idx gdi.Index) error {
				g, err := ExtractGraph(db, comm, ExtractOptions{Index: idx, Weight: s.Weight})
				if err != nil {
					return err
				}
				var feat gdi.PropertyType
				if algo == "gnn" {
					feat, err = db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "feature", Entity: gdi.SingleEntity, Datatype: gdi.Double, Size: gdi.FixedSize, Count: 3})
					if err == nil {
						err = comm.Barrier()
					}
					if err == nil {
						err = SetFeatures(db, comm, idx, feat, func([]byte) []float64 { return []float64{0.1, 0.2, 0.3} })
					}
					if err != nil {
						return err
					}
				}
				if err := comm.Barrier(); err != nil {
					return err
				}
				if comm.Rank() == 0 {
					b.ResetTimer()
				}
				for i := 0; i < b.N; i++ {
					switch algo {
					case "extract":
						_, err = ExtractGraph(db, comm, ExtractOptions{Index: idx, Weight: s.Weight})
					case "bi":
						_, err = BI(db, comm, BIQuery{Index: idx, Vertex: s.Vertex, Weight: s.Weight, MinDegree: 8, MinWeight: 0.5})
					case "gnn":
						err = GNNLayer(db, comm, idx, feat, testMLP)
					default:
						_, err = Run(g, algo, p)
					}
					if err != nil {
						return err
					}
				}
				if err := comm.Barrier(); err != nil {
					return err
				}
				if comm.Rank() == 0 {
					b.StopTimer()
				}
				return nil
			})
		})
	}
}
