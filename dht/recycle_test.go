package dht

import (
	"fmt"
	"testing"

	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// keyIn returns a key of label 1 that lives in bucket b.
func keyIn(t *Table, b int, prefix string) []byte {
	for i := 0; ; i++ {
		k := []byte(fmt.Sprint(prefix, i))
		if _, kb := t.place(Hash(1, k)); kb == b {
			return k
		}
	}
}

// TestRecycledEntryDuringLookup replays the interleaving the tags exist for.
// A lookup of k2 in the chain [k1, k2] reads the bucket's link to k1's entry
// and stalls. Meanwhile k1 is deleted and its entry is reused for a key of
// another bucket. When the lookup resumes, the entry it copies belongs to
// another chain; only revalidating the link sends it back to find k2.
//
// k2 takes bucket 0's home entry and k1 an overflow entry; a filler takes
// bucket 1's home entry, so the other key must reuse k1's overflow entry.
func TestRecycledEntryDuringLookup(t *testing.T) {
	err := local.Run(1, func(c rma.Comm) error {
		tb, err := New(c, Config{Buckets: 2, Entries: 8})
		if err != nil {
			return err
		}
		defer tb.Free()
		k2, k1 := keyIn(tb, 0, "second"), keyIn(tb, 0, "first")
		filler, other := keyIn(tb, 1, "filler"), keyIn(tb, 1, "other")
		for _, k := range [][]byte{k2, k1, filler} { // head insertion: chain is k1, k2
			if err := tb.Insert(1, k, 42); err != nil {
				return err
			}
		}
		var hookErr error
		testHookBeforeCopy = func() {
			testHookBeforeCopy = nil
			if _, err := tb.Delete(1, k1); err != nil {
				hookErr = err
				return
			}
			// The overflow heap is a stack: the entry k1 just freed is the
			// next one handed out, now at the head of bucket 1.
			hookErr = tb.Insert(1, other, 7)
		}
		defer func() { testHookBeforeCopy = nil }()
		v, found, err := tb.Lookup(1, k2)
		if hookErr != nil {
			return hookErr
		}
		if err != nil || !found || v != 42 {
			return fmt.Errorf("Lookup(k2) after its chain's head entry was recycled = %d, %v, %v; want 42, true", v, found, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
