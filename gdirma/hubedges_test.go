package gdirma_test

import (
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
)

// BenchmarkHubEdges times Edges with a label constraint on a vertex with
// 4096 edges, one in 16 of them labelled: the get-edges operation of the
// OLTP mixes on a hub of a Kronecker graph.
func BenchmarkHubEdges(b *testing.B) {
	run(b, 1, gdirma.Params{BlockSize: 512, MemoryPerRank: 64 << 20}, func(c rma.Comm, db gdi.Database) error {
		a, err := db.CreateLabel("A")
		if err != nil {
			return err
		}
		con, err := labelConstraint(db, [][]gdi.LabelCondition{{{Label: a, Op: gdi.Equal}}})
		if err != nil {
			return err
		}
		const degree = 4096
		var hub gdi.VertexUID
		err = retry(db, func(tx gdi.Transaction) error {
			h, err := tx.CreateVertex(nil)
			if err != nil {
				return err
			}
			for i := range degree {
				y, err := tx.CreateVertex(nil)
				if err != nil {
					return err
				}
				e, err := tx.CreateEdge(gdi.Directed, h, y)
				if err != nil {
					return err
				}
				if i%16 == 0 {
					if err := e.AddLabel(a); err != nil {
						return err
					}
				}
			}
			hub, err = h.UID()
			return err
		})
		if err != nil {
			return err
		}
		b.ReportAllocs()
		for b.Loop() {
			err := retry(db, func(tx gdi.Transaction) error {
				x, err := tx.AssociateVertex(hub)
				if err != nil {
					return err
				}
				es, err := x.Edges(gdi.EdgeAll, con)
				if err == nil && len(es) != degree/16 {
					b.Fatalf("%d edges labelled A, want %d", len(es), degree/16)
				}
				return err
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
}
