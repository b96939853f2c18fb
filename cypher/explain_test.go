package cypher

import (
	"testing"

	"github.com/gdi-go/gdi/cypher/value"
)

// TestExplain pins the plans of representative queries.
func TestExplain(t *testing.T) {
	cases := []struct{ query, want string }{
		{"MATCH (p:Person {name: $name}) RETURN p.age",
			`IndexSeek (p:Person {name: $name}) WHERE p.name = $name
Project p.age
Gather
`},
		{"MATCH (a:Person)-[:KNOWS]->(b) WHERE b.age > 30 AND a.age < 20 RETURN b.name ORDER BY b.name LIMIT 3",
			`IndexSeek (a:Person) WHERE a.age < 20
Expand -[_:KNOWS]->(b)
Filter (b.age > 30) AND (a.age < 20)
Project b.name
Gather
Sort b.name
Limit 3
`},
		{"MATCH (n) OPTIONAL MATCH (n)-[r*1..2]-(m:City) RETURN n, count(m) AS c",
			`NodeScan (n)
Optional
  Argument (n)
  VarExpand -[r*1..2]-(m:City)
Aggregate count(m) by n (partial)
Gather
Aggregate count(m) by n (merge)
Project n, c
`},
		{"MATCH (c:City) WITH c MATCH (p:Person)-[:LIVES_IN]->(c) SET p.city = c.name",
			`NodeScan (c:City)
Project c
Argument (c)
Expand <-[_:LIVES_IN]-(p:Person)
Set SET p.city = c.name
`},
		{"MATCH (a) MATCH (b) RETURN count(*)",
			`NodeScan (a)
Gather
NodeScan (b)
Aggregate count(*)
Project count(*)
`},
		{"MATCH (n:Person) RETURN n.age, collect(DISTINCT n.name) AS names",
			`NodeScan (n:Person)
Gather
Aggregate collect(DISTINCT n.name) by n.age
Project n.age, names
`},
		{"MATCH (a) RETURN a UNION MATCH (b) RETURN b AS a",
			`NodeScan (a)
Project a
Union
NodeScan (b)
Project a
`},
	}
	onEvery(t, func(t *testing.T, e *Engine) error {
		for _, c := range cases {
			res, err := e.Run(t.Context(), "EXPLAIN "+c.query, map[string]value.Value{"name": value.Str("Ann")})
			if err != nil {
				return err
			}
			if got := res.Explain(); got != c.want {
				t.Errorf("EXPLAIN %s\ngot:\n%s\nwant:\n%s", c.query, got, c.want)
			}
		}
		return nil
	})
}
