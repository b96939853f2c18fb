package generator

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"sync"
)

// The initiator probabilities of Graph500 3.0.0 (specification, table
// "Initiator parameters"): an edge falls into the upper-left, upper-right,
// lower-left and lower-right quadrant of the adjacency matrix with
// probability A, B, C and D = 1-(A+B+C) at each level of the recursion.
const (
	A = 0.57
	B = 0.19
	C = 0.19
	D = 1 - (A + B + C)
)

// MaxScale is the largest scale New accepts: vertex numbers and edge
// indices stay well inside uint64.
const MaxScale = 48

// Config describes a graph. The zero value of Seed is a valid seed.
type Config struct {
	// Scale is the base-2 logarithm of the number of vertices, in
	// [1, MaxScale].
	Scale int
	// EdgeFactor is the number of edges per vertex: the graph has
	// EdgeFactor·2^Scale edges. Graph500 uses 16.
	EdgeFactor int
	// Seed selects the graph. The same Config gives the same graph,
	// whatever the number of ranks and goroutines generating it.
	Seed uint64
	// Directed makes the edges directed, from the first vertex of each
	// generated pair to the second. Otherwise they are undirected.
	Directed bool
	// Scheme assigns labels and properties; nil means DefaultScheme(). It
	// must not change after New.
	Scheme *Scheme
}

// Graph generates the edges, labels and properties of the graph of a
// Config. It is immutable and safe for concurrent use.
type Graph struct {
	cfg    Config
	scheme *Scheme
	n, m   uint64 // vertices, edges
	mask   uint64 // n-1

	// thresholds of the quadrant choice on a uniform 32-bit number r:
	// r < tA: upper left; r < tAB: upper right; r < tABC: lower left;
	// else lower right.
	tA, tAB, tABC uint64

	edgeKey  uint64    // key of the counter-based edge RNG
	propKey  uint64    // key of the vertex-value RNG
	permKeys [8]uint64 // keys of the vertex scramble

	bounds []uint64 // bounds[k]: first vertex number of vertex label k+1
}

// New checks cfg and returns its graph.
func New(cfg Config) (*Graph, error) {
	if cfg.Scale < 1 || cfg.Scale > MaxScale {
		return nil, fmt.Errorf("generator: scale %d not in [1, %d]", cfg.Scale, MaxScale)
	}
	if cfg.EdgeFactor < 1 || uint64(cfg.EdgeFactor) > (1<<58)>>cfg.Scale {
		return nil, fmt.Errorf("generator: edge factor %d not in [1, 2^%d]", cfg.EdgeFactor, 58-cfg.Scale)
	}
	s := cfg.Scheme
	if s == nil {
		s = DefaultScheme()
	}
	if err := s.Validate(cfg.Directed); err != nil {
		return nil, err
	}
	g := &Graph{cfg: cfg, scheme: s, n: 1 << cfg.Scale}
	g.mask = g.n - 1
	g.m = uint64(cfg.EdgeFactor) << cfg.Scale
	g.tA = threshold(A)
	g.tAB = threshold(A + B)
	g.tABC = threshold(A + B + C)
	g.edgeKey = mix(cfg.Seed ^ 0x6b72_6f6e_6563_6b65) // "kronecke"
	g.propKey = mix(cfg.Seed ^ 0x7072_6f70_6572_7479) // "property"
	for k := range g.permKeys {
		g.permKeys[k] = mix(cfg.Seed + uint64(k+1)*0x5065_726d_7574_6521) // "Permute!"
	}
	g.bounds = s.bounds(g.n)
	return g, nil
}

// threshold maps a probability to the bound of a uniform 32-bit number.
func threshold(p float64) uint64 { return uint64(math.Round(p * (1 << 32))) }

// Config returns the configuration of g, with its Scheme filled in.
func (g *Graph) Config() Config {
	c := g.cfg
	c.Scheme = g.scheme
	return c
}

// Scheme returns the label and property scheme of g.
func (g *Graph) Scheme() *Scheme { return g.scheme }

// NumVertices is 2^Scale. Every vertex number in [0, NumVertices) is a
// vertex, isolated or not.
func (g *Graph) NumVertices() uint64 { return g.n }

// NumEdges is EdgeFactor·2^Scale.
func (g *Graph) NumEdges() uint64 { return g.m }

// mix is the finalizer of SplitMix64: a bijection of uint64 with good
// avalanche, the core of the counter-based generators below.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

const golden = 0x9e3779b97f4a7c15

// wyrand is the output function of the wyrand generator (Wang Yi, public
// domain) at state x: one 64×64→128-bit multiplication. wyrand's state
// advances by wyInc, so wyrand(key + k·wyInc) is its k-th number: a
// counter-based generator that passes BigCrush and PractRand.
func wyrand(x uint64) uint64 {
	hi, lo := bits.Mul64(x, x^0xe7037ed1a0b428db)
	return hi ^ lo
}

const wyInc = 0xa0761d6478bd642f

// Edge returns edge i, i in [0, NumEdges()): its two endpoints, vertex
// numbers in [0, NumVertices()). It depends on the seed and i only.
func (g *Graph) Edge(i uint64) (u, v uint64) {
	u, v = g.kronecker(i)
	return g.Scramble(u), g.Scramble(v)
}

// kronecker returns edge i before the scramble. Levels l and l+1 of the
// recursion (l even) use the two 32-bit halves of the counter-based random
// number wyrand(key + (i·32 + l/2 + 1)·wyInc): number i·32+l/2+1 of the
// wyrand stream of the seed, so every edge is an independent draw.
func (g *Graph) kronecker(i uint64) (u, v uint64) {
	// The row bit is r >= tA+tB; the column bit is r >= tA in the upper
	// half and r >= tA+tB+tC in the lower one. (t-1-r)>>63 is 1 exactly
	// if r >= t, without a branch, as r and t are below 2^32.
	tAB1, tA1, dt := g.tAB-1, g.tA-1, g.tABC-g.tA
	state := g.edgeKey + (i<<5)*wyInc
	scale := g.cfg.Scale
	for l := 1; l < scale; l += 2 {
		state += wyInc
		r := wyrand(state)
		lo, hi := r&0xffffffff, r>>32
		ub0 := (tAB1 - lo) >> 63
		ub1 := (tAB1 - hi) >> 63
		vb0 := (tA1 + ub0*dt - lo) >> 63
		vb1 := (tA1 + ub1*dt - hi) >> 63
		u = u<<2 | ub0<<1 | ub1
		v = v<<2 | vb0<<1 | vb1
	}
	if scale&1 != 0 {
		state += wyInc
		lo := wyrand(state) & 0xffffffff
		ub := (tAB1 - lo) >> 63
		vb := (tA1 + ub*dt - lo) >> 63
		u, v = u<<1|ub, v<<1|vb
	}
	return u, v
}

// Scramble is the vertex permutation: a keyed bijection of [0,
// NumVertices()) that takes the locality out of the Kronecker numbering
// (vertex 0 would otherwise have the highest degree). Each round multiplies
// by an odd key, adds a key and folds the high half onto the low half, all
// modulo 2^Scale, so each round, and the whole, is a bijection.
func (g *Graph) Scramble(x uint64) uint64 {
	mask := g.mask
	shift := uint(g.cfg.Scale+1) / 2
	for k := 0; k < len(g.permKeys); k += 2 {
		x = (x*(g.permKeys[k]|1) + g.permKeys[k+1]) & mask
		x ^= x >> shift
	}
	return x
}

// Unscramble is the inverse of Scramble.
func (g *Graph) Unscramble(y uint64) uint64 {
	mask := g.mask
	shift := uint(g.cfg.Scale+1) / 2
	for k := len(g.permKeys) - 2; k >= 0; k -= 2 {
		// undo y ^= y >> shift: as 2·shift >= Scale, once is enough.
		y ^= y >> shift
		y = ((y - g.permKeys[k+1]) * inverseOdd(g.permKeys[k]|1)) & mask
	}
	return y
}

// inverseOdd returns the inverse of the odd number a modulo 2^64 (Newton).
func inverseOdd(a uint64) uint64 {
	x := a // correct to 3 bits
	for range 5 {
		x *= 2 - a*x
	}
	return x
}

// EdgesRange calls fn for the edges lo <= i < hi in order (hi is capped
// at NumEdges()).
func (g *Graph) EdgesRange(lo, hi uint64, fn func(i, u, v uint64)) {
	for i := lo; i < min(hi, g.m); i++ {
		u, v := g.Edge(i)
		fn(i, u, v)
	}
}

// Fill writes edges lo, lo+1, ... into us and vs, as many as the shorter
// slice holds: the fast way to generate a slice of the edges. The indices
// must stay below NumEdges(); beyond, the "edges" are draws of the same
// model that belong to no graph.
func (g *Graph) Fill(lo uint64, us, vs []uint64) {
	n := min(len(us), len(vs))
	us, vs = us[:n], vs[:n]
	for k := range us {
		u, v := g.kronecker(lo + uint64(k))
		us[k], vs[k] = g.Scramble(u), g.Scramble(v)
	}
}

// FillParallel is Fill on workers goroutines (0: GOMAXPROCS), each
// filling a contiguous part of the slices.
func (g *Graph) FillParallel(lo uint64, us, vs []uint64, workers int) {
	n := min(len(us), len(vs))
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var wg sync.WaitGroup
	for w := range workers {
		a, b := Split(uint64(n), w, workers)
		wg.Go(func() { g.Fill(lo+a, us[a:b], vs[a:b]) })
	}
	wg.Wait()
}

// RankSlice returns the slice [lo, hi) of the edge sequence that rank
// generates out of size ranks: contiguous, disjoint, covering all edges in
// rank order, with sizes differing by at most one.
func (g *Graph) RankSlice(rank, size int) (lo, hi uint64) {
	return Split(g.m, rank, size)
}

// Split divides [0, n) into size contiguous parts in order and returns part
// rank.
func Split(n uint64, rank, size int) (lo, hi uint64) {
	if size < 1 || rank < 0 || rank >= size {
		panic(errors.New("generator: Split: rank out of range"))
	}
	q, r := n/uint64(size), n%uint64(size)
	at := func(k uint64) uint64 { return k*q + min(k, r) }
	return at(uint64(rank)), at(uint64(rank) + 1)
}
