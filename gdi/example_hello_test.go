package gdi_test

import (
	"errors"
	"fmt"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// A hello graph: a database, a label and a property type, two vertices
// and an edge, read back with a constraint on the edges (one rank).
func Example() {
	err := local.Run(1, func(comm rma.Comm) error {
		db, err := gdirma.Driver{}.CreateDatabase(comm, nil)
		if err != nil {
			return err
		}
		defer db.Free()
		person, err1 := db.CreateLabel("Person")
		knows, err2 := db.CreateLabel("knows")
		name, err3 := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "name", Entity: gdi.SingleEntity, Datatype: gdi.Char, Size: gdi.NoSizeLimit})
		tx, err4 := db.StartTransaction()
		if err := errors.Join(err1, err2, err3, err4); err != nil {
			return err
		}
		defer tx.Abort()
		ada, err1 := tx.CreateVertex([]byte("ada"))
		alan, err2 := tx.CreateVertex([]byte("alan"))
		e, err3 := tx.CreateEdge(gdi.Directed, ada, alan)
		sub, err4 := db.CreateSubconstraint()
		con, err5 := db.CreateConstraint()
		err = errors.Join(err1, err2, err3, err4, err5, ada.AddLabel(person), ada.AddProperty(name, gdi.Chars("Ada")),
			alan.AddLabel(person), alan.AddProperty(name, gdi.Chars("Alan")), e.AddLabel(knows),
			sub.AddLabelCondition(knows, gdi.Equal), con.AddSubconstraint(sub))
		if err != nil {
			return err
		}
		uids, err1 := ada.Edges(gdi.EdgeOutgoing, con) // the edges labelled knows
		names, err2 := alan.Properties(name)
		fmt.Println(len(uids), names[0])
		return errors.Join(err1, err2, tx.Commit())
	})
	fmt.Println(err)
	// Output:
	// 1 "Alan"
	// <nil>
}
