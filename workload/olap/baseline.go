package olap

import (
	"fmt"
	"slices"
)

// CSR is a whole graph as plain compressed sparse rows in one process,
// outside any database: the baseline that the algorithms on an extracted
// Graph are measured against (gdi bench olap -baseline csr). Vertices are
// 0 … N-1.
type CSR struct {
	N        int
	Directed bool
	// The neighbours of v are Out[OutOff[v]:OutOff[v+1]] (In likewise).
	// In an undirected graph every edge is an out- and in-edge of both
	// ends, and In shares Out's arrays.
	OutOff, InOff []int64
	Out, In       []uint32
}

// BuildCSR builds the CSR of the edges that each(fn) passes to fn, over
// vertices 0 … n-1. It calls each twice: once to count, once to fill.
func BuildCSR(n int, directed bool, each func(fn func(u, v uint64))) (*CSR, error) {
	if n <= 0 || n > 1<<32 {
		return nil, fmt.Errorf("olap: a CSR of %d vertices", n)
	}
	g := &CSR{N: n, Directed: directed, OutOff: make([]int64, n+1)}
	var bad error
	each(func(u, v uint64) {
		if u >= uint64(n) || v >= uint64(n) {
			bad = fmt.Errorf("olap: edge (%d, %d) outside %d vertices", u, v, n)
			return
		}
		g.OutOff[u+1]++
		if !directed {
			g.OutOff[v+1]++
		}
	})
	if bad != nil {
		return nil, bad
	}
	for v := range n {
		g.OutOff[v+1] += g.OutOff[v]
	}
	g.Out = make([]uint32, g.OutOff[n])
	next := slices.Clone(g.OutOff[:n])
	var in [][2]uint32
	each(func(u, v uint64) {
		g.Out[next[u]] = uint32(v)
		next[u]++
		if !directed {
			g.Out[next[v]] = uint32(u)
			next[v]++
		} else {
			in = append(in, [2]uint32{uint32(v), uint32(u)})
		}
	})
	if !directed {
		g.InOff, g.In = g.OutOff, g.Out
		return g, nil
	}
	g.InOff = make([]int64, n+1)
	for _, e := range in {
		g.InOff[e[0]+1]++
	}
	for v := range n {
		g.InOff[v+1] += g.InOff[v]
	}
	g.In = make([]uint32, len(in))
	copy(next, g.InOff[:n])
	for _, e := range in {
		g.In[next[e[0]]] = e[1]
		next[e[0]]++
	}
	return g, nil
}

// BFS returns the depth of every vertex from root along out-edges, -1 for
// unreached ones: a plain queue.
func (g *CSR) BFS(root int) []int32 {
	level := make([]int32, g.N)
	for i := range level {
		level[i] = -1
	}
	level[root] = 0
	queue := []uint32{uint32(root)}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, v := range g.Out[g.OutOff[u]:g.OutOff[u+1]] {
			if level[v] < 0 {
				level[v] = level[u] + 1
				queue = append(queue, v)
			}
		}
	}
	return level
}

// PageRank runs iterations of the Graphalytics PageRank (as PageRank does on
// an extracted Graph) by pulling over in-edges.
func (g *CSR) PageRank(d float64, iterations int) []float64 {
	n := float64(g.N)
	pr := make([]float64, g.N)
	contrib := make([]float64, g.N)
	for i := range pr {
		pr[i] = 1 / n
	}
	for range iterations {
		sink := 0.0
		for u := range g.N {
			if deg := g.OutOff[u+1] - g.OutOff[u]; deg > 0 {
				contrib[u] = pr[u] / float64(deg)
			} else {
				contrib[u] = 0
				sink += pr[u]
			}
		}
		base := (1-d)/n + d*sink/n
		for v := range g.N {
			sum := 0.0
			for _, u := range g.In[g.InOff[v]:g.InOff[v+1]] {
				sum += contrib[u]
			}
			pr[v] = base + d*sum
		}
	}
	return pr
}

// WCC returns, for every vertex, the smallest vertex of its weakly
// connected component: union-find with path halving.
func (g *CSR) WCC() []uint32 {
	parent := make([]uint32, g.N)
	for i := range parent {
		parent[i] = uint32(i)
	}
	find := func(x uint32) uint32 {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	for u := range g.N {
		for _, v := range g.Out[g.OutOff[u]:g.OutOff[u+1]] {
			a, b := find(uint32(u)), find(v)
			if a != b { // the smaller root wins, so roots are minima
				parent[max(a, b)] = min(a, b)
			}
		}
	}
	for v := range parent {
		parent[v] = find(uint32(v))
	}
	return parent
}
