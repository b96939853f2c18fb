package generator

import (
	"io"
	"slices"
	"testing"
)

func mustNew(t testing.TB, cfg Config) *Graph {
	t.Helper()
	g, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestScrambleIsBijection(t *testing.T) {
	for _, scale := range []int{1, 2, 3, 7, 12, 16} {
		g := mustNew(t, Config{Scale: scale, EdgeFactor: 1, Seed: uint64(scale)})
		seen := make([]bool, g.NumVertices())
		for x := range g.NumVertices() {
			y := g.Scramble(x)
			if y >= g.NumVertices() || seen[y] {
				t.Fatalf("scale %d: Scramble(%d) = %d: out of range or taken", scale, x, y)
			}
			seen[y] = true
			if back := g.Unscramble(y); back != x {
				t.Fatalf("scale %d: Unscramble(Scramble(%d)) = %d", scale, x, back)
			}
		}
	}
	g := mustNew(t, Config{Scale: 40, EdgeFactor: 1, Seed: 5})
	for x := uint64(0); x < 1<<40; x += 1<<40/1000 + 12345 {
		if y := g.Scramble(x); y >= 1<<40 || g.Unscramble(y) != x {
			t.Fatalf("scale 40: Scramble(%d) = %d, back %d", x, y, g.Unscramble(y))
		}
	}
}

func TestConfigErrors(t *testing.T) {
	bad := []Config{
		{Scale: 0, EdgeFactor: 16},
		{Scale: MaxScale + 1, EdgeFactor: 16},
		{Scale: 10, EdgeFactor: 0},
		{Scale: 10, EdgeFactor: -3},
		{Scale: 40, EdgeFactor: 1 << 20},
		{Scale: 10, EdgeFactor: 16, Scheme: &Scheme{}},
	}
	for _, cfg := range bad {
		if _, err := New(cfg); err == nil {
			t.Errorf("New(%+v) succeeded", cfg)
		}
	}
}

// edgesOnRanks generates the edge list as size ranks would, each its
// RankSlice, concatenated in rank order.
func edgesOnRanks(g *Graph, size int) [][2]uint64 {
	var out [][2]uint64
	for r := range size {
		lo, hi := g.RankSlice(r, size)
		us, vs := make([]uint64, hi-lo), make([]uint64, hi-lo)
		g.Fill(lo, us, vs)
		for k := range us {
			out = append(out, [2]uint64{us[k], vs[k]})
		}
	}
	return out
}

func TestSameEdgesForAnyRanks(t *testing.T) {
	g := mustNew(t, Config{Scale: 12, EdgeFactor: 16, Seed: 42})
	one := edgesOnRanks(g, 1)
	if uint64(len(one)) != g.NumEdges() {
		t.Fatalf("%d edges, want %d", len(one), g.NumEdges())
	}
	for _, size := range []int{2, 3, 4, 7} {
		if !slices.Equal(one, edgesOnRanks(g, size)) {
			t.Errorf("the edge list on %d ranks differs from that on 1", size)
		}
	}
	us, vs := make([]uint64, g.NumEdges()), make([]uint64, g.NumEdges())
	g.FillParallel(0, us, vs, 3)
	for k := range us {
		if one[k] != [2]uint64{us[k], vs[k]} {
			t.Fatalf("FillParallel differs from Fill at edge %d", k)
		}
	}
	var viaRange [][2]uint64
	g.EdgesRange(0, g.NumEdges(), func(i, u, v uint64) {
		if i != uint64(len(viaRange)) {
			t.Fatalf("EdgesRange gave edge %d at position %d", i, len(viaRange))
		}
		viaRange = append(viaRange, [2]uint64{u, v})
	})
	if !slices.Equal(one, viaRange) {
		t.Error("EdgesRange differs from Fill")
	}
	other := mustNew(t, Config{Scale: 12, EdgeFactor: 16, Seed: 43})
	if slices.Equal(one, edgesOnRanks(other, 1)) {
		t.Error("seeds 42 and 43 give the same graph")
	}
}

func TestSplit(t *testing.T) {
	for _, n := range []uint64{0, 1, 5, 100, 1 << 40} {
		for size := 1; size <= 9; size++ {
			next := uint64(0)
			for r := range size {
				lo, hi := Split(n, r, size)
				if lo != next || hi < lo || hi-lo > n/uint64(size)+1 {
					t.Fatalf("Split(%d, %d, %d) = [%d, %d), want start %d", n, r, size, lo, hi, next)
				}
				next = hi
			}
			if next != n {
				t.Fatalf("Split(%d, *, %d) ends at %d", n, size, next)
			}
		}
	}
}

// BenchmarkGenerate measures the bare edge generator on one goroutine:
// Fill into slices, scale 26 (26 levels per edge). edges/s is by wall
// clock; edges/cpu-s by the CPU time of the process, which is the rate per
// core when the machine is shared with other work.
func BenchmarkGenerate(b *testing.B) {
	g := mustNew(b, Config{Scale: 26, EdgeFactor: 16, Seed: 1})
	const batch = 1 << 12
	us, vs := make([]uint64, batch), make([]uint64, batch)
	var i uint64
	cpu := cpuTime()
	for b.Loop() {
		g.Fill(i%g.NumEdges(), us, vs)
		i += batch
	}
	cpu = cpuTime() - cpu
	b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "edges/s")
	if cpu > 0 {
		b.ReportMetric(float64(i)/cpu.Seconds(), "edges/cpu-s")
	}
}

// BenchmarkGenerateParallel measures FillParallel on all cores.
func BenchmarkGenerateParallel(b *testing.B) {
	g := mustNew(b, Config{Scale: 26, EdgeFactor: 16, Seed: 1})
	const batch = 1 << 18
	us, vs := make([]uint64, batch), make([]uint64, batch)
	var i uint64
	for b.Loop() {
		g.FillParallel(i%g.NumEdges(), us, vs, 0)
		i += batch
	}
	b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "edges/s")
}

// BenchmarkWriteEdges measures the text edge list (generation, formatting
// and ordering on all cores) into io.Discard, at scale 20.
func BenchmarkWriteEdges(b *testing.B) {
	g := mustNew(b, Config{Scale: 20, EdgeFactor: 16, Seed: 1})
	for b.Loop() {
		if err := g.WriteEdges(io.Discard, 0, g.NumEdges(), WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(uint64(b.N)*g.NumEdges())/b.Elapsed().Seconds(), "edges/s")
}
