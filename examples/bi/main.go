// Bi runs the business-intelligence query of Listing 3 of the GDI paper
// (SC'23) on a collective read transaction:
//
//	MATCH (per:Person) WHERE per.age > 30 AND per-:OWN->vehicle(:Car)
//	AND vehicle.color = red RETURN count(per)
//
// Every rank counts the matches among its local persons
// (LocalVerticesOfIndex) and the counts are summed with an Allreduce.
//
// The same query then runs through the openCypher engine (package
// cypher), written in the engine's subset of openCypher (the listing's
// pattern per-:OWN->vehicle(:Car) becomes a path pattern, and red the
// string 'red'):
//
//	MATCH (per:Person)-[:OWN]->(vehicle:Car)
//	WHERE per.age > 30 AND vehicle.color = 'red' RETURN count(per)
//
// The engine reads the property types age (Uint8) and color (Char) the
// example made, as members of its keys age and color. The hand-written
// version stays: it is the baseline the engine is measured against.
//
//	go run ./examples/bi
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"slices"

	"github.com/gdi-go/gdi/cypher"
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

// query is Listing 3 in the subset of the engine.
const query = `MATCH (per:Person)-[:OWN]->(vehicle:Car)
WHERE per.age > 30 AND vehicle.color = 'red' RETURN count(per)`

// run builds the data on every rank, runs the query by hand and through
// the engine, and prints both counts from rank 0.
func run(w io.Writer) error {
	hand, engine, err := counts()
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "people over 30 who own a red car: %d\n", hand)
	fmt.Fprintf(w, "the same query through the Cypher engine: %d\n", engine)
	return nil
}

// counts builds the data and returns the answer of the hand-written query
// and the engine's, as rank 0 has them.
func counts() (hand, engine int64, err error) {
	err = launch.Run(ranks, func(comm rma.Comm) error {
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
		viaEngine, err := countWithEngine(comm, db)
		if err != nil {
			return err
		}
		if comm.Rank() == 0 {
			hand, engine = count, viaEngine
		}
		return nil
	})
	return hand, engine, err
}

// countWithEngine runs query through the Cypher engine; collective, every
// rank gets the count.
func countWithEngine(comm rma.Comm, db gdi.Database) (int64, error) {
	e, err := cypher.Open(comm, db)
	if err != nil {
		return 0, err
	}
	res, err := e.Run(context.Background(), query, nil)
	if err != nil {
		return 0, err
	}
	if len(res.Rows) != 1 || len(res.Rows[0]) != 1 {
		return 0, fmt.Errorf("bi: the engine returned %d rows", len(res.Rows))
	}
	return res.Rows[0][0].Int(), nil
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
