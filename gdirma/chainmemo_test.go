package gdirma_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/internal/invariants"
	"github.com/gdi-go/gdi/rma"
	rmacount "github.com/gdi-go/gdi/rma/count"
	"github.com/gdi-go/gdi/rma/local"
)

// TestChainMemo deletes leaves of a hub, so that the commits drop the
// hub's references sparsely (sparsedrop.go), while the hub changes in
// every way the rank's memo of its chain must notice (chainmemo.go):
// it grows by new edges, its references shift with a longer property, its
// chain is cut short by a shorter one, and it grows again over other
// blocks than it had, which the memo still lists. After each step the
// hub must have the edges of the leaves left. A delete after the memo
// has the chain must read fewer blocks than the hub has (the memo saves
// the walk), and get the block of the reference with the hub's primary
// block.
func TestChainMemo(t *testing.T) {
	const memoBlock = 512
	err := local.Run(1, func(c rma.Comm) error {
		cc := rmacount.Wrap(c)
		d, err := gdirma.Driver{}.CreateDatabase(cc, gdirma.Params{BlockSize: memoBlock, MemoryPerRank: 4 << 20})
		if err != nil {
			return err
		}
		defer d.Free()
		m, err := newMemoHub(d, 600)
		if err != nil {
			return err
		}
		calls := func(step string, f func() error) (rmacount.Counts, error) {
			before := cc.Counts()
			if err := f(); err != nil {
				return rmacount.Counts{}, fmt.Errorf("%s: %w", step, err)
			}
			n := cc.Counts().Sub(before)
			return n, m.check(d, step)
		}
		first, err := calls("the first delete, which walks the chain", func() error { return m.deleteLast(d) })
		if err != nil {
			return err
		}
		again, err := calls("a delete with the chain remembered", func() error { return m.deleteLast(d) })
		if err != nil {
			return err
		}
		// (The invariants of -race builds read the hub whole to check
		// each drop: the counts are compared in plain builds only.)
		if blocks := m.blocks(memoBlock); !invariants.Enabled && (again.Gets >= uint64(blocks)/2 || again.Gets >= first.Gets) {
			return fmt.Errorf("a delete next to a hub of %d blocks, its chain remembered, made %d gets (the first, %d): want fewer than half the blocks", blocks, again.Gets, first.Gets)
		}
		// Its reads: the leaf (one get), then the hub's primary block and
		// the block the memo guesses holds the reference, in one round
		// trip; its commit flushes the batch of its write locks, the batch
		// of the hub's version, which completes the patches (the flush of
		// the patches that follows is no MPI call), and the batch that
		// releases the locks.
		if !invariants.Enabled && (again.Gets != 3 || again.Flushes != 6) {
			return fmt.Errorf("a delete next to a hub, its chain remembered, made %d gets and %d flushes, want 3 and 6", again.Gets, again.Flushes)
		}
		steps := []struct {
			name   string
			change func() error
		}{
			{"the hub grew", func() error { return m.addLeaves(d, 150) }},
			{"the hub's references shifted on", func() error { return m.setPad(d, 400) }},
			{"the hub's references shifted back, its chain cut short", func() error { return m.setPad(d, 0) }},
			{"others took the blocks the hub let go", func() error { return m.fillBlocks(d) }},
			{"the hub grew over other blocks", func() error { return m.setPad(d, 400) }},
		}
		for _, s := range steps {
			if err := s.change(); err != nil {
				return fmt.Errorf("%s: %w", s.name, err)
			}
			if err := m.check(d, s.name); err != nil {
				return err
			}
			// Leaves along the whole hub: a reference that shifted may
			// have left the block the memo guesses.
			for _, at := range []float64{0.1, 0.4, 0.7, 1} {
				if _, err := calls(fmt.Sprintf("a delete at %.0f%% of the leaves after %s", 100*at, s.name), func() error { return m.deleteAt(d, at) }); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// memoHub is the hub of TestChainMemo and its leaves, each with one
// lightweight edge to it.
type memoHub struct {
	hub    gdi.VertexUID
	pad    gdi.PropertyType
	leaves []gdi.VertexUID
	edges  map[gdi.VertexUID]gdi.EdgeUID
}

func newMemoHub(db gdi.Database, leaves int) (*memoHub, error) {
	pad, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "pad", Entity: gdi.SingleEntity, Datatype: gdi.Char, Size: gdi.MaxSize, Count: 1024})
	if err != nil {
		return nil, err
	}
	m := &memoHub{pad: pad, edges: map[gdi.VertexUID]gdi.EdgeUID{}}
	if err := gdirma.InTx(db, func(tx gdi.Transaction) error {
		h, err := tx.CreateVertex(nil)
		if err == nil {
			m.hub, err = h.UID()
		}
		return err
	}); err != nil {
		return nil, err
	}
	return m, m.addLeaves(db, leaves)
}

// addLeaves adds n leaves in one transaction.
func (m *memoHub) addLeaves(db gdi.Database, n int) error {
	added := map[gdi.VertexUID]gdi.EdgeUID{}
	err := gdirma.InTx(db, func(tx gdi.Transaction) error {
		h, err := tx.AssociateVertex(m.hub)
		if err != nil {
			return err
		}
		for range n {
			x, err := tx.CreateVertex(nil)
			if err != nil {
				return err
			}
			e, err := tx.CreateEdge(gdi.Undirected, x, h)
			if err != nil {
				return err
			}
			xu, err := x.UID()
			if err != nil {
				return err
			}
			if added[xu], err = e.UID(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for u, e := range added {
		m.leaves = append(m.leaves, u)
		m.edges[u] = e
	}
	slices.Sort(m.leaves) // the last leaf's reference lies far along the chain
	return nil
}

// deleteLast frees the last leaf.
func (m *memoHub) deleteLast(db gdi.Database) error { return m.deleteAt(db, 1) }

// deleteAt frees the leaf at fraction at of the leaves, in the order of
// their UIDs.
func (m *memoHub) deleteAt(db gdi.Database, at float64) error {
	i := min(int(at*float64(len(m.leaves))), len(m.leaves)-1)
	u := m.leaves[i]
	if err := gdirma.InTx(db, func(tx gdi.Transaction) error {
		x, err := tx.AssociateVertex(u)
		if err == nil {
			err = x.Free()
		}
		return err
	}); err != nil {
		return err
	}
	m.leaves = slices.Delete(m.leaves, i, i+1)
	delete(m.edges, u)
	return nil
}

// setPad gives the hub a property of n bytes, or none.
func (m *memoHub) setPad(db gdi.Database, n int) error {
	return gdirma.InTx(db, func(tx gdi.Transaction) error {
		h, err := tx.AssociateVertex(m.hub)
		if err != nil {
			return err
		}
		if err := h.RemoveProperties(m.pad); err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
		return h.AddProperty(m.pad, gdi.Chars(strings.Repeat("p", n)))
	})
}

// fillBlocks creates vertices of a block each, which take the blocks
// free now.
func (m *memoHub) fillBlocks(db gdi.Database) error {
	return gdirma.InTx(db, func(tx gdi.Transaction) error {
		for range 8 {
			v, err := tx.CreateVertex(nil)
			if err == nil {
				err = v.AddProperty(m.pad, gdi.Chars(strings.Repeat("f", 400)))
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// blocks is about how many blocks of bs bytes the hub's references take.
func (m *memoHub) blocks(bs int) int { return len(m.leaves) * 10 / (bs - 16) }

// check compares the hub's edges with the leaves left.
func (m *memoHub) check(db gdi.Database, step string) error {
	return gdirma.InTx(db, func(tx gdi.Transaction) error {
		h, err := tx.AssociateVertex(m.hub)
		if err != nil {
			return err
		}
		got, err := h.Edges(gdi.EdgeAll, nil)
		if err != nil {
			return err
		}
		var want []gdi.EdgeUID
		for _, e := range m.edges {
			want = append(want, e)
		}
		slices.SortFunc(got, byEdgeUID)
		slices.SortFunc(want, byEdgeUID)
		if !slices.Equal(got, want) {
			return fmt.Errorf("after %s: the hub has %d edges, want those of the %d leaves left", step, len(got), len(want))
		}
		return nil
	})
}
