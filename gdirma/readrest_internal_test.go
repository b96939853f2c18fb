package gdirma

import (
	"fmt"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/store"
)

// TestReadRest: a transaction reads a vertex longer than its primary
// block in part first, and keeps what it needs to read only the rest of
// it later (restHint); a query of its edges then reads the rest, and the
// transaction has the vertex whole, with its blocks, for a commit to
// install over. A change commits and reads back as made. If another
// transaction changed the vertex in between, the rest is not used: the
// query fails as transaction-critical rather than mix two versions.
//
// With 64-byte blocks the first read gets the whole primary block; with
// 512-byte blocks only its first 128 bytes, and the rest of it is read
// with the other blocks.
func TestReadRest(t *testing.T) {
	for _, bs := range []int{64, 512} {
		err := withLocalDB(Params{BlockSize: bs, MemoryPerRank: 1 << 20}, func(db *Database) error {
			num, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "num", Entity: gdi.SingleEntity, Datatype: gdi.Int64, Size: gdi.FixedSize, Count: 1})
			if err != nil {
				return err
			}
			for _, blocks := range []int{1, 2, 3, 5} {
				t.Run(fmt.Sprintf("bs=%d/blocks=%d", bs, blocks), func(t *testing.T) {
					if err := readRestCase(t, db, num, blocks); err != nil {
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
}

// readRestCase makes a vertex of the given number of blocks, reads it in
// a transaction, checks how, adds an edge and a property and checks them
// after the commit; then has a concurrent commit change it between the
// two reads.
func readRestCase(t *testing.T, db *Database, num gdi.PropertyType, blocks int) error {
	var ux, uy gdi.VertexUID
	if err := InTx(db, func(tx gdi.Transaction) error {
		x, err := tx.CreateVertex([]byte(fmt.Sprintf("x%d", blocks)))
		if err != nil {
			return err
		}
		y, err := tx.CreateVertex(nil)
		if err != nil {
			return err
		}
		if ux, err = x.UID(); err != nil {
			return err
		}
		uy, err = y.UID()
		return err
	}); err != nil {
		return err
	}
	n, err := db.st.number(uint64(ux), vertexKind)
	if err != nil {
		return err
	}
	addEdge := func(tx gdi.Transaction) error {
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
	}
	// Edges until the image takes the blocks wanted.
	edges := 0
	for {
		var img store.Image
		ok, err := db.st.read(n, &store.Request{Mode: store.Chain}, &img)
		if err != nil || !ok {
			return fmt.Errorf("reading vertex x: %v %v", ok, err)
		}
		if len(img.Chain) == blocks {
			break
		}
		if len(img.Chain) > blocks {
			return fmt.Errorf("vertex x went from fewer than %d blocks to %d", blocks, len(img.Chain))
		}
		if err := InTx(db, addEdge); err != nil {
			return err
		}
		edges++
	}

	tx, err := db.StartTransaction()
	if err != nil {
		return err
	}
	x, err := tx.AssociateVertex(ux)
	if err != nil {
		tx.Abort()
		return err
	}
	o := tx.(*Transaction).objs[vertexKind].get(n)
	switch {
	case o == nil:
		t.Fatal("AssociateVertex kept no copy")
	case blocks == 1 && (o.rec.partial || o.img == nil):
		t.Errorf("one block: partial %v, image kept %v; want it whole from its only block", o.rec.partial, o.img != nil)
	case blocks > 1 && (!o.rec.partial || o.rest.Bytes == nil):
		t.Errorf("%d blocks: partial %v, rest hint %v; want the primary block, and how to read the rest", blocks, o.rec.partial, o.rest.Bytes != nil)
	}
	if got, err := x.Edges(gdi.EdgeAll, nil); err != nil || len(got) != edges {
		t.Errorf("Edges: %d edges (%v), want %d", len(got), err, edges)
	}
	if blocks > 1 && (o.rec.partial || o.orig == nil || len(o.chain) != blocks || o.rest.Bytes != nil) {
		t.Errorf("%d blocks, after Edges: partial %v, committed record kept %v, chain %d, hint kept %v; want it whole with its blocks", blocks, o.rec.partial, o.orig != nil, len(o.chain), o.rest.Bytes != nil)
	}
	y, err := tx.AssociateVertex(uy)
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
	edges++
	if err := InTx(db, func(tx gdi.Transaction) error {
		x, err := tx.AssociateVertex(ux)
		if err != nil {
			return err
		}
		if got, err := x.Edges(gdi.EdgeAll, nil); err != nil || len(got) != edges {
			t.Errorf("after the commit: %d edges (%v), want %d", len(got), err, edges)
		}
		if got, err := x.Properties(num); err != nil || len(got) != 1 || got[0] != gdi.Int64s(int64(blocks)) {
			t.Errorf("after the commit: num = %v (%v), want %d", got, err, blocks)
		}
		return nil
	}); err != nil {
		return err
	}

	// A commit between the two reads.
	tx, err = db.StartTransaction()
	if err != nil {
		return err
	}
	defer tx.Abort()
	if x, err = tx.AssociateVertex(ux); err != nil {
		return err
	}
	partial := tx.(*Transaction).objs[vertexKind].get(n).rec.partial
	if err := InTx(db, addEdge); err != nil {
		return err
	}
	got, err := x.Edges(gdi.EdgeAll, nil)
	switch {
	case !partial && (err != nil || len(got) != edges):
		t.Errorf("changed after a whole read: %d edges (%v), want the %d read", len(got), err, edges)
	case partial && gdi.ErrorClass(err) != gdi.ErrTransactionCritical:
		t.Errorf("changed between the two reads: Edges = %d edges (%v), want a transaction-critical error", len(got), err)
	}
	return nil
}
