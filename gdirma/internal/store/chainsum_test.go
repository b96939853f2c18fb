package store

import (
	"slices"
	"testing"

	"github.com/gdi-go/gdi/bgdl"
)

// TestChainSum: a read of an image that spans blocks, whole or a prefix,
// gives the sum of the chain it was written over; rewritten over a
// longer or a shorter chain, the sum follows; an image in one block has
// none (its check is there instead).
func TestChainSum(t *testing.T) {
	s := newStore(t, testConfig)
	chain, _ := mustPut(t, s, 0, pattern(firstBytes+2*contBytes, 1))
	for _, mode := range []Mode{Whole, Prefix, Chain} {
		img := mustRead(t, s, chain[0], Request{Mode: mode})
		if img.ChainSum != ChainSum(chain) {
			t.Fatalf("mode %d: a read gives chain sum %#x, want that of the chain written over, %#x", mode, img.ChainSum, ChainSum(chain))
		}
	}
	more, err := acquire(s, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range [][]bgdl.DPtr{append(slices.Clone(chain), more...), chain[:2], chain[:1]} {
		l := firstBytes + (len(c)-1)*contBytes
		if _, err := rewrite(s, 0, c, Parts{Head: pattern(l, 2), Refs: -1}); err != nil {
			t.Fatal(err)
		}
		img := mustRead(t, s, chain[0], Request{Mode: Prefix})
		want := uint32(0)
		if len(c) > 1 {
			want = ChainSum(c)
		}
		if img.ChainSum != want {
			t.Errorf("rewritten over %d blocks: chain sum %#x, want %#x", len(c), img.ChainSum, want)
		}
	}
	if ChainSum(chain[:2]) == ChainSum(chain) || ChainSum(nil) == 0 {
		t.Errorf("ChainSum: a prefix of a chain sums as the chain, or an empty one sums to 0")
	}
}
