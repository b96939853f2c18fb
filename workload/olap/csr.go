package olap

import (
	"fmt"
	"math"
	"slices"
)

// sortedCSR builds the adjacency of numLocal vertices from arcs (v[k],
// s[k]), slots below numSlots: off[i]..off[i+1] are the arcs of vertex i
// in adj, each list in ascending order of slot. It sorts by counting
// twice (arcs bucketed by slot, then dealt to their vertices in slot
// order), so it costs two passes over the arcs whatever the degrees.
func sortedCSR(numLocal, numSlots int, v, s []int32) (off, adj []int32) {
	bySlot := make([]int32, numSlots+1)
	for _, x := range s {
		bySlot[x+1]++
	}
	for i := range numSlots {
		bySlot[i+1] += bySlot[i]
	}
	vs := make([]int32, len(v)) // the vertices of the arcs, by slot
	for k, x := range s {
		vs[bySlot[x]] = v[k]
		bySlot[x]++
	}
	off = make([]int32, numLocal+1)
	for _, x := range v {
		off[x+1]++
	}
	for i := range numLocal {
		off[i+1] += off[i]
	}
	at := append([]int32(nil), off[:numLocal]...)
	adj = make([]int32, len(v))
	slot, next := int32(0), bySlot[0]
	for k, x := range vs {
		for int32(k) >= next { // bySlot[i] is now where slot i+1 begins
			slot++
			next = bySlot[slot]
		}
		adj[at[x]] = slot
		at[x]++
	}
	return off, adj
}

// buildCSR fills the out- and in-adjacency of g from the edges of its
// local vertices, whose ends have the numbers ends, which slotOf maps to
// slots (-1: outside the index, left out). Lists are in ascending order of
// slot; with weights, the out-lists are sorted with their weights. It
// returns the error of an out-edge without a weight, if any.
func buildCSR(g *Graph, edges []rawEdge, slotOf, ends []int32, weighted bool) error {
	n := len(edges)
	ov, os, iv, is := make([]int32, 0, n), make([]int32, 0, n), make([]int32, 0, n), make([]int32, 0, n)
	var ow []float64
	if weighted {
		ow = make([]float64, 0, n)
	}
	for j, e := range edges {
		s := slotOf[ends[j]]
		if s < 0 {
			continue // outside the index: not part of the graph
		}
		if e.out {
			ov, os = append(ov, e.local), append(os, s)
			if weighted {
				ow = append(ow, e.w)
			}
		}
		if e.in {
			iv, is = append(iv, e.local), append(is, s)
		}
	}
	g.InOff, g.In = sortedCSR(g.NumLocal, g.NumSlots(), iv, is)
	if !weighted {
		g.OutOff, g.Out = sortedCSR(g.NumLocal, g.NumSlots(), ov, os)
		return nil
	}
	return weightedCSR(g, ov, os, ow)
}

// weightedCSR is buildCSR's out-adjacency with weights, whose arcs come
// by vertex: each list is sorted with its weights.
func weightedCSR(g *Graph, v, s []int32, w []float64) error {
	type arc struct {
		s int32
		w float64
	}
	g.OutOff, g.Out, g.OutW = make([]int32, g.NumLocal+1), make([]int32, len(v)), make([]float64, len(v))
	for _, x := range v {
		g.OutOff[x+1]++
	}
	for i := range g.NumLocal {
		g.OutOff[i+1] += g.OutOff[i]
	}
	at := append([]int32(nil), g.OutOff[:g.NumLocal]...)
	arcs := make([]arc, len(v))
	for k, x := range v {
		arcs[at[x]] = arc{s[k], w[k]}
		at[x]++
	}
	var missing error
	for i := range g.NumLocal {
		list := arcs[g.OutOff[i]:g.OutOff[i+1]]
		slices.SortFunc(list, func(a, b arc) int { return int(a.s - b.s) })
		for k, a := range list {
			g.Out[int(g.OutOff[i])+k], g.OutW[int(g.OutOff[i])+k] = a.s, a.w
			if math.IsNaN(a.w) && missing == nil {
				missing = fmt.Errorf("olap: edge %d -> %d has no weight", g.ID[i], g.ID[a.s])
			}
		}
	}
	return missing
}
