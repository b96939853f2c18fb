package gdirma

import (
	"fmt"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// TestShortReadWhole: a transaction that reads a vertex of at most
// shortBlocks blocks reads it whole at once, with its blocks, so that a
// query of its edges reads nothing more and a commit installs over what
// was read; a longer vertex is read from its primary block alone. Either
// way a change commits and reads back as made.
func TestShortReadWhole(t *testing.T) {
	err := local.Run(1, func(c rma.Comm) error {
		d, err := Driver{}.CreateDatabase(c, Params{BlockSize: 64, MemoryPerRank: 1 << 18})
		if err != nil {
			return err
		}
		db := d.(*Database)
		defer db.Free()
		num, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "num", Entity: gdi.SingleEntity, Datatype: gdi.Int64, Size: gdi.FixedSize, Count: 1})
		if err != nil {
			return err
		}
		for _, blocks := range []int{1, 2, 3, 5} {
			t.Run(fmt.Sprintf("blocks=%d", blocks), func(t *testing.T) {
				if err := shortReadCase(t, db, num, blocks); err != nil {
					t.Fatal(err)
				}
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// shortReadCase makes a vertex of the given number of blocks, reads it in
// a transaction, checks how, adds an edge and a property and checks them
// after the commit.
func shortReadCase(t *testing.T, db *Database, num gdi.PropertyType, blocks int) error {
	tx, err := db.StartTransaction()
	if err != nil {
		return err
	}
	x, err := tx.CreateVertex([]byte(fmt.Sprintf("x%d", blocks)))
	if err != nil {
		return err
	}
	y, err := tx.CreateVertex(nil)
	if err != nil {
		return err
	}
	ux, err := x.UID()
	if err != nil {
		return err
	}
	uy, err := y.UID()
	if err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	n, err := db.st.number(uint64(ux), vertexKind)
	if err != nil {
		return err
	}
	// Edges until the image takes the blocks wanted.
	edges := 0
	for {
		img, ok, err := db.st.readImage(n, false, true)
		if err != nil || !ok {
			return fmt.Errorf("reading vertex x: %v %v", ok, err)
		}
		if len(img.chain) == blocks {
			break
		}
		if len(img.chain) > blocks {
			return fmt.Errorf("vertex x went from fewer than %d blocks to %d", blocks, len(img.chain))
		}
		if err := InTx(db, func(tx gdi.Transaction) error {
			x, err := tx.AssociateVertex(ux)
			if err != nil {
				return err
			}
			y, err := tx.AssociateVertex(uy)
			if err != nil {
				return err
			}
			_, err = tx.CreateEdge(gdi.Directed, x, y)
			return err
		}); err != nil {
			return err
		}
		edges++
	}

	tx, err = db.StartTransaction()
	if err != nil {
		return err
	}
	x, err = tx.AssociateVertex(ux)
	if err != nil {
		tx.Abort()
		return err
	}
	o := tx.(*Transaction).objs[vertexKind].get(n)
	switch short := blocks == 2; { // shortBlocks
	case o == nil:
		t.Error("AssociateVertex kept no copy")
	case blocks == 1 && (o.rec.partial || o.img == nil):
		t.Errorf("one block: partial %v, image kept %v; want it whole from its only block", o.rec.partial, o.img != nil)
	case short && (o.rec.partial || o.orig == nil || len(o.chain) != blocks):
		t.Errorf("%d blocks: partial %v, committed record kept %v, chain %d; want it whole with its blocks", blocks, o.rec.partial, o.orig != nil, len(o.chain))
	case blocks > 2 && !o.rec.partial:
		t.Errorf("%d blocks: read whole, want the primary block alone", blocks)
	}
	if got, err := x.Edges(gdi.EdgeAll, nil); err != nil || len(got) != edges {
		t.Errorf("Edges: %d edges (%v), want %d", len(got), err, edges)
	}
	y, err = tx.AssociateVertex(uy)
	if err == nil {
		_, err = tx.CreateEdge(gdi.Directed, x, y)
	}
	if err == nil {
		err = x.AddProperty(num, gdi.Int64s(int64(blocks)))
	}
	if err != nil {
		tx.Abort()
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}

	return InTx(db, func(tx gdi.Transaction) error {
		x, err := tx.AssociateVertex(ux)
		if err != nil {
			return err
		}
		if got, err := x.Edges(gdi.EdgeAll, nil); err != nil || len(got) != edges+1 {
			t.Errorf("after the commit: %d edges (%v), want %d", len(got), err, edges+1)
		}
		if got, err := x.Properties(num); err != nil || len(got) != 1 || got[0] != gdi.Int64s(int64(blocks)) {
			t.Errorf("after the commit: num = %v (%v), want %d", got, err, blocks)
		}
		return nil
	})
}
