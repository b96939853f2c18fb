package olap

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/gdi-go/gdi/workload/graphalytics"
)

// TestKHop checks k-hop for k = 2, 3, 4 against the depths of the expected
// BFS outputs: the vertices at depth 1..k, as a count over all ranks and as
// the union of the local sets.
func TestKHop(t *testing.T) {
	for _, name := range []string{"example-directed", "example-undirected", "test-bfs-directed", "test-bfs-undirected"} {
		d := readDataset(t, name)
		p, err := ParamsOf(d)
		if err != nil {
			t.Fatal(err)
		}
		exp, err := graphalytics.ReadExpected(filepath.Join(datasets, name+"-BFS"))
		if err != nil {
			t.Fatal(err)
		}
		for _, ranks := range []int{1, 2, 4} {
			for k := 2; k <= 4; k++ {
				var want []uint64
				for v, s := range exp {
					if l, _ := strconv.ParseInt(s, 10, 64); l >= 1 && l <= int64(k) {
						want = append(want, v)
					}
				}
				slices.Sort(want)
				var mu sync.Mutex
				var got []uint64
				onGraph(t, d, ranks, graphalytics.LoadAuto, func(g *Graph) error {
					count, local, err := KHop(g, p.Source, k)
					if err != nil {
						return err
					}
					if count != int64(len(want)) {
						return fmt.Errorf("%s, k=%d: count %d, want %d", name, k, count, len(want))
					}
					mu.Lock()
					got = append(got, local...)
					mu.Unlock()
					return nil
				})
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Errorf("%s, k=%d, %d ranks: %v, want %v", name, k, ranks, got, want)
				}
			}
		}
	}
}
