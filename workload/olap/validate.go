package olap

import (
	"fmt"
	"strings"
)

// Validate checks a BFS result with the five rules of the Graph500
// validation (Graph500 3.0.0, "Validation"), adapted to directed graphs
// where the search follows out-edges:
//
//  1. the BFS tree is a tree and has no cycles: the root is its own parent
//     and the only vertex at level 0, and (with rule 2) following parents
//     lowers the level by one at every step, so every chain ends at the
//     root;
//  2. each tree edge connects vertices whose levels differ by exactly
//     one: level(parent(v)) = level(v)-1;
//  3. every edge of the graph connects vertices whose levels differ by at
//     most one, or that are both outside the tree; for a directed edge
//     u->v from a reached u this is level(v) <= level(u)+1 (a directed
//     edge may lead back to any lower level). For undirected graphs both
//     orientations are checked, which is the Graph500 rule;
//  4. the tree spans the whole component of the root: no edge leads from
//     a reached vertex to an unreached one, and a vertex has a parent if
//     and only if it has a level;
//  5. a vertex and its parent are joined by an edge of the graph
//     (parent(v) -> v).
//
// It is collective: the levels of the ghosts come from one halo
// exchange. Every rank returns the same error, naming the rule and the
// first violations found.
func Validate(g *Graph, res *BFSResult) error {
	n := g.NumLocal
	var bad []string
	fail := func(rule int, format string, args ...any) {
		if len(bad) < 4 {
			bad = append(bad, fmt.Sprintf("rule %d: ", rule)+fmt.Sprintf(format, args...))
		}
	}
	lv := make([]int64, g.NumSlots())
	if len(res.Level) != n || len(res.Parent) != n {
		fail(0, "result has %d levels and %d parents for %d local vertices", len(res.Level), len(res.Parent), n)
	} else {
		copy(lv, res.Level)
	}
	if err := Exchange(g, lv); err != nil {
		return err
	}
	root, err := findRoot(g, res.Root)
	if err != nil {
		return err
	}
	for i := 0; i < n && len(res.Parent) == n; i++ {
		l, p := lv[i], res.Parent[i]
		reached := l != Unreached
		switch {
		case reached != (p >= 0):
			fail(4, "vertex %d has level %d but parent %d", g.ID[i], l, p)
			continue
		case i == root:
			if l != 0 || p != g.GID[i] {
				fail(1, "root %d has level %d and parent %d, want 0 and itself", g.ID[i], l, p)
			}
		case reached:
			if l <= 0 {
				fail(1, "vertex %d is not the root but has level %d", g.ID[i], l)
			}
			ps := int32(-1)
			for _, s := range g.In[g.InOff[i]:g.InOff[i+1]] {
				if g.GID[s] == p {
					ps = s
					break
				}
			}
			if ps < 0 {
				fail(5, "vertex %d has parent #%d, which has no edge to it", g.ID[i], p)
			} else if lv[ps] != l-1 {
				fail(2, "tree edge %d -> %d joins levels %d and %d", g.ID[ps], g.ID[i], lv[ps], l)
			}
		}
		if !reached {
			continue
		}
		for _, s := range g.Out[g.OutOff[i]:g.OutOff[i+1]] {
			switch {
			case lv[s] == Unreached:
				fail(4, "edge %d -> %d leaves the tree: %d is reachable but has no level", g.ID[i], g.ID[s], g.ID[s])
			case lv[s] > l+1:
				fail(3, "edge %d -> %d joins levels %d and %d", g.ID[i], g.ID[s], l, lv[s])
			}
		}
	}
	msgs, err := g.comm.Allgatherv([]byte(strings.Join(bad, "; ")))
	if err != nil {
		return err
	}
	var all []string
	for _, m := range msgs {
		if len(m) > 0 {
			all = append(all, string(m))
		}
	}
	if len(all) > 0 {
		return fmt.Errorf("olap: BFS from %d fails validation: %s", res.Root, strings.Join(all, "; "))
	}
	return nil
}
