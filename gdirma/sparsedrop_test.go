package gdirma_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// TestSparseDrops deletes leaves of a hub whose image spans many blocks,
// so that the commits remove the hub's references to their edges from
// its blocks without reading the hub whole (sparsedrop.go). The leaves
// have edges of every kind to the hub: lightweight ones either way round,
// with and without a label, two to the same hub, and heavyweight ones
// beside lightweight ones. Rank 0 first deletes leaves alone and in the
// cases where the transaction goes on using the hub (reads its edges and
// degrees, changes its labels, frees two leaves, aborts); then all ranks
// delete leaves at once while reading the hub; then rank 0 deletes most
// of the rest. After each step the hub
// must have exactly the edges and degrees of the leaves left, every read
// of it must be consistent, and in the end every holder must check. The
// hub's degrees fall below 128, where their encoding shrinks, so some
// drops cannot be written in place and are written whole instead: both
// ways must have been taken.
func TestSparseDrops(t *testing.T) {
	// With blocks above 256 bytes a transaction reads only the start of
	// a hub's primary block; pads of its property put the count of
	// references just past that start for some of the sizes, so that
	// the plan must read the rest of the block; pads near 470 put the
	// count past the primary block itself, where the plan gives up; and
	// 600 puts the property past it, where no plan is made.
	cases := []struct {
		bs   int
		pads []int
	}{{64, []int{0}}, {256, []int{0}}, {512, []int{0, 80, 82, 84, 86, 88, 462, 464, 466, 468, 470, 472, 600}}}
	for _, ranks := range []int{1, 2} {
		for _, cs := range cases {
			t.Run(fmt.Sprintf("ranks=%d/block=%d", ranks, cs.bs), func(t *testing.T) {
				var inPlace, whole, reread atomic.Int64
				defer gdirma.SetDropHook(func(ok bool) {
					if ok {
						inPlace.Add(1)
					} else {
						whole.Add(1)
					}
				})()
				defer gdirma.SetRereadHook(func() { reread.Add(1) })()
				for _, pad := range cs.pads {
					err := local.Run(ranks, func(c rma.Comm) error {
						db, err := gdirma.Driver{}.CreateDatabase(c, gdirma.Params{BlockSize: cs.bs, MemoryPerRank: 4 << 20})
						if err != nil {
							return err
						}
						if err := sparseDrops(c, db, pad); err != nil {
							return errors.Join(fmt.Errorf("pad %d: %w", pad, err), db.Free())
						}
						return db.Free()
					})
					if err != nil {
						t.Fatal(err)
					}
				}
				if inPlace.Load() == 0 || whole.Load() == 0 {
					t.Errorf("drops written in place %d times, whole %d times: want both", inPlace.Load(), whole.Load())
				}
				if len(cs.pads) > 1 && reread.Load() == 0 {
					t.Errorf("no plan read the rest of a primary block for the count")
				}
			})
		}
	}
}

// sparseLeaf is a leaf of the hub in TestSparseDrops: its UID, its edges
// to the hub, and what they add to the hub's degree, in-degree and
// out-degree.
type sparseLeaf struct {
	uid   gdi.VertexUID
	edges []gdi.EdgeUID
	deg   [3]uint64
}

// The hub's model: every rank's leaves, and which are gone.
type sparseModel struct {
	hub    gdi.VertexUID
	leaves [][]sparseLeaf // by rank
	gone   map[gdi.VertexUID]bool
}

func (m *sparseModel) want() (edges []gdi.EdgeUID, deg [3]uint64) {
	for _, ls := range m.leaves {
		for _, l := range ls {
			if m.gone[l.uid] {
				continue
			}
			edges = append(edges, l.edges...)
			for i := range deg {
				deg[i] += l.deg[i]
			}
		}
	}
	return edges, deg
}

var byEdgeUID = func(a, b gdi.EdgeUID) int { return strings.Compare(a.String(), b.String()) }

// hubState reads the hub's edges and degrees in tx.
func hubState(tx gdi.Transaction, hub gdi.VertexUID) (edges []gdi.EdgeUID, deg [3]uint64, err error) {
	h, err := tx.AssociateVertex(hub)
	if err != nil {
		return nil, deg, err
	}
	for i, p := range []gdi.PropertyType{gdi.PropertyTypeDegree, gdi.PropertyTypeInDegree, gdi.PropertyTypeOutDegree} {
		v, err := h.Properties(p)
		if err != nil {
			return nil, deg, err
		}
		if len(v) != 1 {
			return nil, deg, fmt.Errorf("degree property %v: %v", p, v)
		}
		x, err := v[0].Uint64Slice()
		if err != nil || len(x) != 1 {
			return nil, deg, fmt.Errorf("degree property %v: %v %v", p, v, err)
		}
		deg[i] = x[0]
	}
	if edges, err = h.Edges(gdi.EdgeAll, nil); err != nil {
		return nil, deg, err
	}
	slices.SortFunc(edges, byEdgeUID)
	return edges, deg, nil
}

// consistent checks that the hub's degrees in tx agree with its edges.
func consistent(tx gdi.Transaction, hub gdi.VertexUID) error {
	edges, deg, err := hubState(tx, hub)
	if err != nil {
		return err
	}
	h, err := tx.AssociateVertex(hub)
	if err != nil {
		return err
	}
	in, err := h.Edges(gdi.EdgeIncoming, nil)
	if err != nil {
		return err
	}
	out, err := h.Edges(gdi.EdgeOutgoing, nil)
	if err != nil {
		return err
	}
	if deg != [3]uint64{uint64(len(edges)), uint64(len(in)), uint64(len(out))} {
		return fmt.Errorf("hub degrees %v, with %d edges, %d in, %d out", deg, len(edges), len(in), len(out))
	}
	return nil
}

// check compares the hub with the model in a transaction of its own.
func (m *sparseModel) check(db gdi.Database, step string) error {
	return retry(db, func(tx gdi.Transaction) error { return m.checkIn(tx, step) })
}

func (m *sparseModel) checkIn(tx gdi.Transaction, step string) error {
	edges, deg, err := hubState(tx, m.hub)
	if err != nil {
		return err
	}
	want, wantDeg := m.want()
	slices.SortFunc(want, byEdgeUID)
	if !slices.Equal(edges, want) {
		return fmt.Errorf("after %s: the hub has %d edges, want %d", step, len(edges), len(want))
	}
	if deg != wantDeg {
		return fmt.Errorf("after %s: the hub's degrees are %v, want %v", step, deg, wantDeg)
	}
	return nil
}

// free frees the leaves in one transaction of tx and marks them gone.
func (m *sparseModel) free(tx gdi.Transaction, leaves ...sparseLeaf) error {
	for _, l := range leaves {
		x, err := tx.AssociateVertex(l.uid)
		if err != nil {
			return err
		}
		if err := x.Free(); err != nil {
			return err
		}
	}
	return nil
}

func (m *sparseModel) markGone(leaves ...sparseLeaf) {
	for _, l := range leaves {
		m.gone[l.uid] = true
	}
}

// sparseDrops runs the steps of TestSparseDrops; the hub has a string
// property of pad bytes if pad > 0.
func sparseDrops(c rma.Comm, db gdi.Database, pad int) error {
	el, err := db.CreateLabel("E")
	if err != nil {
		return err
	}
	hl, err := db.CreateLabel("H")
	if err != nil {
		return err
	}
	fl, err := db.CreateLabel("F")
	if err != nil {
		return err
	}
	wt, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "w", Entity: gdi.SingleEntity, Datatype: gdi.Int64, Size: gdi.FixedSize, Count: 1})
	if err != nil {
		return err
	}
	pt, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "pad", Entity: gdi.SingleEntity, Datatype: gdi.Char, Size: gdi.MaxSize, Count: 1024})
	if err != nil {
		return err
	}
	if c.Rank() == 0 {
		if err := gdirma.InTx(db, func(tx gdi.Transaction) error {
			h, err := tx.CreateVertex([]byte("hub"))
			if err == nil {
				err = h.AddLabel(hl)
			}
			if err == nil && pad > 0 {
				err = h.AddProperty(pt, gdi.Chars(strings.Repeat("p", pad)))
			}
			return err
		}); err != nil {
			return err
		}
	}
	if err := c.Barrier(); err != nil {
		return err
	}
	m := &sparseModel{gone: map[gdi.VertexUID]bool{}}
	if err := gdirma.InTx(db, func(tx gdi.Transaction) error {
		u, ok, err := tx.TranslateVertexID(hl, []byte("hub"))
		if err == nil && !ok {
			err = errors.New("no hub")
		}
		m.hub = u
		return err
	}); err != nil {
		return err
	}

	// Every rank adds its leaves, one transaction each, all at once.
	const leaves = 150
	var mine []sparseLeaf
	for i := range leaves {
		var l sparseLeaf
		err := retry(db, func(tx gdi.Transaction) error {
			l = sparseLeaf{}
			h, err := tx.AssociateVertex(m.hub)
			if err != nil {
				return err
			}
			x, err := tx.CreateVertex(nil)
			if err != nil {
				return err
			}
			edge := func(d gdi.DirectionType, from, to gdi.VertexHolder, label gdi.Label, heavy bool) error {
				e, err := tx.CreateEdge(d, from, to)
				if err != nil {
					return err
				}
				if label != 0 {
					if err := e.AddLabel(label); err != nil {
						return err
					}
				}
				if heavy {
					if err := e.AddProperty(wt, gdi.Int64s(int64(i))); err != nil {
						return err
					}
				}
				u, err := e.UID()
				if err != nil {
					return err
				}
				l.edges = append(l.edges, u)
				l.deg[0]++
				if d == gdi.Directed && from == h {
					l.deg[2]++
				} else if d == gdi.Directed {
					l.deg[1]++
				}
				return nil
			}
			switch i % 5 {
			case 0:
				err = edge(gdi.Directed, h, x, el, false)
			case 1:
				err = edge(gdi.Directed, x, h, el, false)
			case 2:
				err = edge(gdi.Undirected, x, h, 0, false)
			case 3:
				if err = edge(gdi.Undirected, x, h, el, false); err == nil {
					err = edge(gdi.Directed, h, x, 0, false)
				}
			case 4:
				if err = edge(gdi.Directed, x, h, 0, true); err == nil {
					err = edge(gdi.Directed, h, x, el, false)
				}
			}
			if err != nil {
				return err
			}
			l.uid, err = x.UID()
			return err
		})
		if err != nil {
			return err
		}
		mine = append(mine, l)
	}
	// Everyone learns everyone's leaves.
	var enc []byte
	for _, l := range mine {
		enc = binary.LittleEndian.AppendUint64(enc, uint64(l.uid))
		enc = append(enc, byte(len(l.edges)), byte(l.deg[0]), byte(l.deg[1]), byte(l.deg[2]))
		for _, e := range l.edges {
			enc = binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(enc, e[0]), e[1])
		}
	}
	all, err := c.Allgatherv(enc)
	if err != nil {
		return err
	}
	for _, b := range all {
		var ls []sparseLeaf
		for len(b) > 0 {
			l := sparseLeaf{uid: gdi.VertexUID(binary.LittleEndian.Uint64(b))}
			n := int(b[8])
			l.deg = [3]uint64{uint64(b[9]), uint64(b[10]), uint64(b[11])}
			b = b[12:]
			for range n {
				l.edges = append(l.edges, gdi.EdgeUID{binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])})
				b = b[16:]
			}
			ls = append(ls, l)
		}
		m.leaves = append(m.leaves, ls)
	}
	if err := m.check(db, "adding the leaves"); err != nil {
		return err
	}
	if err := c.Barrier(); err != nil { // before rank 0 deletes any
		return err
	}

	// Rank 0 alone: a delete at a time, and the special cases.
	const special = 12
	if c.Rank() == 0 {
		ls := m.leaves[0]
		for i, l := range ls[:5] { // one of each kind
			if err := retry(db, func(tx gdi.Transaction) error { return m.free(tx, l) }); err != nil {
				return err
			}
			m.markGone(l)
			if err := m.check(db, fmt.Sprintf("freeing leaf %d", i)); err != nil {
				return err
			}
		}
		// Two leaves in one transaction.
		if err := retry(db, func(tx gdi.Transaction) error { return m.free(tx, ls[5], ls[6]) }); err != nil {
			return err
		}
		m.markGone(ls[5], ls[6])
		if err := m.check(db, "freeing two leaves at once"); err != nil {
			return err
		}
		// A free, then reads of the hub: degrees first (from the part
		// read), then edges (which read the rest), then degrees again.
		if err := retry(db, func(tx gdi.Transaction) error {
			if err := m.free(tx, ls[7]); err != nil {
				return err
			}
			m.markGone(ls[7])
			defer delete(m.gone, ls[7].uid) // until committed
			return m.checkIn(tx, "freeing a leaf, within the transaction")
		}); err != nil {
			return err
		}
		m.markGone(ls[7])
		if err := m.check(db, "freeing a leaf and reading the hub"); err != nil {
			return err
		}
		// A free, then a change of the hub's labels.
		if err := retry(db, func(tx gdi.Transaction) error {
			if err := m.free(tx, ls[8]); err != nil {
				return err
			}
			h, err := tx.AssociateVertex(m.hub)
			if err != nil {
				return err
			}
			return h.AddLabel(fl)
		}); err != nil {
			return err
		}
		m.markGone(ls[8])
		if err := m.check(db, "freeing a leaf and labelling the hub"); err != nil {
			return err
		}
		if err := gdirma.InTx(db, func(tx gdi.Transaction) error {
			h, err := tx.AssociateVertex(m.hub)
			if err != nil {
				return err
			}
			labels, err := h.Labels()
			if err == nil && !slices.Contains(labels, fl) {
				err = fmt.Errorf("the hub's labels %v lack the one added", labels)
			}
			return err
		}); err != nil {
			return err
		}
		// A free that is aborted changes nothing.
		tx, err := db.StartTransaction()
		if err != nil {
			return err
		}
		if err := m.free(tx, ls[9]); err != nil {
			tx.Abort()
			return err
		}
		if err := tx.Abort(); err != nil {
			return err
		}
		if err := m.check(db, "an aborted free"); err != nil {
			return err
		}
		for _, l := range ls[9:special] {
			if err := retry(db, func(tx gdi.Transaction) error { return m.free(tx, l) }); err != nil {
				return err
			}
			m.markGone(l)
		}
		if err := m.check(db, "the special cases"); err != nil {
			return err
		}
	} else {
		for _, l := range m.leaves[0][:special] {
			m.markGone(l)
		}
	}
	if err := c.Barrier(); err != nil {
		return err
	}

	// All ranks at once: deletes, each followed by a read of the hub.
	const concurrent, keep = 20, 5
	rng := rand.New(rand.NewPCG(uint64(c.Rank()), 3))
	batch := slices.Clone(m.leaves[c.Rank()][special : special+concurrent])
	rng.Shuffle(len(batch), func(i, j int) { batch[i], batch[j] = batch[j], batch[i] })
	for _, l := range batch {
		if err := retry(db, func(tx gdi.Transaction) error { return m.free(tx, l) }); err != nil {
			return err
		}
		if err := retry(db, func(tx gdi.Transaction) error { return consistent(tx, m.hub) }); err != nil {
			return err
		}
	}
	if err := c.Barrier(); err != nil {
		return err
	}
	for r := range m.leaves {
		m.markGone(m.leaves[r][special : special+concurrent]...)
	}
	if err := m.check(db, "the deletes of all ranks"); err != nil {
		return err
	}
	if err := c.Barrier(); err != nil {
		return err
	}

	// Rank 0 alone again, deleting the leaves of every rank, those with
	// lightweight edges only first, so that the hub's degree and count
	// fall below 128 in a commit of drops alone.
	var last []sparseLeaf
	for r := range m.leaves {
		for i, l := range m.leaves[r][special+concurrent : leaves-keep] {
			if (special+concurrent+i)%5 != 4 {
				last = append(last, l)
			}
		}
	}
	for r := range m.leaves {
		for i, l := range m.leaves[r][special+concurrent : leaves-keep] {
			if (special+concurrent+i)%5 == 4 {
				last = append(last, l)
			}
		}
	}
	for _, l := range last {
		if c.Rank() == 0 {
			if err := retry(db, func(tx gdi.Transaction) error { return m.free(tx, l) }); err != nil {
				return err
			}
		}
		m.markGone(l)
	}
	if err := c.Barrier(); err != nil {
		return err
	}
	if err := m.check(db, "the last deletes"); err != nil {
		return err
	}
	if err := c.Barrier(); err != nil {
		return err
	}
	return db.(*gdirma.Database).CheckHolders()
}
