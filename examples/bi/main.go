// Bi runs the business-intelligence query of Listing 3 of the GDI paper
// (SC'23) on a collective read transaction:
//
//	MATCH (per:Person) WHERE per.age > 30 AND per-:OWN->vehicle(:Car)
//	AND vehicle.color = red RETURN count(per)
//
// Every rank counts the matches among its local persons
// (LocalVerticesOfIndex) and the counts are summed with an Allreduce.
//
//	go run ./examples/bi
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

// ranks and peoplePerRank size the example.
const (
	ranks         = 2
	peoplePerRank = 10
)

func main() {
	if err := run(os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// schema holds the metadata of the example.
type schema struct {
	person, car, bike, own, like gdi.Label
	age, color                   gdi.PropertyType
}

// run builds the data on every rank, runs the query and prints the count
// from rank 0.
func run(w io.Writer) error {
	return launch.Run(ranks, func(comm rma.Comm) error {
		db, err := driver.CreateDatabase(comm, nil)
		if err != nil {
			return err
		}
		defer db.Free()
		s, err := define(db)
		if err != nil {
			return err
		}
		// The index of Listing 3: all vertices labelled Person.
		persons, err := db.CreateIndex(gdi.HashTableIndex, ranks*peoplePerRank)
		if err != nil {
			return err
		}
		if err := persons.AddLabel(s.person); err != nil {
			return err
		}
		if err := comm.Barrier(); err != nil {
			return err
		}
		if err := load(db, s, comm.Rank()); err != nil {
			return err
		}
		if err := comm.Barrier(); err != nil { // every rank has committed
			return err
		}
		count, err := countRedCarOwners(db, comm, s, persons)
		if err != nil {
			return err
		}
		if comm.Rank() == 0 {
			fmt.Fprintf(w, "people over 30 who own a red car: %d\n", count)
		}
		return nil
	})
}

func define(db gdi.Database) (schema, error) {
	var s schema
	var errs [7]error
	s.person, errs[0] = db.CreateLabel("Person")
	s.car, errs[1] = db.CreateLabel("Car")
	s.bike, errs[2] = db.CreateLabel("Bike")
	s.own, errs[3] = db.CreateLabel("OWN")
	s.like, errs[4] = db.CreateLabel("LIKE")
	s.age, errs[5] = db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "age", Entity: gdi.SingleEntity, Datatype: gdi.Uint8, Size: gdi.FixedSize, Count: 1})
	s.color, errs[6] = db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "color", Entity: gdi.SingleEntity, Datatype: gdi.Char, Size: gdi.MaxSize, Count: 16})
	for _, err := range errs {
		if err != nil {
			return s, err
		}
	}
	return s, nil
}

// person j (numbered over all ranks) is 20+2j years old and, by j mod 3,
// owns a red car, likes a red car, or owns a red bike.
func personAge(j int) uint8 { return uint8(20 + 2*j) }

// load creates the persons of rank r and their vehicles, so that they are
// local to r.
func load(db gdi.Database, s schema, r int) (err error) {
	tx, err := db.StartTransaction()
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tx.Abort()
		}
	}()
	for i := 0; i < peoplePerRank; i++ {
		j := r*peoplePerRank + i
		p, err := tx.CreateVertex([]byte(fmt.Sprintf("person-%d", j)))
		if err != nil {
			return err
		}
		if err := p.AddLabel(s.person); err != nil {
			return err
		}
		if err := p.AddProperty(s.age, gdi.Uint8s(personAge(j))); err != nil {
			return err
		}
		vehicle, edge := s.car, s.own
		switch j % 3 {
		case 1:
			edge = s.like
		case 2:
			vehicle = s.bike
		}
		v, err := tx.CreateVertex(nil)
		if err != nil {
			return err
		}
		if err := v.AddLabel(vehicle); err != nil {
			return err
		}
		if err := v.AddProperty(s.color, gdi.Chars("red")); err != nil {
			return err
		}
		e, err := tx.CreateEdge(gdi.Directed, p, v)
		if err != nil {
			return err
		}
		if err := e.AddLabel(edge); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// countRedCarOwners is Listing 3: a local count per rank over the local
// persons of the index, summed over the ranks.
func countRedCarOwners(db gdi.Database, comm rma.Comm, s schema, persons gdi.Index) (int64, error) {
	// The constraint "edge has label OWN".
	cnstr, err := db.CreateConstraint()
	if err != nil {
		return 0, err
	}
	defer cnstr.Free()
	owns, err := db.CreateSubconstraint()
	if err != nil {
		return 0, err
	}
	defer owns.Free()
	if err := owns.AddLabelCondition(s.own, gdi.Equal); err != nil {
		return 0, err
	}
	if err := cnstr.AddSubconstraint(owns); err != nil {
		return 0, err
	}

	tx, err := db.StartCollectiveTransaction()
	if err != nil {
		return 0, err
	}
	local, err := countLocal(tx, s, persons, cnstr)
	if err != nil {
		tx.Abort() // collective: the other ranks learn of it at their commit
		return 0, err
	}
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	total := []int64{local}
	if err := comm.AllreduceInt64(total, rma.OpSum); err != nil {
		return 0, err
	}
	return total[0], nil
}

func countLocal(tx gdi.Transaction, s schema, persons gdi.Index, cnstr gdi.Constraint) (int64, error) {
	var count int64
	vIDs, err := tx.LocalVerticesOfIndex(persons, nil)
	if err != nil {
		return 0, err
	}
	for _, person := range vIDs {
		vH, err := tx.AssociateVertex(person)
		if err != nil {
			return 0, err
		}
		age, err := vH.Properties(s.age)
		if err != nil {
			return 0, err
		}
		if over, _ := gdi.Compare(gdi.Greater, age[0], gdi.Uint8s(30)); !over {
			continue
		}
		things, err := vH.Neighbors(gdi.EdgeOutgoing, cnstr)
		if err != nil {
			return 0, err
		}
		for _, object := range things {
			oH, err := tx.AssociateVertex(object)
			if err != nil {
				return 0, err
			}
			labels, err := oH.Labels()
			if err != nil {
				return 0, err
			}
			if !slices.Contains(labels, s.car) {
				continue
			}
			color, err := oH.Properties(s.color)
			if err != nil {
				return 0, err
			}
			if len(color) == 1 && color[0] == gdi.Chars("red") {
				count++
			}
		}
	}
	return count, nil
}
