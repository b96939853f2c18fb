package gdirma_test

import (
	"fmt"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/internal/invariants"
	"github.com/gdi-go/gdi/rma"
)

// TestReadAllocations counts the allocations of the read operations of
// the OLTP mixes, each a whole transaction from the application ID on, on
// a vertex shaped like the generator's (a label, its ID and four
// properties, edges with labels): one for the transaction, one for the
// labels and properties decoded (the copy's record has room for five) if
// the operation uses them (lazyhead.go), and the result. The copies and
// the images they are read into come from pools.
//
// Under -race, sync.Pool drops some of what it is given, so the counts
// are checked only without it (make test runs this test again so).
func TestReadAllocations(t *testing.T) {
	if invariants.Enabled {
		t.Skip("pools drop entries at random under -race")
	}
	run(t, 1, gdirma.Params{BlockSize: 512}, func(c rma.Comm, db gdi.Database) error {
		return readAllocations(t, db)
	})
}

func readAllocations(t *testing.T, db gdi.Database) error {
	vl, err := db.CreateLabel("Person")
	if err != nil {
		return err
	}
	el, err := db.CreateLabel("knows")
	if err != nil {
		return err
	}
	var pts []gdi.PropertyType
	for _, n := range []string{"first", "last", "email", "age"} {
		p, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: n, Entity: gdi.SingleEntity, Datatype: gdi.Char, Size: gdi.MaxSize, Count: 64})
		if err != nil {
			return err
		}
		pts = append(pts, p)
	}
	id, lonely := []byte("person-1"), []byte("person-2")
	err = retry(db, func(tx gdi.Transaction) error {
		w, err := tx.CreateVertex(lonely) // has no edges
		if err != nil {
			return err
		}
		if err := w.AddLabel(vl); err != nil {
			return err
		}
		v, err := tx.CreateVertex(id)
		if err != nil {
			return err
		}
		if err := v.AddLabel(vl); err != nil {
			return err
		}
		for i, p := range pts {
			if err := v.AddProperty(p, gdi.Chars(fmt.Sprint("value ", i))); err != nil {
				return err
			}
		}
		for range 12 { // a result of at most 16 UIDs is allocated once
			u, err := tx.CreateVertex(nil)
			if err != nil {
				return err
			}
			e, err := tx.CreateEdge(gdi.Undirected, v, u)
			if err != nil {
				return err
			}
			if err := e.AddLabel(el); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	con, err := labelConstraint(db, [][]gdi.LabelCondition{{{Label: el, Op: gdi.Equal}}})
	if err != nil {
		return err
	}
	op := func(id []byte, read func(tx gdi.Transaction, v gdi.VertexHolder) error) func() {
		return func() {
			tx, err := db.StartTransaction()
			if err != nil {
				panic(err)
			}
			uid, found, err := tx.TranslateVertexID(vl, id)
			if err != nil || !found {
				panic(fmt.Sprint("translate: ", found, err))
			}
			v, err := tx.AssociateVertex(uid)
			if err == nil {
				err = read(tx, v)
			}
			if err == nil {
				err = tx.Commit()
			}
			if err != nil {
				panic(err)
			}
		}
	}
	for _, c := range []struct {
		name string
		want float64
		id   []byte
		read func(tx gdi.Transaction, v gdi.VertexHolder) error
	}{
		{"get-vertex-properties", 3, id, func(_ gdi.Transaction, v gdi.VertexHolder) error {
			ps, err := v.Properties(pts[1])
			if err == nil && (len(ps) != 1 || ps[0] != gdi.Chars("value 1")) {
				err = fmt.Errorf("properties %v, want [value 1]", ps)
			}
			return err
		}},
		{"get-edges-of-a-label", 2, id, func(_ gdi.Transaction, v gdi.VertexHolder) error {
			es, err := v.Edges(gdi.EdgeAll, con)
			if err == nil && len(es) != 12 {
				err = fmt.Errorf("%d edges, want 12", len(es))
			}
			return err
		}},
		// Only the transaction: an empty result costs nothing, and a
		// vertex without edges needs no walk.
		{"get-edges-of-a-vertex-without-edges", 1, lonely, func(_ gdi.Transaction, v gdi.VertexHolder) error {
			es, err := v.Edges(gdi.EdgeAll, con)
			if err == nil && (es == nil || len(es) != 0) {
				err = fmt.Errorf("edges %#v, want an empty slice", es)
			}
			return err
		}},
		// Only the transaction: a lookup that finds its vertex in the
		// DHT keeps nothing for the commit, so a second one (as an OLTP
		// add-edge makes) grows no list.
		{"translate-a-second-vertex", 1, id, func(tx gdi.Transaction, _ gdi.VertexHolder) error {
			_, found, err := tx.TranslateVertexID(vl, lonely)
			if err == nil && !found {
				err = fmt.Errorf("%s not found", lonely)
			}
			return err
		}},
	} {
		if got := testing.AllocsPerRun(200, op(c.id, c.read)); got > c.want {
			t.Errorf("%s: %.1f allocations, want at most %.0f", c.name, got, c.want)
		}
	}
	return nil
}

// TestWriteAllocations counts the allocations of single-operation write
// transactions, from AssociateVertex (of two vertices) to the commit:
//   - adding a vertex with an ID, a label and a property costs the
//     transaction, a third vertex holder (a transaction has room for two),
//     the ID's value, and at commit the note to take the ID out of the
//     implicit index again if the commit fails;
//   - adding an edge costs the transaction, the edge's holder, and the new
//     edge references of its two ends; the copies, the commit's locks and
//     its scratch copy of the store, and the heads of the images written
//     come from pools;
//   - a label for the new edge costs nothing more: its references change
//     in place;
//   - updating a property costs the transaction, and the property values of
//     the copy and of the committed record it replaces, decoded (the commit
//     compares their keys).
func TestWriteAllocations(t *testing.T) {
	if invariants.Enabled {
		t.Skip("pools drop entries at random under -race")
	}
	run(t, 1, gdirma.Params{BlockSize: 512}, func(c rma.Comm, db gdi.Database) error {
		return writeAllocations(t, db)
	})
}

func writeAllocations(t *testing.T, db gdi.Database) error {
	p, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "num", Entity: gdi.SingleEntity, Datatype: gdi.Int64, Size: gdi.FixedSize, Count: 1})
	if err != nil {
		return err
	}
	const n = 64
	uids := make([]gdi.VertexUID, n)
	err = retry(db, func(tx gdi.Transaction) error {
		for i := range uids {
			v, err := tx.CreateVertex(nil)
			if err != nil {
				return err
			}
			if err := v.AddProperty(p, gdi.Int64s(0)); err != nil {
				return err
			}
			if uids[i], err = v.UID(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	values := []gdi.Value{gdi.Int64s(1 << 40), gdi.Int64s(2 << 40), gdi.Int64s(3 << 40)}
	i := 0
	op := func(write func(tx gdi.Transaction, a, b gdi.VertexHolder) error) func() {
		return func() {
			i++
			tx, err := db.StartTransaction()
			if err != nil {
				panic(err)
			}
			a, err := tx.AssociateVertex(uids[i%n])
			if err != nil {
				panic(err)
			}
			b, err := tx.AssociateVertex(uids[(7*i+3)%n])
			if err == nil {
				err = write(tx, a, b)
			}
			if err == nil {
				err = tx.Commit()
			}
			if err != nil {
				panic(err)
			}
		}
	}
	vl, err := db.CreateLabel("V")
	if err != nil {
		return err
	}
	ids := make([][]byte, 256) // made beforehand, not counted
	for j := range ids {
		ids[j] = []byte(fmt.Sprint("new-", j))
	}
	for _, c := range []struct {
		name  string
		want  float64
		write func(tx gdi.Transaction, a, b gdi.VertexHolder) error
	}{
		{"add-vertex", 5, func(tx gdi.Transaction, _, _ gdi.VertexHolder) error {
			v, err := tx.CreateVertex(ids[i%len(ids)])
			if err == nil {
				err = v.AddLabel(vl)
			}
			if err == nil {
				err = v.AddProperty(p, values[0])
			}
			return err
		}},
		{"add-edge", 4, func(tx gdi.Transaction, a, b gdi.VertexHolder) error {
			_, err := tx.CreateEdge(gdi.Directed, a, b)
			return err
		}},
		{"add-labelled-edge", 4, func(tx gdi.Transaction, a, b gdi.VertexHolder) error {
			e, err := tx.CreateEdge(gdi.Directed, a, b)
			if err == nil {
				err = e.AddLabel(vl)
			}
			return err
		}},
		{"update-property", 3, func(tx gdi.Transaction, a, _ gdi.VertexHolder) error {
			// A vertex is updated every n-th run: to another value.
			return a.UpdateProperty(p, values[i%len(values)])
		}},
	} {
		if got := testing.AllocsPerRun(200, op(c.write)); got > c.want {
			t.Errorf("%s: %.1f allocations, want at most %.0f", c.name, got, c.want)
		}
	}
	return nil
}
