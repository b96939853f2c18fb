package gdirma_test

import (
	"fmt"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
)

// TestFreeVertexRaced: a transaction reads vertex v whole, then another
// deletes one of v's lightweight edges and commits, then the first frees
// v. The first read v before the delete and its other end w after it, so
// it finds w without its reference to the edge: it must fail (at Free or
// at its commit), never commit a delete that mixes the two states; and
// afterwards w has exactly the edges it had left.
func TestFreeVertexRaced(t *testing.T) {
	for _, ranks := range []int{1, 2} {
		t.Run(fmt.Sprintf("ranks=%d", ranks), func(t *testing.T) {
			run(t, ranks, gdirma.Params{BlockSize: 256, MemoryPerRank: 1 << 20}, freeVertexRaced)
		})
	}
}

func freeVertexRaced(c rma.Comm, db gdi.Database) error {
	if c.Rank() != 0 {
		return c.Barrier()
	}
	var v, w gdi.VertexUID
	var gone, kept gdi.EdgeUID
	if err := gdirma.InTx(db, func(tx gdi.Transaction) error {
		x, err := tx.CreateVertex(nil)
		if err != nil {
			return err
		}
		y, err := tx.CreateVertex(nil)
		if err != nil {
			return err
		}
		e1, err := tx.CreateEdge(gdi.Undirected, x, y)
		if err != nil {
			return err
		}
		e2, err := tx.CreateEdge(gdi.Directed, y, x)
		if err != nil {
			return err
		}
		if v, err = x.UID(); err != nil {
			return err
		}
		if w, err = y.UID(); err != nil {
			return err
		}
		if gone, err = e1.UID(); err != nil {
			return err
		}
		kept, err = e2.UID()
		return err
	}); err != nil {
		return err
	}

	tx, err := db.StartTransaction()
	if err != nil {
		return err
	}
	x, err := tx.AssociateVertex(v)
	if err == nil {
		_, err = x.Edges(gdi.EdgeAll, nil) // v whole, with both edges
	}
	if err != nil {
		tx.Abort()
		return err
	}
	if err := gdirma.InTx(db, func(tx gdi.Transaction) error {
		e, err := tx.AssociateEdge(gone)
		if err != nil {
			return err
		}
		return e.Free()
	}); err != nil {
		tx.Abort()
		return err
	}
	err = x.Free()
	if err == nil {
		err = tx.Commit()
		if err == nil {
			return fmt.Errorf("freeing a vertex read before one of its edges was deleted committed")
		}
	} else {
		if !gdi.IsTransactionCritical(err) {
			tx.Abort()
			return fmt.Errorf("Free after a concurrent delete: %v, want a transaction-critical error", err)
		}
		tx.Abort()
	}

	if err := gdirma.InTx(db, func(tx gdi.Transaction) error {
		y, err := tx.AssociateVertex(w)
		if err != nil {
			return err
		}
		edges, err := y.Edges(gdi.EdgeAll, nil)
		if err != nil {
			return err
		}
		if len(edges) != 1 || edges[0] != kept {
			return fmt.Errorf("w has edges %v, want only %v", edges, kept)
		}
		if _, err := tx.AssociateVertex(v); err != nil {
			return fmt.Errorf("v after the failed free: %v", err)
		}
		return nil
	}); err != nil {
		return err
	}
	return c.Barrier()
}
