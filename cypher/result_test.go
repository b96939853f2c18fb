package cypher

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/gdi-go/gdi/cypher/value"
)

// TestResultElement: a result gives the labels, type and properties of the
// nodes and relationships in its rows, on every rank and backend, deleted
// ones as the statement saw them; other values have none.
func TestResultElement(t *testing.T) {
	onEvery(t, func(t *testing.T, e *Engine) error {
		ctx := context.Background()
		if _, err := e.Run(ctx, "CREATE (:A:B {x: 1})-[:T {w: 'v'}]->(:C)", nil); err != nil {
			return err
		}
		res, err := e.Run(ctx, "MATCH (a:A)-[r:T]->(c) DETACH DELETE c RETURN a, r, c, 7 AS n", nil)
		if err != nil {
			return err
		}
		if len(res.Rows) != 1 {
			return fmt.Errorf("rows %v", res.Strings())
		}
		row := res.Rows[0]
		for i, want := range []struct {
			labels []string
			props  string
		}{{[]string{"A", "B"}, "{x: 1}"}, {[]string{"T"}, "{w: 'v'}"}, {[]string{"C"}, "{}"}} {
			el, ok := res.Element(row[i])
			if !ok || !slices.Equal(el.Labels, want.labels) || value.Format(value.MapValue(el.Properties), nil) != want.props {
				t.Errorf("rank %d, column %s: element %v %v, want %v %s", e.comm.Rank(), res.Columns[i], el, ok, want.labels, want.props)
			}
		}
		if _, ok := res.Element(row[3]); ok {
			t.Errorf("an integer has an element")
		}
		return nil
	})
}
