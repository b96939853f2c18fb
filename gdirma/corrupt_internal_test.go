package gdirma

import (
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/store"
	"github.com/gdi-go/gdi/internal/invariants"
)

// TestCorruptPrefix: a vertex read from the start of its primary block
// whose labels and properties do not decode is reported as an internal
// error, never handed out half decoded: when read with invariants on,
// else by every method that uses them.
func TestCorruptPrefix(t *testing.T) {
	err := withLocalDB(Params{BlockSize: 64, MemoryPerRank: 1 << 16}, func(db *Database) error {
		var u gdi.VertexUID
		tx, err := db.StartTransaction()
		if err != nil {
			return err
		}
		x, err := tx.CreateVertex([]byte("x"))
		if err != nil {
			return err
		}
		y, err := tx.CreateVertex(nil)
		if err != nil {
			return err
		}
		for range 6 { // edge references past the primary block
			if _, err := tx.CreateEdge(gdi.Directed, x, y); err != nil {
				return err
			}
		}
		if u, err = x.UID(); err != nil {
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
		n, err := db.st.number(uint64(u), vertexKind)
		if err != nil {
			return err
		}
		// The image starts: no labels (0), one property (1), its type
		// (the ID's), its datatype: make that one invalid.
		head := make([]byte, 4)
		if err := db.st.Get(head, n.Holder(), store.PrimaryHeader); err != nil {
			return err
		}
		if head[0] != 0 || head[1] != 1 || head[2] != byte(gdi.PropertyTypeID) {
			t.Fatalf("unexpected image start % x", head)
		}
		if err := db.st.Put([]byte{0xee}, n.Holder(), store.PrimaryHeader+3); err != nil {
			return err
		}
		tx, err = db.StartTransaction()
		if err != nil {
			return err
		}
		defer tx.Abort()
		v, err := tx.AssociateVertex(u)
		if invariants.Enabled || err != nil {
			// With invariants on, labels and properties are checked
			// when read.
			if gdi.ErrorClass(err) != gdi.ErrIntern {
				t.Errorf("AssociateVertex of a corrupt vertex: %v, want an internal error", err)
			}
			return nil
		}
		// Otherwise they are checked when first decoded (lazyhead.go).
		if _, err := v.Properties(gdi.PropertyTypeID); gdi.ErrorClass(err) != gdi.ErrIntern {
			t.Errorf("Properties of a corrupt vertex: %v, want an internal error", err)
		}
		if _, err := v.Labels(); gdi.ErrorClass(err) != gdi.ErrIntern {
			t.Errorf("Labels of a corrupt vertex: %v, want an internal error", err)
		}
		if err := v.AddLabel(gdi.LabelNone); gdi.ErrorClass(err) != gdi.ErrIntern {
			t.Errorf("AddLabel on a corrupt vertex: %v, want an internal error", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
