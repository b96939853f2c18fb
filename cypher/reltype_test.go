package cypher

import (
	"context"
	"slices"
	"testing"

	"github.com/gdi-go/gdi/gdi"
)

// TestTypeOfSeveralLabels checks a relationship pattern's type against
// edges outside the mapping: an edge that gdi code gave two labels has
// one type, the name first in order (type(r)), and a pattern matches it
// by that type alone, as it does an edge of one label by its label.
func TestTypeOfSeveralLabels(t *testing.T) {
	cases := []struct{ query, want string }{
		{"MATCH (a)-[r:A]->(b) RETURN type(r), a.n, b.n", "'A',1,2"},
		{"MATCH (a)-[r:B]->(b) RETURN type(r), a.n, b.n", "'B',3,4"},
		{"MATCH (a)-[r:A|B]->(b) RETURN type(r), a.n ORDER BY a.n", "'A',1;'B',3"},
		{"MATCH (a)-[r:C]->(b) RETURN type(r)", ""},
		{"MATCH (a)<-[r:B*1..2]-(b) RETURN b.n", "3"},
	}
	onEvery(t, func(t *testing.T, e *Engine) error {
		if _, err := e.Run(context.Background(), "CREATE ({n: 1})-[:A]->({n: 2}), ({n: 3})-[:B]->({n: 4})", nil); err != nil {
			return err
		}
		if err := labelEdgesToo(e, "A", "B"); err != nil {
			return err
		}
		for _, c := range cases {
			got, err := rowsOrError(e, c.query, nil)
			if err != nil {
				return err
			}
			if got != c.want {
				t.Errorf("%s: an edge labelled A and B has the type A alone\n got %s\nwant %s", c.query, got, c.want)
			}
		}
		return nil
	})
}

// addLabelIf gives the edge uid the label also if it has the label from.
func addLabelIf(tx gdi.Transaction, uid gdi.EdgeUID, from, also gdi.Label) error {
	h, err := tx.AssociateEdge(uid)
	if err != nil {
		return err
	}
	ls, err := h.Labels()
	if err != nil || !slices.Contains(ls, from) {
		return err
	}
	return h.AddLabel(also)
}

// labelEdgesToo gives every edge labelled from the label also, in a
// transaction on rank 0.
func labelEdgesToo(e *Engine, from, also string) error {
	if e.comm.Rank() == 0 {
		err := runTransaction(context.Background(), e.db, func(tx gdi.Transaction) error {
			lf, err := e.schema.Label(from)
			if err != nil {
				return err
			}
			la, err := e.schema.Label(also)
			if err != nil {
				return err
			}
			uids, err := tx.VerticesOfIndex(e.nodes.Index(), nil)
			if err != nil {
				return err
			}
			for _, uid := range uids {
				v, err := tx.AssociateVertex(uid)
				if err != nil {
					return err
				}
				es, err := v.Edges(gdi.EdgeOutgoing, nil)
				for _, eu := range es {
					if err != nil {
						break
					}
					err = addLabelIf(tx, eu, lf, la)
				}
				if err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return e.comm.Barrier()
}
