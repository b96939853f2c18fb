package generator_test

import (
	"fmt"

	"github.com/gdi-go/gdi/generator"
)

// The first edges of a small graph, with the labels of their ends and
// edges, and a property of a vertex. The same seed gives the same graph on
// any number of ranks.
func Example() {
	g, err := generator.New(generator.Config{Scale: 5, EdgeFactor: 16, Seed: 1})
	if err != nil {
		panic(err)
	}
	s := g.Scheme()
	fmt.Println(g.NumVertices(), "vertices,", g.NumEdges(), "edges")
	g.EdgesRange(0, 5, func(i, u, v uint64) {
		fmt.Printf("edge %d: %d (%s) - %d (%s): %s\n", i, u, s.VertexLabels[g.VertexLabel(u)].Name,
			v, s.VertexLabels[g.VertexLabel(v)].Name, s.EdgeLabels[g.EdgeLabel(u, v)])
	})
	revenue, _ := g.Value(0, generator.PropRevenue)
	fmt.Println("revenue of company 0:", revenue)
	// Output:
	// 32 vertices, 512 edges
	// edge 0: 6 (Place) - 20 (Project): impacts
	// edge 1: 20 (Project) - 13 (Project): influences
	// edge 2: 6 (Place) - 12 (Project): impacts
	// edge 3: 17 (Project) - 6 (Place): impacts
	// edge 4: 28 (Resource) - 6 (Place): foundAt
	// revenue of company 0: 911777565
}

// The application-level ID of a vertex is its number in decimal, as in the
// CSV files; AppendAppID writes it into a buffer the caller reuses.
func ExampleAppID() {
	buf := generator.AppendAppID(nil, 7)
	fmt.Printf("%s %s %s\n", generator.AppID(0), generator.AppID(18446744073709551615), buf)
	buf = generator.AppendAppID(buf[:0], 1234)
	fmt.Printf("%s\n", buf)
	// Output:
	// 0 18446744073709551615 7
	// 1234
}
