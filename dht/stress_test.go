package dht_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/gdi-go/gdi/dht"
	"github.com/gdi-go/gdi/internal/ranktest"
	"github.com/gdi-go/gdi/rma"
)

// TestStressAgainstModel runs inserts, deletes and lookups from every
// goroutine of every rank on a table with few buckets, so chains are long
// and shared. Each goroutine owns a set of keys and keeps a sequential model
// of them; it also looks up other goroutines' keys, whose values must be
// well-formed if found. At the end the table's contents, gathered from all
// ranks, must equal the union of the models, with no entry leaked.
func TestStressAgainstModel(t *testing.T) {
	const goroutines, keysEach, label = 6, 24, 7
	ops := ranktest.Iterations(600, 20000)
	ranktest.ForRanks(t, func(c rma.Comm) error {
		entries := c.Size() * goroutines * keysEach // overflow room for every key on one rank
		return withTable(c, dht.Config{Buckets: 16, Entries: entries, MaxKey: 24}, func(tb *dht.Table) error {
			models := make([]map[string]uint64, goroutines)
			errs := make([]error, goroutines)
			inserts := make([]int64, goroutines)
			var wg sync.WaitGroup
			for g := range goroutines {
				wg.Go(func() {
					models[g], inserts[g], errs[g] = stressOwner(tb, c, g, goroutines, keysEach, ops, label)
				})
			}
			wg.Wait()
			if err := errors.Join(errs...); err != nil {
				return err
			}
			total := []int64{0}
			for _, n := range inserts {
				total[0] += n
			}
			if err := c.AllreduceInt64(total, rma.OpSum); err != nil {
				return err
			}
			if total[0] < int64(c.Size()*goroutines*keysEach) {
				return fmt.Errorf("only %d inserts succeeded: the test did not exercise the table", total[0])
			}
			if err := c.Barrier(); err != nil {
				return err
			}
			// The union of all models, gathered from every rank.
			var mine []byte
			for _, m := range models {
				for k, v := range m {
					mine = appendPair(mine, k, v)
				}
			}
			all, err := c.Allgatherv(mine)
			if err != nil {
				return err
			}
			want := map[string]uint64{}
			for _, b := range all {
				decodePairs(b, want)
			}
			// The table's contents, likewise.
			var stored []byte
			err = tb.Range(c.Rank(), func(l uint32, k []byte, v uint64) error {
				if l != label {
					return fmt.Errorf("entry %q has label %d", k, l)
				}
				stored = appendPair(stored, string(k), v)
				return nil
			})
			if err != nil {
				return err
			}
			allStored, err := c.Allgatherv(stored)
			if err != nil {
				return err
			}
			got := map[string]uint64{}
			for _, b := range allStored {
				if dup := decodePairs(b, got); dup != "" {
					return fmt.Errorf("key %q is stored twice", dup)
				}
			}
			if err := sameContents(got, want); err != nil {
				return err
			}
			return checkHeap(c, tb, len(want))
		})
	})
}

func keyName(rank, g, k int) string { return fmt.Sprintf("r%d/g%d/key%d", rank, g, k) }

// value encodes the key's identity and a version, so a reader can tell a
// value that belongs to the key from a torn or misplaced one.
func value(rank, g, k, version int) uint64 {
	return uint64(rank)<<48 | uint64(g)<<40 | uint64(k)<<32 | uint64(version)
}

func stressOwner(tb *dht.Table, c rma.Comm, g, goroutines, keysEach, ops int, label uint32) (model map[string]uint64, inserts int64, err error) {
	rng := rand.New(rand.NewPCG(uint64(c.Rank())+1, uint64(g)))
	model = map[string]uint64{}
	for i := range ops {
		k := rng.IntN(keysEach)
		key := keyName(c.Rank(), g, k)
		switch rng.IntN(4) {
		case 0, 1:
			v := value(c.Rank(), g, k, i)
			err := tb.Insert(label, []byte(key), v)
			_, present := model[key]
			switch {
			case present && !errors.Is(err, dht.ErrExists):
				return nil, 0, fmt.Errorf("Insert of present %s = %v, want ErrExists", key, err)
			case !present && err != nil:
				return nil, 0, fmt.Errorf("Insert of absent %s: %w", key, err)
			case !present:
				model[key] = v
				inserts++
			}
		case 2:
			ok, err := tb.Delete(label, []byte(key))
			_, present := model[key]
			if err != nil || ok != present {
				return nil, 0, fmt.Errorf("Delete %s = %v, %v; model says present=%v", key, ok, err, present)
			}
			delete(model, key)
		case 3:
			v, found, err := tb.Lookup(label, []byte(key))
			want, present := model[key]
			if err != nil || found != present || found && v != want {
				return nil, 0, fmt.Errorf("Lookup %s = %#x, %v, %v; model has %#x, %v", key, v, found, err, want, present)
			}
		}
		// Read someone else's key: no assertion on presence, but a found
		// value must belong to that key.
		or, og, ok := rng.IntN(c.Size()), rng.IntN(goroutines), rng.IntN(keysEach)
		v, found, err := tb.Lookup(label, []byte(keyName(or, og, ok)))
		if err != nil {
			return nil, 0, err
		}
		if found && v>>32 != value(or, og, ok, 0)>>32 {
			return nil, 0, fmt.Errorf("Lookup %s found %#x, which belongs to another key", keyName(or, og, ok), v)
		}
	}
	return model, inserts, nil
}

func appendPair(b []byte, k string, v uint64) []byte {
	b = binary.AppendUvarint(b, uint64(len(k)))
	b = append(b, k...)
	return binary.LittleEndian.AppendUint64(b, v)
}

// decodePairs adds the pairs in b to m and returns a key seen twice, if any.
func decodePairs(b []byte, m map[string]uint64) (dup string) {
	for len(b) > 0 {
		n, w := binary.Uvarint(b)
		k := string(b[w : w+int(n)])
		b = b[w+int(n):]
		if _, ok := m[k]; ok {
			dup = k
		}
		m[k] = binary.LittleEndian.Uint64(b)
		b = b[8:]
	}
	return dup
}

func sameContents(got, want map[string]uint64) error {
	var missing, extra, wrong []string
	for k, v := range want {
		g, ok := got[k]
		switch {
		case !ok:
			missing = append(missing, k)
		case g != v:
			wrong = append(wrong, k)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			extra = append(extra, k)
		}
	}
	if len(missing)+len(extra)+len(wrong) > 0 {
		slices.Sort(missing)
		slices.Sort(extra)
		slices.Sort(wrong)
		return fmt.Errorf("table differs from the model: %d lost %v, %d extra %v, %d wrong values %v",
			len(missing), head(missing), len(extra), head(extra), len(wrong), head(wrong))
	}
	return nil
}

func head(s []string) []string { return s[:min(len(s), 5)] }
