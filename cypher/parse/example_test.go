package parse_test

import (
	"errors"
	"fmt"

	"github.com/gdi-go/gdi/cypher/parse"
)

func ExampleParse() {
	q, err := parse.Parse(`MATCH (p:Person)-[:KNOWS*1..2]->(f)
WHERE NOT p.name = $name OR f.age > 30
RETURN f.name AS friend ORDER BY friend`)
	if err != nil {
		fmt.Println(err)
		return
	}
	m := q.Parts[0].Clauses[0].(*parse.Match)
	rel := m.Pattern.Parts[0].Rels[0]
	fmt.Println(rel.Types, rel.Direction, rel.Length.MinHops(), rel.Length.MaxHops())
	fmt.Println(m.Where)
	fmt.Println(q)
	// Output:
	// [KNOWS] --> 1 2
	// (NOT (p.name = $name)) OR (f.age > 30)
	// MATCH (p:Person)-[:KNOWS*1..2]->(f) WHERE (NOT (p.name = $name)) OR (f.age > 30) RETURN f.name AS friend ORDER BY friend
}

func ExampleError() {
	for _, q := range []string{
		"MATCH (n\nWHERE n.x RETURN n",
		"RETURN 0x1G",
		"MATCH (a)\nMERGE (a)-[:T]->(b)",
	} {
		_, err := parse.Parse(q)
		var pe *parse.Error
		if errors.As(err, &pe) {
			fmt.Printf("%v %s%s: %v\n", pe.Kind, pe.Detail, pe.Construct, err)
		}
	}
	// Output:
	// SyntaxError UnexpectedSyntax: line 2, column 1: expected ')' after the node pattern, found "WHERE"
	// SyntaxError InvalidNumberLiteral: line 1, column 8: invalid number literal "0x1G"
	// NotSupported MERGE: line 2, column 1: MERGE is not supported
}
