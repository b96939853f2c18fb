package olap

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortedCSR: every vertex gets exactly its arcs, in ascending order
// of slot (duplicates kept), for random arcs and for none.
func TestSortedCSR(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 50 {
		nl, ns := 1+rng.IntN(30), 0
		ns = nl + rng.IntN(20)
		m := rng.IntN(200)
		if round == 0 {
			m = 0
		}
		v, s := make([]int32, m), make([]int32, m)
		want := make([][]int32, nl)
		for k := range m {
			v[k], s[k] = int32(rng.IntN(nl)), int32(rng.IntN(ns))
			want[v[k]] = append(want[v[k]], s[k])
		}
		off, adj := sortedCSR(nl, ns, v, s)
		if len(off) != nl+1 || len(adj) != m {
			t.Fatalf("round %d: %d offsets, %d arcs; want %d, %d", round, len(off), len(adj), nl+1, m)
		}
		for i := range nl {
			slices.Sort(want[i])
			if got := adj[off[i]:off[i+1]]; !slices.Equal(got, want[i]) && len(got)+len(want[i]) > 0 {
				t.Fatalf("round %d: vertex %d has %v, want %v", round, i, got, want[i])
			}
		}
	}
}
