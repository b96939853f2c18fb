package dht_test

import (
	"fmt"
	"testing"

	"github.com/gdi-go/gdi/dht"
	"github.com/gdi-go/gdi/internal/ranktest"
	"github.com/gdi-go/gdi/rma"
)

// guessWant checks Guess of one key against what Lookup knows: a Likely
// answer must carry the key's value, and Absent only a key not present.
func guessWant(tb *dht.Table, key string, want uint64, present bool) (dht.Answer, error) {
	scratch := make([]byte, tb.GuessSize(len(key)))
	v, a, err := tb.Guess(1, []byte(key), scratch)
	switch {
	case err != nil:
		return a, fmt.Errorf("Guess(%q): %w", key, err)
	case a == dht.Likely && (!present || v != want):
		return a, fmt.Errorf("Guess(%q) = %d, Likely; the table holds %d (present %v)", key, v, want, present)
	case a == dht.Absent && present:
		return a, fmt.Errorf("Guess(%q) = Absent; the table holds it", key)
	}
	return a, nil
}

// TestGuess checks Guess on a table with fewer buckets than keys (so that
// chains form), before and after deletes: it never names a wrong value or
// misses a present key, and a key in a home entry is Likely.
func TestGuess(t *testing.T) {
	ranktest.ForRanks(t, func(c rma.Comm) error {
		return withTable(c, dht.Config{Buckets: 8, Entries: 64, MaxKey: 16}, func(tb *dht.Table) error {
			if c.Rank() != 0 {
				return nil
			}
			const n = 40
			key := func(i int) string { return fmt.Sprintf("key-%d", i) }
			answers := map[dht.Answer]int{}
			for i := range n {
				if _, err := guessWant(tb, key(i), 0, false); err != nil {
					return err
				}
				if err := tb.Insert(1, []byte(key(i)), uint64(1000+i)); err != nil {
					return err
				}
			}
			for i := range n {
				a, err := guessWant(tb, key(i), uint64(1000+i), true)
				if err != nil {
					return err
				}
				answers[a]++
			}
			for i := 0; i < n; i += 2 {
				if _, err := tb.Delete(1, []byte(key(i))); err != nil {
					return err
				}
			}
			for i := range n {
				if _, err := guessWant(tb, key(i), uint64(1000+i), i%2 == 1); err != nil {
					return err
				}
			}
			// Both home entries of a bucket answer: more keys are Likely
			// than there are buckets.
			if answers[dht.Likely] <= 8 || answers[dht.Unknown] == 0 {
				return fmt.Errorf("answers %v: want the keys of home entries Likely, more than the 8 buckets, and chained keys Unknown", answers)
			}
			if _, a, err := tb.Guess(1, make([]byte, 17), nil); err == nil || a != dht.Unknown {
				return fmt.Errorf("Guess of a key over MaxKey = %v, %v; want an error", a, err)
			}
			return nil
		})
	})
}

// TestGuessAbsent: in a bucket whose chain lies within its home entries,
// a key they do not hold is Absent; once a key overflows, Unknown (the
// chain leaves the slot), and Absent again when it is deleted.
func TestGuessAbsent(t *testing.T) {
	ranktest.Run(t, 1, func(c rma.Comm) error {
		return withTable(c, dht.Config{Buckets: 1, Entries: 4, MaxKey: 16}, func(tb *dht.Table) error {
			absent := func(want dht.Answer, step string) error {
				for i := range 5 {
					a, err := guessWant(tb, fmt.Sprint("absent-", i), 0, false)
					if err != nil {
						return err
					}
					if a != want {
						return fmt.Errorf("%s: Guess of an absent key = %v, want %v", step, a, want)
					}
				}
				return nil
			}
			for i := range dht.Homes {
				if err := tb.Insert(1, []byte(fmt.Sprint("home-", i)), uint64(i)); err != nil {
					return err
				}
				if err := absent(dht.Absent, fmt.Sprintf("%d keys, in home entries", i+1)); err != nil {
					return err
				}
			}
			if err := tb.Insert(1, []byte("over"), 9); err != nil {
				return err
			}
			if err := absent(dht.Unknown, "a key in an overflow entry"); err != nil {
				return err
			}
			if ok, err := tb.Delete(1, []byte("over")); err != nil || !ok {
				return fmt.Errorf("Delete: %v %v", ok, err)
			}
			return absent(dht.Absent, "the overflowing key deleted")
		})
	})
}
