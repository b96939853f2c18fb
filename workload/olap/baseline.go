package olap

import (
	"container/heap"
	"fmt"
	"math"
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
	// OutW are the weights of Out (SetWeights), nil before.
	OutW []float64
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

// SetWeights gives every out-edge u -> v the weight w(u, v) (in an
// undirected graph both ends see the edge as an out-edge, so w should be
// symmetric; parallel edges get the same weight).
func (g *CSR) SetWeights(w func(u, v uint32) float64) {
	g.OutW = make([]float64, len(g.Out))
	for u := range g.N {
		for k := g.OutOff[u]; k < g.OutOff[u+1]; k++ {
			g.OutW[k] = w(uint32(u), g.Out[k])
		}
	}
}

// SSSP returns the shortest distance from root along out-edges with the
// weights of SetWeights, +Inf for unreached vertices: Dijkstra with a
// binary heap, the reference for SSSP on an extracted Graph (with
// non-negative weights both find, for every vertex, the least sum over
// its paths, each sum added up along the path).
func (g *CSR) SSSP(root int) []float64 {
	dist := make([]float64, g.N)
	for i := range dist {
		dist[i] = math.Inf(1)
	}
	dist[root] = 0
	q := &distHeap{{uint32(root), 0}}
	for q.Len() > 0 {
		x := heap.Pop(q).(distItem)
		if x.d > dist[x.v] {
			continue // a stale entry
		}
		for k := g.OutOff[x.v]; k < g.OutOff[x.v+1]; k++ {
			if v, d := g.Out[k], x.d+g.OutW[k]; d < dist[v] {
				dist[v] = d
				heap.Push(q, distItem{v, d})
			}
		}
	}
	return dist
}

type distItem struct {
	v uint32
	d float64
}

// distHeap is a min-heap of tentative distances.
type distHeap []distItem

func (h distHeap) Len() int           { return len(h) }
func (h distHeap) Less(i, j int) bool { return h[i].d < h[j].d }
func (h distHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *distHeap) Push(x any)        { *h = append(*h, x.(distItem)) }
func (h *distHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// BI answers the BIQuery pattern on the CSR with the weights of SetWeights:
// the out-edges u -> v with degree(u) >= minDegree, weight > minWeight and
// degree(v) >= minDegree (a vertex's degree counts its in- and out-edges,
// a loop twice, as gdi.PropertyTypeDegree). An undirected loop, which the
// CSR lists twice among its vertex's out-edges, is one edge, as in gdi.
func (g *CSR) BI(minDegree uint64, minWeight float64) BIResult {
	degree := func(v uint32) uint64 {
		d := g.OutOff[v+1] - g.OutOff[v]
		if g.Directed {
			d += g.InOff[v+1] - g.InOff[v]
		}
		return uint64(d)
	}
	var r BIResult
	for u := range uint32(g.N) {
		if degree(u) < minDegree {
			continue
		}
		matched, loops := false, 0
		for k := g.OutOff[u]; k < g.OutOff[u+1]; k++ {
			v := g.Out[k]
			if v == u && !g.Directed {
				if loops++; loops%2 == 0 {
					continue // the second listing of an undirected loop
				}
			}
			if g.OutW[k] > minWeight && degree(v) >= minDegree {
				matched = true
				r.Edges++
				r.WeightSum += g.OutW[k]
			}
		}
		if matched {
			r.Sources++
		}
	}
	return r
}
