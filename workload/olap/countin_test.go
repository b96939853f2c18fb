package olap

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCountIn: countIn counts as a search of every element of list in set
// does, duplicates of list counted, skip left out, whichever of its two
// ways the sizes choose.
func TestCountIn(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 2000 {
		list := make([]int64, r.IntN(60))
		for i := range list {
			list[i] = r.Int64N(40)
		}
		set := make([]int64, r.IntN(1+trial%12))
		for i := range set {
			set[i] = r.Int64N(40)
		}
		slices.Sort(list)
		slices.Sort(set)
		set = slices.Compact(set)
		skip := r.Int64N(40)
		want := 0
		for _, x := range list {
			if slices.Contains(set, x) && x != skip {
				want++
			}
		}
		if got := countIn(list, set, skip); got != want {
			t.Fatalf("countIn(%v, %v, skip %d) = %d, want %d", list, set, skip, got, want)
		}
	}
}
