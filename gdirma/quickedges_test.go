package gdirma_test

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
)

// TestQuickEdges: Edges in a transaction that changed no edge reads the
// encoded references in place (quickEdges); with an edge copied first it
// takes the general path. Both must give the same edges, for every
// orientation and label-only constraint, on a graph with loops,
// lightweight edges with and without a label, heavyweight ones (two labels
// or a property), edges whose origin moved (stubs) and edges deleted one
// by one (tombstones in the images of more than a block).
func TestQuickEdges(t *testing.T) {
	for _, ranks := range []int{1, 2} {
		t.Run(fmt.Sprintf("ranks=%d", ranks), func(t *testing.T) {
			run(t, ranks, gdirma.Params{BlockSize: 128, MemoryPerRank: 1 << 20}, quickEdges)
		})
	}
}

func quickEdges(c rma.Comm, db gdi.Database) error {
	var labels []gdi.Label
	for _, name := range []string{"A", "B", "C"} {
		l, err := db.CreateLabel(name)
		if err != nil {
			return err
		}
		labels = append(labels, l)
	}
	w, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "w", Entity: gdi.SingleEntity, Datatype: gdi.Int64, Size: gdi.FixedSize, Count: 1})
	if err != nil {
		return err
	}
	// Constraints: has A; has B or has no label; has A and not C; has C.
	var cons []gdi.Constraint
	for _, conj := range [][][]gdi.LabelCondition{
		{{{Label: labels[0], Op: gdi.Equal}}},
		{{{Label: labels[1], Op: gdi.Equal}}, {{Label: gdi.LabelNone, Op: gdi.Equal}}},
		{{{Label: labels[0], Op: gdi.Equal}, {Label: labels[2], Op: gdi.NotEqual}}},
		{{{Label: labels[2], Op: gdi.Equal}}},
		{{{Label: gdi.LabelNone, Op: gdi.Equal}}},
		{{{Label: labels[1], Op: gdi.NotEqual}}},
	} {
		con, err := labelConstraint(db, conj)
		if err != nil {
			return err
		}
		cons = append(cons, con)
	}
	if c.Rank() != 0 {
		return c.Barrier()
	}
	defer c.Barrier()
	const n = 24
	rng := rand.New(rand.NewPCG(5, 6))
	var vs []gdi.VertexUID
	var es []gdi.EdgeUID
	err = retry(db, func(tx gdi.Transaction) error {
		vs, es = vs[:0], es[:0]
		var xs []gdi.VertexHolder
		for range n {
			x, err := tx.CreateVertex(nil)
			if err != nil {
				return err
			}
			u, err := x.UID()
			if err != nil {
				return err
			}
			xs, vs = append(xs, x), append(vs, u)
		}
		for range 10 * n {
			a, b := xs[rng.IntN(n)], xs[rng.IntN(n)]
			if rng.IntN(8) == 0 {
				b = a // a loop
			}
			dir := gdi.Directed
			if rng.IntN(3) == 0 {
				dir = gdi.Undirected
			}
			e, err := tx.CreateEdge(dir, a, b)
			if err != nil {
				return err
			}
			for _, l := range labels {
				if rng.IntN(3) == 0 {
					if err := e.AddLabel(l); err != nil {
						return err
					}
				}
			}
			if rng.IntN(6) == 0 {
				if err := e.AddProperty(w, gdi.Int64s(1)); err != nil {
					return err
				}
			}
			u, err := e.UID()
			if err != nil {
				return err
			}
			es = append(es, u)
		}
		return nil
	})
	if err != nil {
		return err
	}
	// Move the origins of some edges: their old origins keep stubs.
	err = retry(db, func(tx gdi.Transaction) error {
		for _, u := range es[:len(es)/8] {
			e, err := tx.AssociateEdge(u)
			if err != nil {
				return err
			}
			x, err := tx.AssociateVertex(vs[rng.IntN(n)])
			if err != nil {
				return err
			}
			if err := e.SetOrigin(x); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	// Delete some edges, one per transaction: where the references are
	// longer than a block, theirs become tombstones in place.
	for _, u := range es[len(es)/8 : len(es)/4] {
		err := retry(db, func(tx gdi.Transaction) error {
			e, err := tx.AssociateEdge(u)
			if err != nil {
				return err
			}
			return e.Free()
		})
		if err != nil {
			return err
		}
	}
	orients := []gdi.Orientation{gdi.EdgeAll, gdi.EdgeOutgoing, gdi.EdgeIncoming, gdi.EdgeUndirected, gdi.EdgeOutgoing | gdi.EdgeUndirected}
	edges := func(copyEdge bool, u gdi.VertexUID, o gdi.Orientation, con gdi.Constraint) ([]gdi.EdgeUID, error) {
		var out []gdi.EdgeUID
		err := retry(db, func(tx gdi.Transaction) error {
			if copyEdge {
				// An edge copy in the transaction: Edges takes the general path.
				if _, err := tx.AssociateEdge(es[len(es)-1]); err != nil {
					return err
				}
			}
			x, err := tx.AssociateVertex(u)
			if err != nil {
				return err
			}
			out, err = x.Edges(o, con)
			return err
		})
		return out, err
	}
	cmpUID := func(a, b gdi.EdgeUID) int {
		return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1]))
	}
	checked := 0
	for _, u := range vs {
		for _, o := range orients {
			for _, con := range append([]gdi.Constraint{nil}, cons...) {
				quick, err := edges(false, u, o, con)
				if err != nil {
					return err
				}
				general, err := edges(true, u, o, con)
				if err != nil {
					return err
				}
				slices.SortFunc(quick, cmpUID)
				slices.SortFunc(general, cmpUID)
				if !slices.Equal(quick, general) {
					return fmt.Errorf("vertex %v, %v, constraint %v: quick path %v, general path %v", u, o, con, quick, general)
				}
				checked += len(quick)
			}
		}
	}
	if checked == 0 {
		return fmt.Errorf("no edge found at all")
	}
	return nil
}

// labelConstraint makes the constraint of formula: a subconstraint per
// conjunction of label conditions.
func labelConstraint(db gdi.Database, formula [][]gdi.LabelCondition) (gdi.Constraint, error) {
	con, err := db.CreateConstraint()
	if err != nil {
		return nil, err
	}
	for _, conds := range formula {
		sub, err := db.CreateSubconstraint()
		if err != nil {
			return nil, err
		}
		for _, lc := range conds {
			if err := sub.AddLabelCondition(lc.Label, lc.Op); err != nil {
				return nil, err
			}
		}
		if err := con.AddSubconstraint(sub); err != nil {
			return nil, err
		}
	}
	return con, nil
}
