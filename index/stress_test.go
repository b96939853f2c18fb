package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/gdi-go/gdi/internal/ranktest"
	"github.com/gdi-go/gdi/rma"
)

// TestStress has several goroutines of every rank insert, delete, batch and
// scan in every rank's parts of two trees at once. Each goroutine owns a key
// range and keeps a model of its keys per part; since only it writes them,
// a scan of its range must match its model exactly, whatever the others do
// meanwhile, and a scan of anything must come out sorted without
// duplicates. At the end every rank checks every part, structure and
// contents, against the union of all models, and after Drop every node is
// free again.
func TestStress(t *testing.T) {
	const goroutines, keysEach, vals = 4, 24, 3
	ops := ranktest.Iterations(500, 3000)
	ranktest.ForRanks(t, func(c rma.Comm) error {
		return withForest(c, Config{NodeSize: 256, Nodes: 4096, MaxKey: 16, Trees: 4}, func(f *Forest) error {
			total, err := f.FreeNodes(c.Rank())
			if err != nil {
				return err
			}
			var trees [2]Tree
			for i := range trees {
				if trees[i], err = f.Create(); err != nil {
					return err
				}
			}
			// models[g][tree][rank] is goroutine g's entries in that part.
			models := make([][2][]model, goroutines)
			errs := make([]error, goroutines)
			var wg sync.WaitGroup
			for g := range goroutines {
				models[g] = [2][]model{make([]model, c.Size()), make([]model, c.Size())}
				wg.Go(func() {
					errs[g] = stressWorker(f, c, trees, g, keysEach, vals, ops, models[g])
				})
			}
			wg.Wait()
			if err := rma.Agree(c, errors.Join(errs...)); err != nil {
				return err
			}
			for ti, tr := range trees {
				// The union of every goroutine's model of each part.
				want := make([]model, c.Size())
				for r := range c.Size() {
					var mine []byte
					for g := range goroutines {
						mine = appendEntries(mine, models[g][ti][r])
					}
					all, err := c.Allgatherv(mine)
					if err != nil {
						return err
					}
					for _, b := range all {
						want[r] = append(want[r], decodeEntries(b)...)
					}
					slices.SortFunc(want[r], cmpEntry)
				}
				size := 0
				for r := range c.Size() {
					size += len(want[r])
					if _, err := verify(f, tr, r); err != nil {
						return fmt.Errorf("tree %d part %d: %w", ti, r, err)
					}
					got, err := collect(f, tr, r, nil, nil)
					if err != nil {
						return err
					}
					if err := sameEntries(got, want[r]); err != nil {
						return fmt.Errorf("tree %d part %d: %w", ti, r, err)
					}
				}
				if size < c.Size()*goroutines*keysEach/2 {
					return fmt.Errorf("only %d entries in tree %d: the test hardly filled it", size, ti)
				}
			}
			if err := c.Barrier(); err != nil {
				return err
			}
			for _, tr := range trees {
				if err := f.Drop(tr); err != nil {
					return err
				}
			}
			if free, err := f.FreeNodes(c.Rank()); err != nil || free != total {
				return fmt.Errorf("after Drop %d of %d nodes free, %v", free, total, err)
			}
			return nil
		})
	})
}

func stressKey(rank, g, k int) string { return fmt.Sprintf("r%d/g%d/%04d", rank, g, k) }

func stressWorker(f *Forest, c rma.Comm, trees [2]Tree, g, keysEach, vals, ops int, models [2][]model) error {
	rng := rand.New(rand.NewPCG(uint64(c.Rank())+1, uint64(g)+100))
	prefix := fmt.Sprintf("r%d/g%d/", c.Rank(), g)
	for i := range ops {
		ti, r := rng.IntN(2), rng.IntN(c.Size())
		tr, m := trees[ti], &models[ti][r]
		e := entry{stressKey(c.Rank(), g, rng.IntN(keysEach)), uint64(rng.IntN(vals))}
		switch rng.IntN(8) {
		case 0, 1, 2:
			added, err := f.Insert(tr, r, []byte(e.k), e.v)
			if want := m.insert(e); err != nil || added != want {
				return fmt.Errorf("op %d: Insert(%q, %d) on rank %d = %v, %v; want %v", i, e.k, e.v, r, added, err, want)
			}
		case 3, 4:
			found, err := f.Delete(tr, r, []byte(e.k), e.v)
			if want := m.delete(e); err != nil || found != want {
				return fmt.Errorf("op %d: Delete(%q, %d) on rank %d = %v, %v; want %v", i, e.k, e.v, r, found, err, want)
			}
		case 5:
			batch := make([]Op, 1+rng.IntN(8))
			for j := range batch {
				o := entry{stressKey(c.Rank(), g, rng.IntN(keysEach)), uint64(rng.IntN(vals))}
				batch[j] = Op{Delete: rng.IntN(3) == 0, Key: []byte(o.k), Val: o.v}
				if batch[j].Delete {
					m.delete(o)
				} else {
					m.insert(o)
				}
			}
			if err := f.Apply(tr, r, batch); err != nil {
				return fmt.Errorf("op %d: Apply on rank %d: %w", i, r, err)
			}
		case 6:
			// Our own range: exactly our model.
			got, err := collect(f, tr, r, []byte(prefix), []byte(prefix+"\xff"))
			if err != nil {
				return err
			}
			if err := sameEntries(got, *m); err != nil {
				return fmt.Errorf("op %d: scan of own keys on rank %d: %w", i, r, err)
			}
		case 7:
			// Anyone's range: sorted, no duplicates, well-formed.
			lo := []byte(stressKey(rng.IntN(c.Size()), rng.IntN(4), rng.IntN(keysEach)))
			var prev *entry
			var bad error
			err := f.Scan(tr, r, lo, nil, func(k []byte, v uint64) bool {
				e := entry{string(k), v}
				if prev != nil && cmpEntry(*prev, e) >= 0 || string(k) < string(lo) || v >= uint64(vals) {
					bad = fmt.Errorf("scan from %q on rank %d: %q/%d after %v", lo, r, k, v, prev)
					return false
				}
				prev = &e
				return true
			})
			if err := errors.Join(err, bad); err != nil {
				return err
			}
		}
	}
	return nil
}

func appendEntries(b []byte, m model) []byte {
	for _, e := range m {
		b = binary.AppendUvarint(b, uint64(len(e.k)))
		b = append(b, e.k...)
		b = binary.AppendUvarint(b, e.v)
	}
	return b
}

func decodeEntries(b []byte) []entry {
	var out []entry
	for len(b) > 0 {
		n, w := binary.Uvarint(b)
		k := string(b[w : w+int(n)])
		b = b[w+int(n):]
		v, w := binary.Uvarint(b)
		b = b[w:]
		out = append(out, entry{k, v})
	}
	return out
}
