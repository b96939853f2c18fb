// Quickstart opens a GDI database on two ranks, creates two vertices and an
// edge between them in a transaction on rank 0, and reads them back on
// rank 1.
//
//	go run ./examples/quickstart
package main

import (
	"fmt"
	"io"
	"log"
	"os"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/launch"
)

// driver is the backend the example runs on.
var driver gdi.Driver = gdirma.Driver{}

func main() {
	if err := run(os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run starts two ranks; rank 1 prints what it reads to w.
func run(w io.Writer) error {
	return launch.Run(2, func(comm rma.Comm) error {
		db, err := driver.CreateDatabase(comm, nil)
		if err != nil {
			return err
		}
		defer db.Free()

		// Metadata is created collectively, then the ranks synchronise.
		person, err := db.CreateLabel("Person")
		if err != nil {
			return err
		}
		knows, err := db.CreateLabel("knows")
		if err != nil {
			return err
		}
		name, err := db.CreatePropertyType(gdi.PropertyTypeInfo{
			Name: "name", Entity: gdi.SingleEntity, Datatype: gdi.Char, Size: gdi.MaxSize, Count: 64})
		if err != nil {
			return err
		}
		if err := comm.Barrier(); err != nil {
			return err
		}

		if comm.Rank() == 0 {
			if err := create(db, person, knows, name); err != nil {
				return err
			}
		}
		if err := comm.Barrier(); err != nil { // rank 0 has committed
			return err
		}
		if comm.Rank() == 1 {
			return read(w, db, person, name)
		}
		return nil
	})
}

// create adds Ada and Alan, who know each other.
func create(db gdi.Database, person, knows gdi.Label, name gdi.PropertyType) error {
	tx, err := db.StartTransaction()
	if err != nil {
		return err
	}
	var vs []gdi.VertexHolder
	for _, p := range []struct{ id, name string }{{"ada", "Ada Lovelace"}, {"alan", "Alan Turing"}} {
		v, err := tx.CreateVertex([]byte(p.id))
		if err != nil {
			tx.Abort()
			return err
		}
		if err := v.AddLabel(person); err != nil {
			tx.Abort()
			return err
		}
		if err := v.AddProperty(name, gdi.Chars(p.name)); err != nil {
			tx.Abort()
			return err
		}
		vs = append(vs, v)
	}
	e, err := tx.CreateEdge(gdi.Undirected, vs[0], vs[1])
	if err == nil {
		err = e.AddLabel(knows)
	}
	if err != nil {
		tx.Abort()
		return err
	}
	return tx.Commit()
}

// read finds Ada by her application-level ID and prints her and the people
// she knows.
func read(w io.Writer, db gdi.Database, person gdi.Label, name gdi.PropertyType) error {
	tx, err := db.StartTransaction()
	if err != nil {
		return err
	}
	defer tx.Abort()
	uid, found, err := tx.TranslateVertexID(person, []byte("ada"))
	if err != nil || !found {
		return fmt.Errorf("ada not found: %v", err)
	}
	ada, err := tx.AssociateVertex(uid)
	if err != nil {
		return err
	}
	names, err := ada.Properties(name)
	if err != nil {
		return err
	}
	friends, err := ada.Neighbors(gdi.EdgeUndirected, nil)
	if err != nil {
		return err
	}
	for _, f := range friends {
		v, err := tx.AssociateVertex(f)
		if err != nil {
			return err
		}
		fn, err := v.Properties(name)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s knows %s\n", text(names), text(fn))
	}
	return nil
}

// text returns the first Char value of vs.
func text(vs []gdi.Value) string {
	if len(vs) == 0 {
		return "?"
	}
	s, _ := vs[0].Text()
	return s
}
