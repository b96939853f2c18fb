package gdirma

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/store"
)

// TestSpanningHead: a vertex whose properties do not fit in its primary
// block is read once: the first read finds the head going on, reads the
// rest of the image only (Transaction.spanning), and keeps the committed
// record and blocks, so that a change commits without reading the holder
// again. If another transaction changed the vertex between the two reads,
// the rest is not used: the vertex is read whole again, as changed.
func TestSpanningHead(t *testing.T) {
	err := withBioDB(func(db *Database, bio gdi.PropertyType) error {
		num, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "num", Entity: gdi.SingleEntity, Datatype: gdi.Int64, Size: gdi.FixedSize, Count: 1})
		if err != nil {
			return err
		}
		long := func(c byte) gdi.Value { return gdi.Chars(strings.Repeat(string(c), 150)) }
		var u gdi.VertexUID
		if err := InTx(db, func(tx gdi.Transaction) error {
			x, err := tx.CreateVertex(nil)
			if err == nil {
				err = x.AddProperty(bio, long('a'))
			}
			if err == nil {
				u, err = x.UID()
			}
			return err
		}); err != nil {
			return err
		}
		n, err := db.st.number(uint64(u), vertexKind)
		if err != nil {
			return err
		}
		var img store.Image
		ok, err := db.st.read(n, &store.Request{Mode: store.Chain}, &img)
		if err != nil || !ok || len(img.Chain) < 4 {
			return fmt.Errorf("vertex of %d blocks (%v %v), want some", len(img.Chain), ok, err)
		}
		blocks := len(img.Chain)
		bioOf := func(tx gdi.Transaction) (string, error) {
			x, err := tx.AssociateVertex(u)
			if err != nil {
				return "", err
			}
			vs, err := x.Properties(bio)
			if err != nil || len(vs) != 1 {
				return "", fmt.Errorf("bio: %v %v", vs, err)
			}
			return vs[0].String(), nil
		}

		// Read once, whole, with what a commit needs.
		tx, err := db.StartTransaction()
		if err != nil {
			return err
		}
		if got, err := bioOf(tx); err != nil || got != long('a').String() {
			tx.Abort()
			return fmt.Errorf("bio read %q (%v), want 150 a's", got, err)
		}
		o := tx.(*Transaction).objs[vertexKind].get(n)
		if o == nil || o.rec.partial || o.orig == nil || len(o.chain) != blocks {
			tx.Abort()
			return fmt.Errorf("copy after the first read: %v; want it whole, with the committed record and its %d blocks", o != nil && !o.rec.partial && o.orig != nil, blocks)
		}
		x, err := tx.AssociateVertex(u)
		if err == nil {
			err = x.AddProperty(num, gdi.Int64s(7))
		}
		if err == nil {
			err = tx.Commit()
		} else {
			tx.Abort()
		}
		if err != nil {
			return err
		}
		if err := InTx(db, func(tx gdi.Transaction) error {
			x, err := tx.AssociateVertex(u)
			if err != nil {
				return err
			}
			vs, err := x.Properties(num)
			if err != nil || len(vs) != 1 || vs[0] != gdi.Int64s(7) {
				return fmt.Errorf("num after the commit: %v %v, want 7", vs, err)
			}
			return nil
		}); err != nil {
			return err
		}

		// A change between the first read and the rest.
		tx, err = db.StartTransaction()
		if err != nil {
			return err
		}
		defer tx.Abort()
		t2 := tx.(*Transaction)
		lo := db.st.loaded.get()
		ok, _, hint, err := db.st.loadPrefix(&lo.r, n, 0, t2.imageList(), lo.small[:], nil)
		if err != nil || !ok || !hint.spans {
			return fmt.Errorf("loadPrefix: %v %v, spans %v; want the head to go on", ok, err, hint.spans)
		}
		if err := InTx(db, func(tx gdi.Transaction) error {
			x, err := tx.AssociateVertex(u)
			if err != nil {
				return err
			}
			return x.UpdateProperty(bio, long('b'))
		}); err != nil {
			return err
		}
		o, err = t2.spanning(n, lo, &hint)
		if err != nil {
			return fmt.Errorf("spanning after a change: %v", err)
		}
		if o.rec.version == hint.Version {
			return fmt.Errorf("spanning kept version %x, which a commit replaced", hint.Version)
		}
		if got, err := bioOf(tx); err != nil || got != long('b').String() {
			return fmt.Errorf("bio after a change between the reads: %q (%v), want 150 b's", got, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// withBioDB runs f on one local rank with a database of 64-byte blocks
// and a string property type "bio" of up to 200 bytes, which it frees.
func withBioDB(f func(db *Database, bio gdi.PropertyType) error) error {
	return withLocalDB(Params{BlockSize: 64, MemoryPerRank: 1 << 20}, func(db *Database) error {
		bio, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "bio", Entity: gdi.SingleEntity, Datatype: gdi.Char, Size: gdi.MaxSize, Count: 200})
		if err != nil {
			return err
		}
		return f(db, bio)
	})
}

// TestSpanningHeadLong: a long vertex (a hub) whose properties do not
// fit in its primary block is read only as far as its head goes
// (extendPrefix): reading its properties leaves the record partial with
// a prefix over several blocks, and what is read later of it (its edges,
// its degrees, a commit of a change) is the whole vertex as committed.
// If a writer changes it between the two reads, the rest is not used.
func TestSpanningHeadLong(t *testing.T) {
	const edges = 40
	err := withBioDB(func(db *Database, bio gdi.PropertyType) error {
		long := func(c byte, k int) gdi.Value { return gdi.Chars(strings.Repeat(string(c), k)) }
		var hub gdi.VertexUID
		var leaves []gdi.VertexUID
		if err := InTx(db, func(tx gdi.Transaction) error {
			h, err := tx.CreateVertex(nil)
			if err == nil {
				err = h.AddProperty(bio, long('a', 150))
			}
			if err == nil {
				hub, err = h.UID()
			}
			for i := 0; err == nil && i < edges; i++ {
				var x gdi.VertexHolder
				if x, err = tx.CreateVertex(nil); err == nil {
					_, err = tx.CreateEdge(gdi.Directed, h, x)
				}
				var u gdi.VertexUID
				if err == nil {
					u, err = x.UID()
				}
				leaves = append(leaves, u)
			}
			return err
		}); err != nil {
			return err
		}
		n, err := db.st.number(uint64(hub), vertexKind)
		if err != nil {
			return err
		}
		state := func(tx gdi.Transaction) (string, int, uint64, error) {
			h, err := tx.AssociateVertex(hub)
			if err != nil {
				return "", 0, 0, err
			}
			vs, err := h.Properties(bio)
			if err != nil || len(vs) != 1 {
				return "", 0, 0, fmt.Errorf("bio: %v %v", vs, err)
			}
			o := tx.(*Transaction).objs[vertexKind].get(n)
			if o == nil || !o.rec.partial || len(o.rest.Chain) < 2 || len(o.rest.Fences) != len(o.rest.Chain)-1 {
				return "", 0, 0, fmt.Errorf("after reading the bio: %+v; want a partial record read over %d+ blocks", o != nil && o.rec.partial, 2)
			}
			es, err := h.Edges(gdi.EdgeAll, nil)
			if err != nil {
				return "", 0, 0, err
			}
			deg, err := h.Properties(gdi.PropertyTypeDegree)
			if err != nil || len(deg) != 1 {
				return "", 0, 0, fmt.Errorf("degree: %v %v", deg, err)
			}
			ds, err := deg[0].Uint64Slice()
			if err != nil || len(ds) != 1 {
				return "", 0, 0, fmt.Errorf("degree: %v %v", deg, err)
			}
			return vs[0].String(), len(es), ds[0], nil
		}
		check := func(step, wantBio string, wantEdges int) error {
			return InTx(db, func(tx gdi.Transaction) error {
				b, k, deg, err := state(tx)
				if err != nil {
					return fmt.Errorf("%s: %v", step, err)
				}
				if b != wantBio || k != wantEdges || deg != uint64(wantEdges) {
					return fmt.Errorf("%s: bio of %d bytes, %d edges, degree %d; want %d bytes, %d edges", step, len(b), k, deg, len(wantBio), wantEdges)
				}
				return nil
			})
		}
		if err := check("after the load", long('a', 150).String(), edges); err != nil {
			return err
		}
		// A change of the head, of another length, from the partial copy.
		if err := InTx(db, func(tx gdi.Transaction) error {
			if _, _, _, err := state(tx); err != nil {
				return err
			}
			h, err := tx.AssociateVertex(hub)
			if err == nil {
				err = h.UpdateProperty(bio, long('b', 170))
			}
			return err
		}); err != nil {
			return err
		}
		if err := check("after a change of the bio", long('b', 170).String(), edges); err != nil {
			return err
		}
		// A writer between the prefix and the rest.
		tx, err := db.StartTransaction()
		if err != nil {
			return err
		}
		defer tx.Abort()
		h, err := tx.AssociateVertex(hub)
		if err != nil {
			return err
		}
		if _, err := h.Properties(bio); err != nil {
			return err
		}
		if err := InTx(db, func(tx gdi.Transaction) error {
			x, err := tx.AssociateVertex(hub)
			if err != nil {
				return err
			}
			y, err := tx.AssociateVertex(leaves[0])
			if err == nil {
				_, err = tx.CreateEdge(gdi.Directed, y, x)
			}
			return err
		}); err != nil {
			return err
		}
		if es, err := h.Edges(gdi.EdgeAll, nil); err == nil && len(es) == edges {
			return fmt.Errorf("edges after a concurrent commit: the %d of before, without an error", len(es))
		}
		return check("after a concurrent edge", long('b', 170).String(), edges+1)
	})
	if err != nil {
		t.Fatal(err)
	}
}
