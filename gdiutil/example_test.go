package gdiutil_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/gdiutil"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// A hello graph with the layer: two people, one who knows the other, read
// back by ID.
func Example() {
	err := local.Run(1, func(comm rma.Comm) error {
		db, err := gdirma.Driver{}.CreateDatabase(comm, nil)
		if err != nil {
			return err
		}
		defer db.Free()
		person, err1 := db.CreateLabel("Person")
		knows, err2 := db.CreateLabel("knows")
		name, err3 := db.CreatePropertyType(gdiutil.PropertyType("name", gdi.Char))
		if err := errors.Join(err1, err2, err3); err != nil {
			return err
		}
		ctx := context.Background()
		err = gdiutil.RunTransaction(ctx, db, func(tx gdi.Transaction) error {
			ada, err1 := tx.CreateVertex([]byte("ada"))
			alan, err2 := tx.CreateVertex([]byte("alan"))
			if err := errors.Join(err1, err2); err != nil {
				return err
			}
			e, err := tx.CreateEdge(gdi.Directed, ada, alan)
			return errors.Join(err, ada.AddLabel(person), alan.AddLabel(person), e.AddLabel(knows),
				ada.AddProperty(name, gdi.Chars("Ada Lovelace")))
		})
		if err != nil {
			return err
		}
		return gdiutil.RunTransaction(ctx, db, func(tx gdi.Transaction) error {
			uid, _, err := tx.TranslateVertexID(person, []byte("ada"))
			if err != nil {
				return err
			}
			ada, err := tx.AssociateVertex(uid)
			if err != nil {
				return err
			}
			s, _, err := gdiutil.Text(ada, name)
			fmt.Println(s)
			return err
		})
	})
	fmt.Println(err)
	// Output:
	// Ada Lovelace
	// <nil>
}

// Ranging over the neighbours of a vertex: holders are associated as the
// loop reaches them.
func ExampleNeighbors() {
	err := local.Run(1, func(comm rma.Comm) error {
		db, err := gdirma.Driver{}.CreateDatabase(comm, nil)
		if err != nil {
			return err
		}
		defer db.Free()
		ctx := context.Background()
		return gdiutil.RunTransaction(ctx, db, func(tx gdi.Transaction) error {
			hub, err := tx.CreateVertex([]byte("hub"))
			if err != nil {
				return err
			}
			for _, id := range []string{"a", "b", "c"} {
				v, err := tx.CreateVertex([]byte(id))
				if err != nil {
					return err
				}
				if _, err := tx.CreateEdge(gdi.Directed, hub, v); err != nil {
					return err
				}
			}
			n := 0
			for v, err := range gdiutil.Neighbors(ctx, tx, hub, gdi.EdgeOutgoing, nil) {
				if err != nil {
					return err
				}
				if _, err := v.Labels(); err != nil {
					return err
				}
				n++
			}
			fmt.Println(n, "neighbours")
			return nil
		})
	})
	fmt.Println(err)
	// Output:
	// 3 neighbours
	// <nil>
}
