package cypher_test

import (
	"context"
	"fmt"

	"github.com/gdi-go/gdi/cypher"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// A hello graph in Cypher: the graph of gdi's Example, two people and a
// KNOWS relationship, made and read back with two statements (one rank).
func Example() {
	err := local.Run(1, func(comm rma.Comm) error {
		db, err := gdirma.Driver{}.CreateDatabase(comm, nil)
		if err != nil {
			return err
		}
		defer db.Free()
		e, err := cypher.Open(comm, db)
		if err != nil {
			return err
		}
		ctx := context.Background()
		if _, err := e.Run(ctx, `CREATE (:Person {name: 'Ada'})-[:KNOWS {since: 1833}]->(:Person {name: 'Alan'})`, nil); err != nil {
			return err
		}
		res, err := e.Run(ctx, `MATCH (a:Person)-[k:KNOWS]->(b) WHERE a.name = 'Ada' RETURN b.name, k.since, b`, nil)
		if err != nil {
			return err
		}
		fmt.Println(res.Columns)
		for _, row := range res.Strings() {
			fmt.Println(row)
		}
		return nil
	})
	fmt.Println(err)
	// Output:
	// [b.name k.since b]
	// ['Alan' 1833 (:Person {name: 'Alan'})]
	// <nil>
}

// EXPLAIN returns the plan, one operator a row, without running it.
func ExampleEngine_Run_explain() {
	err := local.Run(1, func(comm rma.Comm) error {
		db, err := gdirma.Driver{}.CreateDatabase(comm, nil)
		if err != nil {
			return err
		}
		defer db.Free()
		e, err := cypher.Open(comm, db)
		if err != nil {
			return err
		}
		res, err := e.Run(context.Background(), `EXPLAIN MATCH (a:Person)-[:KNOWS]->(b) WHERE a.age > 30 RETURN b.name ORDER BY b.name`, nil)
		if err != nil {
			return err
		}
		fmt.Print(res.Explain())
		return nil
	})
	fmt.Println(err)
	// Output:
	// IndexSeek (a:Person) WHERE a.age > 30
	// Expand -[_:KNOWS]->(b)
	// Filter a.age > 30
	// Project b.name
	// Gather
	// Sort b.name
	// <nil>
}
