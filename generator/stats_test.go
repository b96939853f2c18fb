package generator

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

// The statistics tests compare generated graphs with the Kronecker model,
// computed analytically. Before the scramble, edge (u, v) has probability
// prod over the levels of A, B, C or D as (u_l, v_l) is 00, 01, 10 or 11,
// independently for each edge. The scramble is a bijection applied to both
// ends, so self-loops, duplicates, isolated vertices and the degree
// multiset do not change; the degree by popcount class is measured after
// Unscramble, which also checks Scramble and Unscramble against each
// other.
//
// Every statistic must lie within zTol standard deviations of its
// expectation. Where the variance is only bounded (distinct edges:
// occupancy indicators of a multinomial are negatively associated, so the
// sum of their variances bounds the variance; isolated vertices: the same
// bound, with correlations that are weak and mostly negative), the bound is
// used. With about 150 statistics checked, a false alarm at 5σ has
// probability about 1e-4 for a correct generator, and the seeds are fixed,
// so the test is deterministic. TestStatisticsDetectWrongModel shows the
// power: A = 0.58, B = 0.18 instead of 0.57, 0.19 at scale 14 moves the
// degree sum of popcount 1 by about 16σ.
const zTol = 5

// referenceKronecker is the model as the Graph500 text describes it, one
// level at a time with plain comparisons, on the same random numbers as
// kronecker.
func (g *Graph) referenceKronecker(i uint64) (u, v uint64) {
	for l := 0; l < g.cfg.Scale; l++ {
		r := wyrand(g.edgeKey + (i*32+uint64(l/2)+1)*wyInc)
		if l%2 == 1 {
			r >>= 32
		}
		r &= 0xffffffff
		var ub, vb uint64
		switch {
		case r < g.tA:
		case r < g.tAB:
			vb = 1
		case r < g.tABC:
			ub = 1
		default:
			ub, vb = 1, 1
		}
		u, v = u<<1|ub, v<<1|vb
	}
	return u, v
}

func TestKroneckerMatchesReference(t *testing.T) {
	for _, scale := range []int{1, 2, 5, 16, 31, 48} {
		g := mustNew(t, Config{Scale: scale, EdgeFactor: 1, Seed: 9})
		for i := uint64(0); i < 3000; i++ {
			u, v := g.kronecker(i)
			ru, rv := g.referenceKronecker(i)
			if u != ru || v != rv {
				t.Fatalf("scale %d edge %d: (%d, %d), reference (%d, %d)", scale, i, u, v, ru, rv)
			}
		}
	}
}

// stat is an observed statistic with its expectation and standard
// deviation (or a bound of it).
type stat struct {
	name           string
	got, want, std float64
}

func (s stat) z() float64 { return (s.got - s.want) / s.std }

// multinomials calls fn for every (a, b, c, d) summing to n with the
// multinomial coefficient n!/(a!b!c!d!).
func multinomials(n int, fn func(a, b, c, d int, coef float64)) {
	lf := func(k int) float64 { v, _ := math.Lgamma(float64(k + 1)); return v }
	for a := 0; a <= n; a++ {
		for b := 0; a+b <= n; b++ {
			for c := 0; a+b+c <= n; c++ {
				d := n - a - b - c
				fn(a, b, c, d, math.Round(math.Exp(lf(n)-lf(a)-lf(b)-lf(c)-lf(d))))
			}
		}
	}
}

// pow returns x^k.
func pow(x float64, k int) float64 { return math.Pow(x, float64(k)) }

// noneOf returns (1-p)^m accurately for small p.
func noneOf(p, m float64) float64 { return math.Exp(m * math.Log1p(-p)) }

// occupancy returns the expected number of cells hit by m draws and the sum
// of the indicator variances, for cells of probability p times count each.
type occupancy struct{ mean, vars float64 }

func (o *occupancy) add(p, count, m float64) {
	miss := noneOf(p, m)
	o.mean += count * (1 - miss)
	o.vars += count * miss * (1 - miss)
}

// kroneckerStats measures graph g and returns its statistics next to the
// model's.
func kroneckerStats(g *Graph) []stat {
	n := g.cfg.Scale
	nv, m := g.NumVertices(), g.NumEdges()
	M := float64(m)
	us, vs := make([]uint64, m), make([]uint64, m)
	g.Fill(0, us, vs)

	var stats []stat
	add := func(name string, got, want, std float64) {
		stats = append(stats, stat{name, got, want, std})
	}

	// Self-loops: P(u = v) = (A+D)^n.
	loops := 0
	deg := make([]uint64, nv)
	ordered, unordered := make([]uint64, m), make([]uint64, m)
	for k := range us {
		u, v := us[k], vs[k]
		if u == v {
			loops++
		}
		deg[u]++
		deg[v]++
		ordered[k] = u<<n | v
		unordered[k] = min(u, v)<<n | max(u, v)
	}
	p := pow(A+D, n)
	add("self-loops", float64(loops), M*p, math.Sqrt(M*p*(1-p)))

	// Duplicates: m minus the distinct pairs, ordered (as in the edge
	// list) and unordered (undirected edges).
	distinct := func(keys []uint64) float64 {
		slices.Sort(keys)
		return float64(len(slices.Compact(keys)))
	}
	var ord, unord occupancy
	multinomials(n, func(a, b, c, d int, coef float64) {
		pxy := pow(A, a) * pow(B, b) * pow(C, c) * pow(D, d)
		ord.add(pxy, coef, M)
		if b+c == 0 {
			unord.add(pxy, coef, M)
		} else {
			pyx := pow(A, a) * pow(B, c) * pow(C, b) * pow(D, d)
			unord.add(pxy+pyx, coef/2, M)
		}
	})
	add("duplicates (ordered)", M-distinct(ordered), M-ord.mean, math.Sqrt(ord.vars))
	add("duplicates (unordered)", M-distinct(unordered), M-unord.mean, math.Sqrt(unord.vars))

	// Isolated vertices: vertex x of popcount k is hit by an edge with
	// probability q = P(u=x) + P(v=x) - P(u=v=x).
	var iso occupancy
	isolated := 0
	for _, d := range deg {
		if d == 0 {
			isolated++
		}
	}
	for k := 0; k <= n; k++ {
		q := pow(A+B, n-k)*pow(C+D, k) + pow(A+C, n-k)*pow(B+D, k) - pow(A, n-k)*pow(D, k)
		iso.add(q, binomial(n, k), M)
	}
	// iso.mean counts vertices hit; isolated ones are the rest.
	add("isolated vertices", float64(isolated), float64(nv)-iso.mean, math.Sqrt(iso.vars))

	// Maximum degree: that of vertex 0 before the scramble, whose expected
	// degree is (0.76/0.24)^1 ≈ 3 times that of any other vertex. X_e =
	// [u=0] + [v=0] per edge.
	top := uint64(0)
	for x, d := range deg {
		if d > deg[top] {
			top = uint64(x)
		}
	}
	pu, pv, puv := pow(A+B, n), pow(A+C, n), pow(A, n)
	mean := pu + pv
	add("maximum degree", float64(deg[top]), M*mean, math.Sqrt(M*(pu+pv+2*puv-mean*mean)))
	if g.Unscramble(top) != 0 {
		add("vertex of maximum degree is Scramble(0)", float64(g.Unscramble(top)), 0, 1e-9)
	}

	// Degree sum by popcount class of the unscrambled vertex number. With
	// X_e = [pop u = k] + [pop v = k]: E X = P(pop u = k) + P(pop v = k),
	// E X^2 = E X + 2 P(pop u = k, pop v = k), the joint from the
	// generating function (A + B t + C s + D s t)^n.
	joint := jointPopcount(n)
	sum := make([]float64, n+1)
	for x, d := range deg {
		sum[popcount(g.Unscramble(uint64(x)))] += float64(d)
	}
	for k := 0; k <= n; k++ {
		pu := binomial(n, k) * pow(C+D, k) * pow(A+B, n-k)
		pv := binomial(n, k) * pow(B+D, k) * pow(A+C, n-k)
		ex := pu + pv
		ex2 := ex + 2*joint[k][k]
		if M*ex < 20 {
			continue // too few endpoints for the normal approximation
		}
		add(fmt.Sprintf("degree sum of popcount %d", k), sum[k], M*ex, math.Sqrt(M*(ex2-ex*ex)))
	}
	return stats
}

func binomial(n, k int) float64 {
	return math.Round(math.Exp(lgamma(n+1) - lgamma(k+1) - lgamma(n-k+1)))
}

func lgamma(k int) float64 { v, _ := math.Lgamma(float64(k)); return v }

func popcount(x uint64) int {
	c := 0
	for ; x != 0; x &= x - 1 {
		c++
	}
	return c
}

// jointPopcount returns P(pop u = i, pop v = j) for one edge of scale n.
func jointPopcount(n int) [][]float64 {
	p := [][]float64{{1}}
	for range n {
		q := make([][]float64, len(p)+1)
		for i := range q {
			q[i] = make([]float64, len(p)+1)
		}
		for i := range p {
			for j := range p[i] {
				q[i][j] += A * p[i][j]
				q[i][j+1] += B * p[i][j]
				q[i+1][j] += C * p[i][j]
				q[i+1][j+1] += D * p[i][j]
			}
		}
		p = q
	}
	return p
}

func TestKroneckerStatistics(t *testing.T) {
	for scale := 10; scale <= 16; scale++ {
		g := mustNew(t, Config{Scale: scale, EdgeFactor: 16, Seed: uint64(1000 + scale)})
		for _, s := range kroneckerStats(g) {
			if math.IsNaN(s.z()) || math.Abs(s.z()) > zTol {
				t.Errorf("scale %d: %s = %.0f, model %.1f ± %.1f (z = %.2f)", scale, s.name, s.got, s.want, s.std, s.z())
			} else if testing.Verbose() {
				t.Logf("scale %d: %s = %.0f, model %.1f ± %.1f (z = %+.2f)", scale, s.name, s.got, s.want, s.std, s.z())
			}
		}
	}
}

// TestStatisticsDetectWrongModel checks the power of the statistics test:
// a generator with A = 0.58 and B = 0.18 instead of 0.57 and 0.19 fails it.
func TestStatisticsDetectWrongModel(t *testing.T) {
	g := mustNew(t, Config{Scale: 14, EdgeFactor: 16, Seed: 1014})
	g.tA = threshold(0.58)
	worst := stat{}
	for _, s := range kroneckerStats(g) {
		if math.Abs(s.z()) > math.Abs(worst.z()) || worst.std == 0 {
			worst = s
		}
	}
	t.Logf("worst statistic: %s, z = %.1f", worst.name, worst.z())
	if math.Abs(worst.z()) <= zTol {
		t.Errorf("a wrong initiator passes: worst statistic %s has z = %.1f", worst.name, worst.z())
	}
}
