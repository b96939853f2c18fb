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
	id := []byte("person-1")
	err = retry(db, func(tx gdi.Transaction) error {
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
	op := func(read func(v gdi.VertexHolder) error) func() {
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
				err = read(v)
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
		read func(v gdi.VertexHolder) error
	}{
		{"get-vertex-properties", 3, func(v gdi.VertexHolder) error {
			ps, err := v.Properties(pts[1])
			if err == nil && (len(ps) != 1 || ps[0] != gdi.Chars("value 1")) {
				err = fmt.Errorf("properties %v, want [value 1]", ps)
			}
			return err
		}},
		{"get-edges-of-a-label", 2, func(v gdi.VertexHolder) error {
			es, err := v.Edges(gdi.EdgeAll, con)
			if err == nil && len(es) != 12 {
				err = fmt.Errorf("%d edges, want 12", len(es))
			}
			return err
		}},
	} {
		if got := testing.AllocsPerRun(200, op(c.read)); got > c.want {
			t.Errorf("%s: %.1f allocations, want at most %.0f", c.name, got, c.want)
		}
	}
	return nil
}
