package olap

import (
	"fmt"
	"math"
	"slices"
)

// buildCSR fills the out- and in-adjacency of g from the edges of its
// local vertices, whose other ends have the slots slots (-1: outside the
// index, left out). Lists are in ascending order of
// slot; with weights (those of edges), the out-lists are sorted with
// their weights. Without a directed edge (directed false) every edge is
// an out- and an in-edge alike, and the in-adjacency is the out-adjacency,
// shared. It returns the error of an out-edge without a weight, if any.
func buildCSR(g *Graph, edges []rawEdge, weights []float64, slots []int32, weighted, directed bool) error {
	// The edges come by local vertex (readLocal): each list is written in
	// one sweep, in place, and only its few slots are sorted.
	g.OutOff = make([]int32, g.NumLocal+1)
	if directed {
		g.InOff = make([]int32, g.NumLocal+1)
	}
	for j, e := range edges {
		if slots[j] < 0 {
			continue // outside the index: not part of the graph
		}
		if e.out {
			g.OutOff[e.local+1]++
		}
		if e.in && directed {
			g.InOff[e.local+1]++
		}
	}
	for i := range g.NumLocal {
		g.OutOff[i+1] += g.OutOff[i]
		if directed {
			g.InOff[i+1] += g.InOff[i]
		}
	}
	g.Out = make([]int32, g.OutOff[g.NumLocal])
	if directed {
		g.In = make([]int32, g.InOff[g.NumLocal])
	}
	var w []float64
	if weighted {
		w = make([]float64, len(g.Out))
	}
	out, in := g.Out[:0], g.In[:0]
	for j, e := range edges {
		if s := slots[j]; s >= 0 {
			if e.out {
				if weighted {
					w[len(out)] = weights[j]
				}
				out = append(out, s)
			}
			if e.in && directed {
				in = append(in, s)
			}
		}
	}
	for i := range g.NumLocal {
		if directed {
			slices.Sort(g.In[g.InOff[i]:g.InOff[i+1]])
		}
		if !weighted {
			slices.Sort(g.Out[g.OutOff[i]:g.OutOff[i+1]])
		}
	}
	var err error
	if weighted {
		err = sortWeighted(g, w)
	}
	if !directed {
		g.InOff, g.In = g.OutOff, g.Out
	}
	return err
}

// sortWeighted sorts g's out-lists with their weights w into g.OutW, and
// returns the error of an edge without a weight, if any.
func sortWeighted(g *Graph, w []float64) error {
	type arc struct {
		s int32
		w float64
	}
	g.OutW = w
	var missing error
	var list []arc
	for i := range g.NumLocal {
		lo, hi := g.OutOff[i], g.OutOff[i+1]
		list = list[:0]
		for k := lo; k < hi; k++ {
			list = append(list, arc{g.Out[k], w[k]})
		}
		slices.SortFunc(list, func(a, b arc) int { return int(a.s - b.s) })
		for k, a := range list {
			g.Out[int(lo)+k], g.OutW[int(lo)+k] = a.s, a.w
			if math.IsNaN(a.w) && missing == nil {
				missing = fmt.Errorf("olap: edge %d -> %d has no weight", g.ID[i], g.ID[a.s])
			}
		}
	}
	return missing
}
