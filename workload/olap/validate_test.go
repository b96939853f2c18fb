package olap

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/gdi-go/gdi/workload/graphalytics"
)

// TestValidateBFS validates BFS on all 14 data sets and 1, 2 and 4 ranks,
// then breaks the result in ways each rule must catch.
func TestValidateBFS(t *testing.T) {
	for _, name := range names {
		d := readDataset(t, name)
		p, err := ParamsOf(d)
		if err != nil {
			t.Fatal(err)
		}
		for _, ranks := range []int{1, 2, 4} {
			t.Run(fmt.Sprintf("%s/ranks=%d", name, ranks), func(t *testing.T) {
				onGraph(t, d, ranks, graphalytics.LoadAuto, func(g *Graph) error {
					res, err := BFS(g, p.Source)
					if err != nil {
						return err
					}
					return Validate(g, res)
				})
			})
		}
	}
}

func TestValidateCatches(t *testing.T) {
	d := readDataset(t, "test-bfs-undirected")
	// In test-bfs-undirected from 1: 2 and 3 are at level 1, 4 at level 2
	// (edges 1-2, 1-3, 2-4 among others).
	cases := []struct {
		rule   string
		break_ func(g *Graph, r *BFSResult)
	}{
		{"rule 5", func(g *Graph, r *BFSResult) { setParent(g, r, 4, 3) }}, // 3-4 is no edge
		{"rule 2", func(g *Graph, r *BFSResult) { setLevel(g, r, 2, 2) }},
		{"rule 4", func(g *Graph, r *BFSResult) { setLevel(g, r, 4, Unreached); setParentGID(g, r, 4, -1) }},
		{"rule 1", func(g *Graph, r *BFSResult) { setLevel(g, r, 1, 1) }},
		{"rule 4", func(g *Graph, r *BFSResult) { setParentGID(g, r, 2, -1) }},
	}
	for _, c := range cases {
		for _, ranks := range []int{1, 2} {
			var mu sync.Mutex
			var errs []error
			onGraph(t, d, ranks, graphalytics.LoadAuto, func(g *Graph) error {
				res, err := BFS(g, 1)
				if err != nil {
					return err
				}
				c.break_(g, res)
				err = Validate(g, res)
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
				return nil
			})
			for _, err := range errs {
				if err == nil || !strings.Contains(err.Error(), c.rule) {
					t.Errorf("%s on %d ranks: Validate says %v", c.rule, ranks, err)
				}
			}
		}
	}
}

func gidOf(g *Graph, id uint64) int64 {
	for s, x := range g.ID {
		if x == id {
			return g.GID[s]
		}
	}
	return -1
}

func setLevel(g *Graph, r *BFSResult, id uint64, l int64) {
	if i := g.LocalOf(id); i >= 0 {
		r.Level[i] = l
	}
}

func setParentGID(g *Graph, r *BFSResult, id uint64, p int64) {
	if i := g.LocalOf(id); i >= 0 {
		r.Parent[i] = p
	}
}

// setParent makes parent the parent of id; the parent's global number is
// found among the slots of the rank owning id (it may be outside them,
// then a number that names no neighbour is used).
func setParent(g *Graph, r *BFSResult, id, parent uint64) {
	if i := g.LocalOf(id); i >= 0 {
		p := gidOf(g, parent)
		if p < 0 {
			p = g.N + 1
		}
		r.Parent[i] = p
	}
}
