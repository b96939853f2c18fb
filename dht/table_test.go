package dht_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gdi-go/gdi/dht"
	"github.com/gdi-go/gdi/internal/ranktest"
	"github.com/gdi-go/gdi/rma"
)

func withTable(c rma.Comm, cfg dht.Config, fn func(t *dht.Table) error) error {
	t, err := dht.New(c, cfg)
	if err != nil {
		return err
	}
	return errors.Join(fn(t), t.Free())
}

// lookupWant checks Lookup, Lookup after a Prefetch, and LookupBuf with a
// scratch buffer of its own (left dirty by the lookup before) and with one
// too short to use.
func lookupWant(t *dht.Table, label uint32, key string, want uint64, wantFound bool) error {
	scratch := make([]byte, t.EntrySize())
	for i := range scratch {
		scratch[i] = 0xa5
	}
	for _, l := range []struct {
		name string
		fn   func() (uint64, bool, error)
	}{
		{"Lookup", func() (uint64, bool, error) { return t.Lookup(label, []byte(key)) }},
		{"LookupBuf", func() (uint64, bool, error) { return t.LookupBuf(label, []byte(key), scratch) }},
		{"LookupBuf again", func() (uint64, bool, error) { return t.LookupBuf(label, []byte(key), scratch) }},
		{"LookupBuf, short scratch", func() (uint64, bool, error) { return t.LookupBuf(label, []byte(key), scratch[:1]) }},
		{"Prefetch, then Lookup", func() (uint64, bool, error) {
			t.Prefetch(label, []byte(key))
			return t.Lookup(label, []byte(key))
		}},
	} {
		v, found, err := l.fn()
		if err != nil {
			return fmt.Errorf("%s(%d, %q): %w", l.name, label, key, err)
		}
		if found != wantFound || v != want && wantFound {
			return fmt.Errorf("%s(%d, %q) = %d, %v; want %d, %v", l.name, label, key, v, found, want, wantFound)
		}
	}
	return nil
}

// TestSemantics checks each operation's results on a table small enough
// that many keys share a bucket.
func TestSemantics(t *testing.T) {
	ranktest.ForRanks(t, func(c rma.Comm) error {
		return withTable(c, dht.Config{Buckets: 2, Entries: 64, MaxKey: 16}, func(tb *dht.Table) error {
			if c.Rank() == 0 {
				for i := range 40 {
					if err := tb.Insert(uint32(i%3), []byte(fmt.Sprint("k", i)), uint64(i*10)); err != nil {
						return err
					}
				}
				for i := range 40 {
					if err := lookupWant(tb, uint32(i%3), fmt.Sprint("k", i), uint64(i*10), true); err != nil {
						return err
					}
					// Same bytes under another label are another key.
					if err := lookupWant(tb, uint32(i%3+1), fmt.Sprint("k", i), 0, false); err != nil {
						return err
					}
				}
				if err := tb.Insert(1, []byte("k1"), 99); !errors.Is(err, dht.ErrExists) {
					return fmt.Errorf("second Insert = %v, want ErrExists", err)
				}
				if err := lookupWant(tb, 1, "k1", 10, true); err != nil {
					return fmt.Errorf("a refused Insert changed the value: %w", err)
				}
				for i := 0; i < 40; i += 2 {
					ok, err := tb.Delete(uint32(i%3), []byte(fmt.Sprint("k", i)))
					if err != nil || !ok {
						return fmt.Errorf("Delete k%d = %v, %v", i, ok, err)
					}
				}
				if ok, err := tb.Delete(0, []byte("k0")); ok || err != nil {
					return fmt.Errorf("Delete of a deleted key = %v, %v", ok, err)
				}
				for i := range 40 {
					if err := lookupWant(tb, uint32(i%3), fmt.Sprint("k", i), uint64(i*10), i%2 == 1); err != nil {
						return err
					}
				}
				// Deleted keys can come back with new values.
				if err := tb.Insert(0, []byte("k0"), 7); err != nil {
					return err
				}
				if err := lookupWant(tb, 0, "k0", 7, true); err != nil {
					return err
				}
				// Empty keys and keys of exactly MaxKey bytes are fine.
				for _, k := range []string{"", strings.Repeat("x", 16)} {
					if err := tb.Insert(5, []byte(k), 1); err != nil {
						return fmt.Errorf("Insert(%q): %w", k, err)
					}
					if err := lookupWant(tb, 5, k, 1, true); err != nil {
						return err
					}
				}
				long := []byte(strings.Repeat("x", 17))
				if err := tb.Insert(5, long, 1); !errors.Is(err, dht.ErrKeyTooLong) {
					return fmt.Errorf("Insert of a long key = %v, want ErrKeyTooLong", err)
				}
				if _, _, err := tb.Lookup(5, long); !errors.Is(err, dht.ErrKeyTooLong) {
					return fmt.Errorf("Lookup of a long key = %v, want ErrKeyTooLong", err)
				}
				if _, err := tb.Delete(5, long); !errors.Is(err, dht.ErrKeyTooLong) {
					return fmt.Errorf("Delete of a long key = %v, want ErrKeyTooLong", err)
				}
			}
			if err := c.Barrier(); err != nil {
				return err
			}
			return checkHeap(c, tb, 40-20+1+2)
		})
	})
}

// checkHeap verifies at a quiescent point that the table holds want keys in
// all, and that every entry of every rank is either live or free.
func checkHeap(c rma.Comm, tb *dht.Table, want int) error {
	n, err := tb.Len(c.Rank())
	if err != nil {
		return err
	}
	free, err := tb.FreeEntries(c.Rank())
	if err != nil {
		return err
	}
	if n+free != tb.Capacity() {
		return fmt.Errorf("rank %d: %d live + %d free entries, want %d: entries leaked or freed twice", c.Rank(), n, free, tb.Capacity())
	}
	total := []int64{int64(n)}
	if err := c.AllreduceInt64(total, rma.OpSum); err != nil {
		return err
	}
	if total[0] != int64(want) {
		return fmt.Errorf("table holds %d keys, want %d", total[0], want)
	}
	return c.Barrier()
}

func TestFullAndConfig(t *testing.T) {
	ranktest.Run(t, 1, func(c rma.Comm) error {
		for _, cfg := range []dht.Config{{0, 4, 8}, {4, 0, 8}, {4, 4, -1}, {4, 1 << 31, 8}} {
			if _, err := dht.New(c, cfg); !errors.Is(err, dht.ErrConfig) {
				return fmt.Errorf("New(%+v) = %v, want ErrConfig", cfg, err)
			}
		}
		// One bucket: its home entries and two overflow entries.
		return withTable(c, dht.Config{Buckets: 1, Entries: 2}, func(tb *dht.Table) error {
			for i := range dht.Homes + 2 {
				if err := tb.Insert(0, []byte{byte(i)}, 1); err != nil {
					return err
				}
			}
			if err := tb.Insert(0, []byte{9}, 1); !errors.Is(err, dht.ErrFull) {
				return fmt.Errorf("Insert into a full heap = %v, want ErrFull", err)
			}
			// A refused insert of a present key on a full heap still says exists.
			if err := tb.Insert(0, []byte{1}, 1); !errors.Is(err, dht.ErrExists) {
				return fmt.Errorf("Insert of a present key = %v, want ErrExists", err)
			}
			if ok, err := tb.Delete(0, []byte{1}); !ok || err != nil {
				return fmt.Errorf("Delete = %v, %v", ok, err)
			}
			if err := tb.Insert(0, []byte{9}, 1); err != nil {
				return fmt.Errorf("Insert after a delete freed an entry: %w", err)
			}
			return checkHeap(c, tb, dht.Homes+2)
		})
	})
}

// TestPrefetchIgnoresWhatItCannotUse checks that Prefetch, a hint, takes
// keys over the limit and a freed table without complaint, and changes
// nothing: a key it was given is not there afterwards.
func TestPrefetchIgnoresWhatItCannotUse(t *testing.T) {
	ranktest.ForRanks(t, func(c rma.Comm) error {
		tb, err := dht.New(c, dht.Config{Buckets: 4, Entries: 8, MaxKey: 8})
		if err != nil {
			return err
		}
		tb.Prefetch(1, []byte("far too long a key"))
		tb.Prefetch(1, nil)
		tb.Prefetch(1, []byte("k"))
		if err := lookupWant(tb, 1, "k", 0, false); err != nil {
			return err
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		if err := tb.Free(); err != nil {
			return err
		}
		tb.Prefetch(1, []byte("k"))
		return nil
	})
}

// TestDeleteIf: DeleteIf removes a key only while it holds the value
// named, and reports whether it did.
func TestDeleteIf(t *testing.T) {
	ranktest.ForRanks(t, func(c rma.Comm) error {
		return withTable(c, dht.Config{Buckets: 4, Entries: 16}, func(tb *dht.Table) error {
			key := []byte(fmt.Sprint("key-of-", c.Rank()))
			if err := tb.Insert(2, key, 7); err != nil {
				return err
			}
			for _, step := range []struct {
				value   uint64
				deleted bool
				present bool
			}{{8, false, true}, {7, true, false}, {7, false, false}} {
				deleted, err := tb.DeleteIf(2, key, step.value)
				if err != nil || deleted != step.deleted {
					return fmt.Errorf("DeleteIf(%q, %d) = %v, %v; want %v", key, step.value, deleted, err, step.deleted)
				}
				if err := lookupWant(tb, 2, string(key), 7, step.present); err != nil {
					return err
				}
			}
			return c.Barrier()
		})
	})
}

// TestSwap: Swap replaces a value only from the value it holds, finds an
// absent key absent, and a Lookup sees the new value.
func TestSwap(t *testing.T) {
	ranktest.ForRanks(t, func(c rma.Comm) error {
		return withTable(c, dht.Config{Buckets: 4, Entries: 16}, func(tb *dht.Table) error {
			key := []byte(fmt.Sprint("key-of-", c.Rank()))
			if swapped, found, err := tb.Swap(2, key, 7, 9); err != nil || swapped || found {
				return fmt.Errorf("Swap of an absent key = %v, %v, %v", swapped, found, err)
			}
			if err := tb.Insert(2, key, 7); err != nil {
				return err
			}
			for _, step := range []struct {
				old, new uint64
				swapped  bool
				now      uint64
			}{{8, 9, false, 7}, {7, 9, true, 9}, {7, 10, false, 9}, {9, 11, true, 11}} {
				swapped, found, err := tb.Swap(2, key, step.old, step.new)
				if err != nil || !found || swapped != step.swapped {
					return fmt.Errorf("Swap(%q, %d, %d) = %v, %v, %v; want %v", key, step.old, step.new, swapped, found, err, step.swapped)
				}
				if err := lookupWant(tb, 2, string(key), step.now, true); err != nil {
					return err
				}
			}
			return c.Barrier()
		})
	})
}
