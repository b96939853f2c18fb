// Friends runs the interactive query of Listing 1 of the GDI paper (SC'23):
// the first and last names of the friends of a person. It loads a small
// social network, then follows the listing step by step: translate the
// application-level ID, fetch the undirected edges of the person, keep
// those labelled friendOf, and read the names at their other ends.
//
//	go run ./examples/friends
package main

import (
	"fmt"
	"io"
	"log"
	"os"
	"slices"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/launch"
)

// driver is the backend the example runs on.
var driver gdi.Driver = gdirma.Driver{}

func main() {
	if err := run(os.Stdout, "p1"); err != nil {
		log.Fatal(err)
	}
}

// people of the example network: ID, first and last name.
var people = [][3]string{
	{"p1", "Grace", "Hopper"}, {"p2", "Edsger", "Dijkstra"}, {"p3", "Barbara", "Liskov"},
	{"p4", "Donald", "Knuth"}, {"p5", "Frances", "Allen"},
}

// ties of the network: two people and the label of the edge between them.
var ties = [][3]string{
	{"p1", "p2", "friendOf"}, {"p3", "p1", "friendOf"}, {"p1", "p4", "colleagueOf"},
	{"p2", "p5", "friendOf"}, {"p5", "p1", "friendOf"},
}

// schema holds the metadata of the example.
type schema struct {
	person, friendOf, colleagueOf gdi.Label
	first, last                   gdi.PropertyType
}

// run builds the network on two ranks and prints the friends of person id
// from rank 0.
func run(w io.Writer, id string) error {
	return launch.Run(2, func(comm rma.Comm) error {
		db, err := driver.CreateDatabase(comm, nil)
		if err != nil {
			return err
		}
		defer db.Free()
		s, err := define(db)
		if err != nil {
			return err
		}
		if err := comm.Barrier(); err != nil {
			return err
		}
		if comm.Rank() == 1 { // any rank may load; here rank 1 does
			if err := load(db, s); err != nil {
				return err
			}
		}
		if err := comm.Barrier(); err != nil {
			return err
		}
		if comm.Rank() != 0 {
			return nil
		}
		names, err := friends(db, s, id)
		if err != nil {
			return err
		}
		for _, n := range names {
			fmt.Fprintln(w, n)
		}
		return nil
	})
}

func define(db gdi.Database) (schema, error) {
	var s schema
	var errs [5]error
	s.person, errs[0] = db.CreateLabel("Person")
	s.friendOf, errs[1] = db.CreateLabel("friendOf")
	s.colleagueOf, errs[2] = db.CreateLabel("colleagueOf")
	name := gdi.PropertyTypeInfo{Entity: gdi.SingleEntity, Datatype: gdi.Char, Size: gdi.MaxSize, Count: 64}
	name.Name = "firstName"
	s.first, errs[3] = db.CreatePropertyType(name)
	name.Name = "lastName"
	s.last, errs[4] = db.CreatePropertyType(name)
	for _, err := range errs {
		if err != nil {
			return s, err
		}
	}
	return s, nil
}

// load creates the network in one transaction.
func load(db gdi.Database, s schema) (err error) {
	tx, err := db.StartTransaction()
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tx.Abort()
		}
	}()
	byID := map[string]gdi.VertexHolder{}
	for _, p := range people {
		v, err := tx.CreateVertex([]byte(p[0]))
		if err != nil {
			return err
		}
		if err := v.AddLabel(s.person); err != nil {
			return err
		}
		if err := v.AddProperty(s.first, gdi.Chars(p[1])); err != nil {
			return err
		}
		if err := v.AddProperty(s.last, gdi.Chars(p[2])); err != nil {
			return err
		}
		byID[p[0]] = v
	}
	labels := map[string]gdi.Label{"friendOf": s.friendOf, "colleagueOf": s.colleagueOf}
	for _, t := range ties {
		e, err := tx.CreateEdge(gdi.Undirected, byID[t[0]], byID[t[1]])
		if err != nil {
			return err
		}
		if err := e.AddLabel(labels[t[2]]); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// friends is Listing 1: the names of the friends of person id, sorted.
func friends(db gdi.Database, s schema, id string) ([]string, error) {
	tx, err := db.StartTransaction()
	if err != nil {
		return nil, err
	}
	defer tx.Commit() // read-only: commit releases the transaction
	vID, found, err := tx.TranslateVertexID(s.person, []byte(id))
	if err != nil || !found {
		return nil, fmt.Errorf("person %s not found: %v", id, err)
	}
	vH, err := tx.AssociateVertex(vID)
	if err != nil {
		return nil, err
	}
	eIDs, err := vH.Edges(gdi.EdgeUndirected, nil)
	if err != nil {
		return nil, err
	}
	var neighbors []gdi.VertexUID
	for _, eID := range eIDs {
		eH, err := tx.AssociateEdge(eID)
		if err != nil {
			return nil, err
		}
		labels, err := eH.Labels()
		if err != nil {
			return nil, err
		}
		if !slices.Contains(labels, s.friendOf) {
			continue
		}
		origin, target, err := eH.Vertices()
		if err != nil {
			return nil, err
		}
		// An undirected edge may list the person at either end.
		if origin == vID {
			neighbors = append(neighbors, target)
		} else {
			neighbors = append(neighbors, origin)
		}
	}
	var names []string
	for _, n := range neighbors {
		h, err := tx.AssociateVertex(n)
		if err != nil {
			return nil, err
		}
		first, err := h.Properties(s.first)
		if err != nil {
			return nil, err
		}
		last, err := h.Properties(s.last)
		if err != nil {
			return nil, err
		}
		f, _ := first[0].Text()
		l, _ := last[0].Text()
		names = append(names, f+" "+l)
	}
	slices.Sort(names)
	return names, nil
}
