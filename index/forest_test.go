package index

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/internal/ranktest"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/txn"
)

type entry struct {
	k string
	v uint64
}

func cmpEntry(a, b entry) int {
	if c := strings.Compare(a.k, b.k); c != 0 {
		return c
	}
	return cmp.Compare(a.v, b.v)
}

// model is the sorted set a part must equal.
type model []entry

func (m *model) insert(e entry) bool {
	i, found := slices.BinarySearchFunc(*m, e, cmpEntry)
	if !found {
		*m = slices.Insert(*m, i, e)
	}
	return !found
}

func (m *model) delete(e entry) bool {
	i, found := slices.BinarySearchFunc(*m, e, cmpEntry)
	if found {
		*m = slices.Delete(*m, i, i+1)
	}
	return found
}

// scan returns the model's entries with lo ≤ key ≤ hi (nil: open).
func (m model) scan(lo, hi []byte) []entry {
	var out []entry
	for _, e := range m {
		if (lo == nil || e.k >= string(lo)) && (hi == nil || e.k <= string(hi)) {
			out = append(out, e)
		}
	}
	return out
}

func collect(f *Forest, t Tree, rank int, lo, hi []byte) ([]entry, error) {
	var out []entry
	err := f.Scan(t, rank, lo, hi, func(k []byte, v uint64) bool {
		out = append(out, entry{string(k), v})
		return true
	})
	return out, err
}

func sameEntries(got, want []entry) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d entries, want %d (first difference %s)", len(got), len(want), firstDiff(got, want))
	}
	for i := range got {
		if got[i] != want[i] {
			return fmt.Errorf("entry %d is %q/%d, want %q/%d", i, got[i].k, got[i].v, want[i].k, want[i].v)
		}
	}
	return nil
}

func firstDiff(got, want []entry) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("at %d: %q/%d vs %q/%d", i, got[i].k, got[i].v, want[i].k, want[i].v)
		}
	}
	return fmt.Sprintf("at %d", min(len(got), len(want)))
}

// verify checks the B+tree invariants of rank's part of t, at a quiescent
// point: entries sorted and unique, every entry of child i within
// [separator i-1, separator i), all leaves at one depth, the leaf chain
// visiting the leaves in order, and the directory count matching. It
// returns the number of nodes.
func verify(f *Forest, t Tree, rank int) (nodes int, err error) {
	s := f.getScratch()
	p, err := f.open(s, t, rank, txn.Read)
	f.scratchs.Put(s)
	if err != nil {
		return 0, err
	}
	defer func() { err = errors.Join(err, f.unlock(t, rank, txn.Read)) }()
	if p.root.IsNull() {
		if p.count != 0 {
			return 0, fmt.Errorf("empty part with count %d", p.count)
		}
		return 0, nil
	}
	var leaves []bgdl.DPtr
	leafDepth := -1
	var count uint64
	type bound struct {
		k   []byte
		v   uint64
		set bool
	}
	var walk func(ptr bgdl.DPtr, depth int, lo, hi bound) error
	walk = func(ptr bgdl.DPtr, depth int, lo, hi bound) error {
		nodes++
		buf := make([]byte, f.l.bufSize())
		if err := f.readNode(buf, rank, ptr); err != nil {
			return err
		}
		kind, n := nodeKind(buf), nodeCount(buf)
		stride := f.l.stride(kind)
		for i := range n {
			k, v := key(buf, stride, i), f.l.val(buf, stride, i)
			if i > 0 && compare(key(buf, stride, i-1), f.l.val(buf, stride, i-1), k, v) >= 0 {
				return fmt.Errorf("node %v: slot %d out of order", ptr, i)
			}
			if lo.set && compare(k, v, lo.k, lo.v) < 0 || hi.set && compare(k, v, hi.k, hi.v) >= 0 {
				return fmt.Errorf("node %v: slot %d %q/%d outside its parent's bounds", ptr, i, k, v)
			}
		}
		if kind == kindLeaf {
			if leafDepth >= 0 && depth != leafDepth {
				return fmt.Errorf("leaves at depths %d and %d", leafDepth, depth)
			}
			leafDepth = depth
			leaves = append(leaves, ptr)
			count += uint64(n)
			return nil
		}
		for i := range n + 1 {
			clo, chi := lo, hi
			if i > 0 {
				clo = bound{key(buf, stride, i-1), f.l.val(buf, stride, i-1), true}
			}
			if i < n {
				chi = bound{key(buf, stride, i), f.l.val(buf, stride, i), true}
			}
			if err := walk(f.l.child(buf, i), depth+1, clo, chi); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(p.root, 0, bound{}, bound{}); err != nil {
		return nodes, err
	}
	if count != p.count {
		return nodes, fmt.Errorf("leaves hold %d entries, directory says %d", count, p.count)
	}
	buf := make([]byte, f.l.bufSize())
	for i, ptr := range leaves {
		if err := f.readNode(buf, rank, ptr); err != nil {
			return nodes, err
		}
		want := bgdl.Null
		if i+1 < len(leaves) {
			want = leaves[i+1]
		}
		if link(buf) != want {
			return nodes, fmt.Errorf("leaf %d links to %v, want %v", i, link(buf), want)
		}
	}
	return nodes, nil
}

func withForest(c rma.Comm, cfg Config, fn func(f *Forest) error) error {
	f, err := NewForest(c, cfg)
	if err != nil {
		return err
	}
	return errors.Join(fn(f), f.Free())
}

// randKey draws from a small alphabet and short lengths, so keys repeat
// (with different values) and share prefixes.
func randKey(rng *rand.Rand, maxLen int) []byte {
	k := make([]byte, rng.IntN(maxLen+1))
	for i := range k {
		k[i] = "abc\x00\xff"[rng.IntN(5)]
	}
	return k
}

// TestAgainstModel runs random inserts, deletes and scans on one part and
// compares every result with a sorted slice, for node sizes that split at
// every few entries and for large ones.
func TestAgainstModel(t *testing.T) {
	ops := ranktest.Iterations(3000, 30000)
	for _, cfg := range []Config{
		{NodeSize: 256, Nodes: 4096, MaxKey: 16},
		{NodeSize: 256, Nodes: 4096}, // MaxKey 48: three slots per node
		{NodeSize: 4096, Nodes: 256, MaxKey: 8},
	} {
		t.Run(fmt.Sprintf("node=%d,key=%d", cfg.NodeSize, cfg.MaxKey), func(t *testing.T) {
			ranktest.Run(t, 1, func(c rma.Comm) error {
				return withForest(c, cfg, func(f *Forest) error {
					return runModel(f, ops, rand.New(rand.NewPCG(uint64(cfg.NodeSize), uint64(cfg.MaxKey))))
				})
			})
		})
	}
}

func runModel(f *Forest, ops int, rng *rand.Rand) error {
	tr, err := f.Create()
	if err != nil {
		return err
	}
	var m model
	maxLen := min(f.l.maxKey, 6)
	for i := range ops {
		e := entry{string(randKey(rng, maxLen)), uint64(rng.IntN(8))}
		// Phases bias towards inserts, then deletes, so the part grows,
		// shrinks to empty and grows again.
		insertBias := 3
		if i/(ops/6)%2 == 1 {
			insertBias = 1
		}
		switch r := rng.IntN(6); {
		case r < insertBias:
			added, err := f.Insert(tr, 0, []byte(e.k), e.v)
			if want := m.insert(e); err != nil || added != want {
				return fmt.Errorf("op %d: Insert(%q, %d) = %v, %v; want %v", i, e.k, e.v, added, err, want)
			}
		case r < 4:
			found, err := f.Delete(tr, 0, []byte(e.k), e.v)
			if want := m.delete(e); err != nil || found != want {
				return fmt.Errorf("op %d: Delete(%q, %d) = %v, %v; want %v", i, e.k, e.v, found, err, want)
			}
		default:
			lo, hi := randKey(rng, maxLen), randKey(rng, maxLen)
			if rng.IntN(4) == 0 {
				lo = nil
			}
			if rng.IntN(4) == 0 {
				hi = nil
			}
			got, err := collect(f, tr, 0, lo, hi)
			if err != nil {
				return err
			}
			if err := sameEntries(got, m.scan(lo, hi)); err != nil {
				return fmt.Errorf("op %d: Scan(%q, %q): %w", i, lo, hi, err)
			}
		}
		if i%500 == 0 || i == ops-1 {
			if _, err := verify(f, tr, 0); err != nil {
				return fmt.Errorf("op %d: %w", i, err)
			}
			if n, err := f.Len(tr, 0); err != nil || n != len(m) {
				return fmt.Errorf("op %d: Len = %d, %v; want %d", i, n, err, len(m))
			}
		}
	}
	got, err := collect(f, tr, 0, nil, nil)
	if err != nil {
		return err
	}
	if err := sameEntries(got, m); err != nil {
		return err
	}
	if len(m) < 20 {
		return fmt.Errorf("only %d entries at the end: the test did not grow the tree", len(m))
	}
	return f.Drop(tr)
}

// TestScanBounds checks inclusive bounds, open bounds, the empty key, all
// values of a key, and stopping early.
func TestScanBounds(t *testing.T) {
	ranktest.Run(t, 1, func(c rma.Comm) error {
		return withForest(c, Config{NodeSize: 256, Nodes: 256, MaxKey: 8}, func(f *Forest) error {
			tr, err := f.Create()
			if err != nil {
				return err
			}
			var m model
			for _, k := range []string{"", "a", "b", "bb", "c", "d"} {
				for v := range uint64(3) {
					if _, err := f.Insert(tr, 0, []byte(k), v); err != nil {
						return err
					}
					m.insert(entry{k, v})
				}
			}
			for _, q := range []struct{ lo, hi []byte }{
				{nil, nil}, {[]byte("b"), []byte("c")}, {[]byte("b"), []byte("b")},
				{[]byte(""), []byte("")}, {nil, []byte("a")}, {[]byte("bb"), nil},
				{[]byte("ba"), []byte("bz")}, {[]byte("z"), nil}, {[]byte("c"), []byte("b")},
			} {
				got, err := collect(f, tr, 0, q.lo, q.hi)
				if err != nil {
					return err
				}
				if err := sameEntries(got, m.scan(q.lo, q.hi)); err != nil {
					return fmt.Errorf("Scan(%q, %q): %w", q.lo, q.hi, err)
				}
			}
			if got, _ := collect(f, tr, 0, []byte("b"), []byte("b")); len(got) != 3 {
				return fmt.Errorf("Scan(b, b) found %d entries, want the 3 values of b", len(got))
			}
			calls := 0
			err = f.Scan(tr, 0, nil, nil, func([]byte, uint64) bool { calls++; return calls < 4 })
			if err != nil || calls != 4 {
				return fmt.Errorf("stopping scan made %d calls, %v; want 4", calls, err)
			}
			return f.Drop(tr)
		})
	})
}

// TestErrors checks every error and that failures leave trees intact.
func TestErrors(t *testing.T) {
	ranktest.Run(t, 1, func(c rma.Comm) error {
		cfg := Config{NodeSize: 256, Nodes: 40, MaxKey: 16, Trees: 2}
		return withForest(c, cfg, func(f *Forest) error {
			tr, err := f.Create()
			if err != nil {
				return err
			}
			long := make([]byte, 17)
			if _, err := f.Insert(tr, 0, long, 1); !errors.Is(err, ErrKey) {
				return fmt.Errorf("Insert of a long key = %v, want ErrKey", err)
			}
			if _, err := f.Delete(tr, 0, long, 1); !errors.Is(err, ErrKey) {
				return fmt.Errorf("Delete of a long key = %v, want ErrKey", err)
			}
			if err := f.Apply(tr, 0, []Op{{Key: []byte("x")}, {Key: long}}); !errors.Is(err, ErrKey) {
				return fmt.Errorf("Apply with a long key = %v, want ErrKey", err)
			}
			if n, _ := f.Len(tr, 0); n != 0 {
				return fmt.Errorf("Apply refused for ErrKey applied %d ops", n)
			}
			if _, err := f.Insert(tr, 1, nil, 1); !errors.Is(err, rma.ErrRank) {
				return fmt.Errorf("Insert on rank 1 of 1 = %v, want ErrRank", err)
			}
			if err := f.Scan(tr, 0, nil, nil, nil); err == nil {
				return errors.New("Scan with nil fn succeeded")
			}
			for _, bad := range []Tree{0, tr + 1, tr + 1<<32, makeTree(1000, 1)} {
				if _, err := f.Insert(bad, 0, nil, 1); !errors.Is(err, ErrTree) {
					return fmt.Errorf("Insert into tree %#x = %v, want ErrTree", uint64(bad), err)
				}
				if err := f.Scan(bad, 0, nil, nil, func([]byte, uint64) bool { return true }); !errors.Is(err, ErrTree) {
					return fmt.Errorf("Scan of tree %#x = %v, want ErrTree", uint64(bad), err)
				}
			}
			if added, err := f.Insert(tr, 0, []byte("dup"), 5); !added || err != nil {
				return fmt.Errorf("Insert = %v, %v", added, err)
			}
			if added, err := f.Insert(tr, 0, []byte("dup"), 5); added || err != nil {
				return fmt.Errorf("second Insert = %v, %v; want false, nil", added, err)
			}
			if found, err := f.Delete(tr, 0, []byte("dup"), 6); found || err != nil {
				return fmt.Errorf("Delete of an absent value = %v, %v; want false, nil", found, err)
			}

			// Fill the rank until ErrFull. Every failed insert must leave the
			// part exactly as it was, and later deletes and inserts work.
			var m model
			m.insert(entry{"dup", 5})
			total, err := f.FreeNodes(0)
			if err != nil {
				return err
			}
			full := 0
			for i := 0; full < 5; i++ {
				e := entry{fmt.Sprintf("k%05d", i*7919%100000), uint64(i)}
				added, err := f.Insert(tr, 0, []byte(e.k), e.v)
				switch {
				case errors.Is(err, ErrFull):
					full++
					if added {
						return errors.New("Insert reported added with ErrFull")
					}
				case err != nil:
					return err
				default:
					m.insert(e)
				}
				if i > 10000 {
					return errors.New("never ran out of nodes")
				}
			}
			if free, _ := f.FreeNodes(0); free > 3 {
				return fmt.Errorf("ErrFull with %d free nodes", free)
			}
			if _, err := verify(f, tr, 0); err != nil {
				return fmt.Errorf("after ErrFull: %w", err)
			}
			got, err := collect(f, tr, 0, nil, nil)
			if err != nil {
				return err
			}
			if err := sameEntries(got, m); err != nil {
				return fmt.Errorf("after ErrFull: %w", err)
			}
			for _, e := range m[:len(m)/2] {
				if found, err := f.Delete(tr, 0, []byte(e.k), e.v); !found || err != nil {
					return fmt.Errorf("Delete after ErrFull = %v, %v", found, err)
				}
			}
			m = m[len(m)/2:]
			got, err = collect(f, tr, 0, nil, nil)
			if err != nil {
				return err
			}
			if err := sameEntries(got, m); err != nil {
				return fmt.Errorf("after deletes: %w", err)
			}

			// Slots run out; Drop frees every node and makes ids stale.
			tr2, err := f.Create()
			if err != nil {
				return err
			}
			if _, err := f.Create(); !errors.Is(err, ErrFull) {
				return fmt.Errorf("third Create with 2 slots = %v, want ErrFull", err)
			}
			if err := f.Drop(tr); err != nil {
				return err
			}
			if free, err := f.FreeNodes(0); err != nil || free != total+1 {
				// total was counted after "dup" took one node.
				return fmt.Errorf("after Drop %d nodes free, %v; want %d", free, err, total+1)
			}
			if err := f.Drop(tr); !errors.Is(err, ErrTree) {
				return fmt.Errorf("second Drop = %v, want ErrTree", err)
			}
			tr3, err := f.Create() // reuses tr's slot
			if err != nil {
				return err
			}
			if tr3.slot() != tr.slot() || tr3 == tr {
				return fmt.Errorf("Create after Drop gave %#x, old %#x", uint64(tr3), uint64(tr))
			}
			if _, err := f.Insert(tr, 0, []byte("x"), 1); !errors.Is(err, ErrTree) {
				return fmt.Errorf("Insert into a dropped tree = %v, want ErrTree", err)
			}
			if _, err := f.Len(tr, 0); !errors.Is(err, ErrTree) {
				return fmt.Errorf("Len of a dropped tree = %v, want ErrTree", err)
			}
			if n, err := f.Len(tr3, 0); n != 0 || err != nil {
				return fmt.Errorf("new tree in a reused slot has Len %d, %v", n, err)
			}
			return errors.Join(f.Drop(tr2), f.Drop(tr3))
		})
	})
}

// TestApply runs random batches against the model, and checks that a part
// emptied by deletes gives back all its nodes.
func TestApply(t *testing.T) {
	ranktest.Run(t, 1, func(c rma.Comm) error {
		return withForest(c, Config{NodeSize: 512, Nodes: 2048, MaxKey: 8}, func(f *Forest) error {
			total, err := f.FreeNodes(0)
			if err != nil {
				return err
			}
			tr, err := f.Create()
			if err != nil {
				return err
			}
			rng := rand.New(rand.NewPCG(1, 2))
			var m model
			for range ranktest.Iterations(50, 400) {
				ops := make([]Op, rng.IntN(40))
				for i := range ops {
					ops[i] = Op{Delete: rng.IntN(3) == 0, Key: randKey(rng, 4), Val: uint64(rng.IntN(4))}
				}
				if err := f.Apply(tr, 0, ops); err != nil {
					return err
				}
				for _, op := range ops {
					if op.Delete {
						m.delete(entry{string(op.Key), op.Val})
					} else {
						m.insert(entry{string(op.Key), op.Val})
					}
				}
				got, err := collect(f, tr, 0, nil, nil)
				if err != nil {
					return err
				}
				if err := sameEntries(got, m); err != nil {
					return err
				}
			}
			if _, err := verify(f, tr, 0); err != nil {
				return err
			}
			del := make([]Op, len(m))
			for i, e := range m {
				del[i] = Op{Delete: true, Key: []byte(e.k), Val: e.v}
			}
			if err := f.Apply(tr, 0, del); err != nil {
				return err
			}
			if n, _ := f.Len(tr, 0); n != 0 {
				return fmt.Errorf("Len %d after deleting everything", n)
			}
			if free, _ := f.FreeNodes(0); free != total {
				return fmt.Errorf("%d of %d nodes free after the part emptied", free, total)
			}
			return f.Drop(tr)
		})
	})
}

// TestConfig checks defaults and refused configurations.
func TestConfig(t *testing.T) {
	ranktest.Run(t, 1, func(c rma.Comm) error {
		for _, bad := range []Config{
			{NodeSize: 100}, {NodeSize: -8}, {NodeSize: 64}, {MaxKey: -1},
			{Trees: -1}, {Nodes: -3}, {NodeSize: 256, MaxKey: 200},
		} {
			if f, err := NewForest(c, bad); !errors.Is(err, ErrConfig) {
				if err == nil {
					err = f.Free()
				}
				return fmt.Errorf("NewForest(%+v) = %v, want ErrConfig", bad, err)
			}
		}
		return withForest(c, Config{}, func(f *Forest) error {
			if f.l.nodeSize != DefaultNodeSize || f.l.maxKey != DefaultMaxKey || f.trees != DefaultTrees ||
				f.pool.Blocks()*DefaultNodeSize != DefaultBytes {
				return fmt.Errorf("defaults: %+v, %d trees, %d nodes", f.l, f.trees, f.pool.Blocks())
			}
			return nil
		})
	})
}

// TestMillion loads 10^6 entries into one part and checks range scans
// against the arithmetic of the keys.
func TestMillion(t *testing.T) {
	if testing.Short() {
		t.Skip("10^6 entries")
	}
	const n = 1_000_000
	ranktest.Run(t, 1, func(c rma.Comm) error {
		return withForest(c, Config{MaxKey: 8}, func(f *Forest) error {
			tr, err := f.Create()
			if err != nil {
				return err
			}
			batch := make([]Op, 0, 1024)
			rng := rand.New(rand.NewPCG(3, 4))
			for _, i := range rng.Perm(n) {
				batch = append(batch, Op{Key: millionKey(i), Val: uint64(i)})
				if len(batch) == cap(batch) {
					if err := f.Apply(tr, 0, batch); err != nil {
						return err
					}
					batch = batch[:0]
				}
			}
			if err := f.Apply(tr, 0, batch); err != nil {
				return err
			}
			if got, err := f.Len(tr, 0); err != nil || got != n {
				return fmt.Errorf("Len = %d, %v; want %d", got, err, n)
			}
			for _, r := range [][2]int{{0, 0}, {123_456, 133_455}, {999_000, n - 1}, {500_000, 500_000}} {
				next := r[0]
				var bad error
				err := f.Scan(tr, 0, millionKey(r[0]), millionKey(r[1]), func(k []byte, v uint64) bool {
					if v != uint64(next) || !bytes.Equal(k, millionKey(next)) {
						bad = fmt.Errorf("scan [%d, %d] got %q/%d, want %d", r[0], r[1], k, v, next)
						return false
					}
					next++
					return true
				})
				if err := errors.Join(err, bad); err != nil {
					return err
				}
				if next != r[1]+1 {
					return fmt.Errorf("scan [%d, %d] stopped at %d", r[0], r[1], next)
				}
			}
			return f.Drop(tr)
		})
	})
}

// millionKey is i as 8 big-endian bytes, so byte order is numeric order.
func millionKey(i int) []byte {
	return []byte{0, 0, 0, 0, byte(i >> 24), byte(i >> 16), byte(i >> 8), byte(i)}
}

// TestOrderedInserts loads keys in ascending and in descending order.
// Ascending loads take the right-end splits, which must fill nodes.
func TestOrderedInserts(t *testing.T) {
	n := ranktest.Iterations(3000, 20000)
	for _, desc := range []bool{false, true} {
		t.Run(fmt.Sprintf("descending=%v", desc), func(t *testing.T) {
			ranktest.Run(t, 1, func(c rma.Comm) error {
				return withForest(c, Config{NodeSize: 256, Nodes: 8192, MaxKey: 8}, func(f *Forest) error {
					tr, err := f.Create()
					if err != nil {
						return err
					}
					var m model
					for i := range n {
						if desc {
							i = n - 1 - i
						}
						e := entry{string(millionKey(i / 2)), uint64(i % 2)}
						if added, err := f.Insert(tr, 0, []byte(e.k), e.v); !added || err != nil {
							return fmt.Errorf("Insert %d = %v, %v", i, added, err)
						}
						m.insert(e)
					}
					nodes, err := verify(f, tr, 0)
					if err != nil {
						return err
					}
					got, err := collect(f, tr, 0, nil, nil)
					if err != nil {
						return err
					}
					if err := sameEntries(got, m); err != nil {
						return err
					}
					if minLeaves := n / f.l.leafCap; !desc && nodes > minLeaves*3/2 {
						return fmt.Errorf("ascending load of %d entries took %d nodes; full leaves would be %d", n, nodes, minLeaves)
					}
					return f.Drop(tr)
				})
			})
		})
	}
}
