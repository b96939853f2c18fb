package olap_test

import (
	"fmt"
	"log"

	"github.com/gdi-go/gdi/conformance/refdb"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
	"github.com/gdi-go/gdi/workload/graphalytics"
	"github.com/gdi-go/gdi/workload/olap"
)

// ExampleBFS loads a tiny undirected graph on two ranks, extracts it in a
// collective read transaction, runs BFS from vertex 1, checks the tree
// with the Graph500 rules, and prints the depths in Graphalytics format.
func ExampleBFS() {
	d := &graphalytics.Dataset{
		Name:     "tiny",
		Vertices: []uint64{1, 2, 3, 4, 5, 6},
		Edges:    []graphalytics.Edge{{Src: 1, Dst: 2}, {Src: 2, Dst: 3}, {Src: 3, Dst: 4}, {Src: 1, Dst: 5}, {Src: 4, Dst: 5}},
	}
	err := local.Run(2, func(comm rma.Comm) error {
		db, err := refdb.Driver{}.CreateDatabase(comm, nil)
		if err != nil {
			return err
		}
		defer db.Free()
		s, err := graphalytics.Load(db, comm, d, graphalytics.LoadAuto)
		if err != nil {
			return err
		}
		idx, err := olap.VertexIndex(db, comm, s.Vertex)
		if err != nil {
			return err
		}
		g, err := olap.ExtractGraph(db, comm, olap.ExtractOptions{Index: idx})
		if err != nil {
			return err
		}
		res, err := olap.BFS(g, 1)
		if err != nil {
			return err
		}
		if err := olap.Validate(g, res); err != nil {
			return err
		}
		vals := make([]string, g.NumLocal)
		for i, l := range res.Level {
			vals[i] = fmt.Sprint(l)
		}
		lines, err := olap.Gather(g, vals)
		for _, l := range lines { // only rank 0 has them
			fmt.Println(l.ID, l.Value)
		}
		return err
	})
	if err != nil {
		log.Fatal(err)
	}
	// Output:
	// 1 0
	// 2 1
	// 3 2
	// 4 2
	// 5 1
	// 6 9223372036854775807
}
