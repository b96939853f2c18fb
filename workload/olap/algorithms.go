package olap

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/gdi-go/gdi/rma"
)

// Unreached is the BFS level (and k-hop depth) of a vertex the search did
// not reach: Long.MAX_VALUE, as Graphalytics writes it.
const Unreached = math.MaxInt64

// BFSResult is one rank's part of a breadth-first search.
type BFSResult struct {
	// Root is the application-level ID of the source.
	Root uint64
	// Level is the depth of every local vertex, Unreached if not reached.
	Level []int64
	// Parent is the global number of the BFS-tree parent of every local
	// vertex: the root's own number for the root, -1 if not reached.
	Parent []int64
}

// BFS searches from the vertex with application-level ID root along
// out-edges (both ways for undirected edges). It is collective.
func BFS(g *Graph, root uint64) (*BFSResult, error) { return bfs(g, root, math.MaxInt64) }

// KHop returns the number of vertices within 1..k hops of root (along
// out-edges; the root itself is not counted) over all ranks, and the
// application-level IDs of the local ones. It is collective.
func KHop(g *Graph, root uint64, k int) (count int64, local []uint64, err error) {
	if k < 0 {
		return 0, nil, fmt.Errorf("olap: k-hop with k = %d", k)
	}
	res, err := bfs(g, root, int64(k))
	if err != nil {
		return 0, nil, err
	}
	for i, l := range res.Level {
		if l >= 1 && l <= int64(k) {
			local = append(local, g.ID[i])
		}
	}
	count, err = sumInt64(g, int64(len(local)))
	return count, local, err
}

// findRoot returns the local index of root (-1 if not local) and checks
// that exactly one rank has it.
func findRoot(g *Graph, root uint64) (int, error) {
	i := g.LocalOf(root)
	found := int64(0)
	if i >= 0 {
		found = 1
	}
	total, err := sumInt64(g, found)
	if err != nil {
		return -1, err
	}
	if total != 1 {
		return -1, fmt.Errorf("olap: source vertex %d is not in the graph", root)
	}
	return i, nil
}

// bfs is a level-synchronous push BFS that stops after maxDepth levels.
// Discoveries of remote vertices are batched per owner and delivered with
// one Alltoallv per level; a ghost is sent at most once.
func bfs(g *Graph, root uint64, maxDepth int64) (*BFSResult, error) {
	n := g.NumLocal
	res := &BFSResult{Root: root, Level: make([]int64, n), Parent: make([]int64, n)}
	for i := range n {
		res.Level[i], res.Parent[i] = Unreached, -1
	}
	r, err := findRoot(g, root)
	if err != nil {
		return nil, err
	}
	var frontier, next []int32
	if r >= 0 {
		res.Level[r], res.Parent[r] = 0, g.GID[r]
		frontier = append(frontier, int32(r))
	}
	sent := make([]bool, g.NumSlots()-n)
	b := newBatches[int64](g)
	for depth := int64(0); depth < maxDepth; depth++ {
		next = next[:0]
		for _, v := range frontier {
			for _, s := range g.Out[g.OutOff[v]:g.OutOff[v+1]] {
				switch {
				case int(s) >= n:
					if !sent[int(s)-n] {
						sent[int(s)-n] = true
						b.add(s, g.GID[v])
					}
				case res.Level[s] == Unreached:
					res.Level[s], res.Parent[s] = depth+1, g.GID[v]
					next = append(next, s)
				}
			}
		}
		err := b.deliver(func(i int, parent int64) {
			if res.Level[i] == Unreached {
				res.Level[i], res.Parent[i] = depth+1, parent
				next = append(next, int32(i))
			}
		})
		if err != nil {
			return nil, err
		}
		total, err := sumInt64(g, int64(len(next)))
		if err != nil {
			return nil, err
		}
		g.endRound()
		if total == 0 {
			break
		}
		frontier, next = next, frontier
	}
	return res, nil
}

// PageRank runs exactly iterations synchronous iterations of the
// Graphalytics PageRank with damping factor d and returns the values of the
// local vertices. The rank of sinks is spread evenly over all vertices.
// Each iteration is a pull over in-edges after one halo exchange of
// PR(u)/|Nout(u)|, plus one Allreduce of the sink mass. It is collective.
func PageRank(g *Graph, d float64, iterations int) ([]float64, error) {
	n := g.NumLocal
	nv := float64(g.N)
	pr := make([]float64, n)
	for i := range pr {
		pr[i] = 1 / nv
	}
	contrib := make([]float64, g.NumSlots())
	next := make([]float64, n)
	for it := 0; it < iterations; it++ {
		sink := []float64{0}
		for i := range n {
			if deg := g.OutDegree(i); deg == 0 {
				sink[0] += pr[i]
				contrib[i] = 0
			} else {
				contrib[i] = pr[i] / float64(deg)
			}
		}
		if err := g.comm.AllreduceFloat64(sink, rma.OpSum); err != nil {
			return nil, err
		}
		if err := Exchange(g, contrib); err != nil {
			return nil, err
		}
		base := (1-d)/nv + d*sink[0]/nv
		for i := range n {
			sum := 0.0
			for _, u := range g.In[g.InOff[i]:g.InOff[i+1]] {
				sum += contrib[u]
			}
			next[i] = base + d*sum
		}
		pr, next = next, pr
		g.endRound()
	}
	return pr, nil
}

// WCC labels every local vertex with the smallest application-level ID of
// its weakly connected component, by min-label propagation over in- and
// out-edges: a halo exchange and an Allreduce per round until no label
// changes. It is collective.
func WCC(g *Graph) ([]uint64, error) {
	labels := slices.Clone(g.ID)
	for {
		if err := Exchange(g, labels); err != nil {
			return nil, err
		}
		changed := int64(0)
		for i := range g.NumLocal {
			m := labels[i]
			for _, s := range g.Out[g.OutOff[i]:g.OutOff[i+1]] {
				m = min(m, labels[s])
			}
			for _, s := range g.In[g.InOff[i]:g.InOff[i+1]] {
				m = min(m, labels[s])
			}
			if m < labels[i] {
				labels[i] = m
				changed++
			}
		}
		total, err := sumInt64(g, changed)
		if err != nil {
			return nil, err
		}
		g.endRound()
		if total == 0 {
			return labels[:g.NumLocal], nil
		}
	}
}

// CDLP runs at most maxIterations synchronous iterations of Graphalytics
// label propagation: each vertex takes the most frequent label among its
// in- and out-neighbours (a neighbour on edges in both directions counts
// twice), ties going to the smallest label; a vertex without neighbours
// keeps its label. It stops early when no label changes, which gives the
// same result. It is collective.
func CDLP(g *Graph, maxIterations int) ([]uint64, error) {
	labels := slices.Clone(g.ID)
	next := make([]uint64, g.NumLocal)
	var scratch []uint64
	for it := 0; it < maxIterations; it++ {
		if err := Exchange(g, labels); err != nil {
			return nil, err
		}
		changed := int64(0)
		for i := range g.NumLocal {
			scratch = scratch[:0]
			for _, s := range g.Out[g.OutOff[i]:g.OutOff[i+1]] {
				scratch = append(scratch, labels[s])
			}
			for _, s := range g.In[g.InOff[i]:g.InOff[i+1]] {
				scratch = append(scratch, labels[s])
			}
			next[i] = labels[i]
			if len(scratch) > 0 {
				next[i] = mode(scratch)
			}
			if next[i] != labels[i] {
				changed++
			}
		}
		copy(labels, next)
		total, err := sumInt64(g, changed)
		if err != nil {
			return nil, err
		}
		g.endRound()
		if total == 0 {
			break
		}
	}
	return labels[:g.NumLocal], nil
}

// mode returns the most frequent value of xs, the smallest among ties. It
// sorts xs.
func mode(xs []uint64) uint64 {
	slices.Sort(xs)
	best, bestN := xs[0], 0
	for i := 0; i < len(xs); {
		j := i
		for j < len(xs) && xs[j] == xs[i] {
			j++
		}
		if j-i > bestN { // strictly more: ties keep the smaller label
			best, bestN = xs[i], j-i
		}
		i = j
	}
	return best
}

// LCC returns the local clustering coefficient of every local vertex, as
// Graphalytics defines it: with N(v) the set of in- and out-neighbours,
// the number of edges (u,w) with u and w in N(v), divided by
// |N(v)|(|N(v)|-1); 0 if |N(v)| < 2. The out-lists of the ghosts are
// fetched once with one Alltoallv. It is collective.
func LCC(g *Graph) ([]float64, error) {
	ghostOut, err := ghostOutLists(g)
	if err != nil {
		return nil, err
	}
	n := g.NumLocal
	outOf := func(s int32) []int64 {
		if int(s) >= n {
			return ghostOut[int(s)-n]
		}
		return nil
	}
	localOut := make([][]int64, n)
	for i := range n {
		for _, s := range g.Out[g.OutOff[i]:g.OutOff[i+1]] {
			localOut[i] = append(localOut[i], g.GID[s])
		}
		slices.Sort(localOut[i])
	}
	for _, l := range ghostOut {
		slices.Sort(l)
	}
	lcc := make([]float64, n)
	var nb []int32
	var set []int64
	for v := range n {
		nb = append(append(nb[:0], g.Out[g.OutOff[v]:g.OutOff[v+1]]...), g.In[g.InOff[v]:g.InOff[v+1]]...)
		slices.Sort(nb)
		nb = slices.Compact(nb)
		nb = slices.DeleteFunc(nb, func(s int32) bool { return int(s) == v })
		d := len(nb)
		if d < 2 {
			continue
		}
		set = set[:0]
		for _, s := range nb {
			set = append(set, g.GID[s])
		}
		slices.Sort(set)
		count := 0
		for _, u := range nb {
			out := outOf(u)
			if int(u) < n {
				out = localOut[u]
			}
			count += countIn(out, set, g.GID[u])
		}
		lcc[v] = float64(count) / (float64(d) * float64(d-1))
	}
	return lcc, nil
}

// countIn counts the elements of list that are in set, but skip; both are
// sorted, set without duplicates, and an element list has twice counts
// twice. It walks the shorter one: a merge, or a search of each element
// of a much smaller set in the rest of list.
func countIn(list, set []int64, skip int64) int {
	n := 0
	if 8*len(set) < len(list) {
		for _, x := range set {
			i, _ := slices.BinarySearch(list, x)
			for ; i < len(list) && list[i] == x; i++ {
				if x != skip {
					n++
				}
			}
			list = list[i:]
		}
		return n
	}
	j := 0
	for _, x := range list {
		for j < len(set) && set[j] < x {
			j++
		}
		if j == len(set) {
			break
		}
		if set[j] == x && x != skip {
			n++
		}
	}
	return n
}

// ghostOutLists fetches the out-neighbours (global numbers) of every ghost
// from its owner.
func ghostOutLists(g *Graph) ([][]int64, error) {
	p := g.comm.Size()
	send := make([][]byte, p)
	for r, idx := range g.sendIdx {
		for _, i := range idx {
			out := g.Out[g.OutOff[i]:g.OutOff[i+1]]
			send[r] = appendU64(send[r], uint64(len(out)))
			for _, s := range out {
				send[r] = appendU64(send[r], uint64(g.GID[s]))
			}
		}
	}
	got, err := g.comm.Alltoallv(send)
	if err != nil {
		return nil, err
	}
	lists := make([][]int64, g.NumSlots()-g.NumLocal)
	for r := 0; r < p; r++ {
		b := got[r]
		for k := g.ghostOff[r]; k < g.ghostOff[r+1]; k++ {
			if len(b) < 8 {
				return nil, fmt.Errorf("olap: rank %d sent too few out-lists", r)
			}
			c := int(u64(b))
			b = b[8:]
			if len(b) < 8*c {
				return nil, fmt.Errorf("olap: rank %d sent a short out-list", r)
			}
			l := make([]int64, c)
			for j := range l {
				l[j] = int64(u64(b))
				b = b[8:]
			}
			lists[k] = l
		}
	}
	return lists, nil
}

// SSSP returns the shortest distance from root along out-edges, with the
// edge weights of the graph (Extract with a Weight property), for every
// local vertex; +Inf if unreachable. It relaxes edges in rounds from the
// vertices improved in the previous round (Bellman-Ford with an active
// set); relaxations of remote vertices are batched per owner, and a ghost
// is sent a distance only if it beats the best one sent before. It is
// collective.
func SSSP(g *Graph, root uint64) ([]float64, error) {
	if g.OutW == nil && len(g.Out) > 0 {
		return nil, errors.New("olap: SSSP needs a graph extracted with a weight property")
	}
	n := g.NumLocal
	dist := make([]float64, n)
	for i := range dist {
		dist[i] = math.Inf(1)
	}
	sentBest := make([]float64, g.NumSlots()-n)
	for i := range sentBest {
		sentBest[i] = math.Inf(1)
	}
	r, err := findRoot(g, root)
	if err != nil {
		return nil, err
	}
	var active, next []int32
	if r >= 0 {
		dist[r] = 0
		active = append(active, int32(r))
	}
	inNext := make([]bool, n)
	b := newBatches[float64](g)
	relax := func(i int, d float64) {
		if d < dist[i] {
			dist[i] = d
			if !inNext[i] {
				inNext[i] = true
				next = append(next, int32(i))
			}
		}
	}
	for {
		next = next[:0]
		for _, v := range active {
			dv := dist[v]
			for k := g.OutOff[v]; k < g.OutOff[v+1]; k++ {
				s, d := g.Out[k], dv+g.OutW[k]
				if int(s) < n {
					relax(int(s), d)
				} else if d < sentBest[int(s)-n] {
					sentBest[int(s)-n] = d
					b.add(s, d)
				}
			}
		}
		if err := b.deliver(relax); err != nil {
			return nil, err
		}
		for _, v := range next {
			inNext[v] = false
		}
		total, err := sumInt64(g, int64(len(next)))
		if err != nil {
			return nil, err
		}
		g.endRound()
		if total == 0 {
			return dist, nil
		}
		active, next = next, active
	}
}
