package cypher

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/gdi-go/gdi/cypher/graph"
	"github.com/gdi-go/gdi/cypher/value"
	"github.com/gdi-go/gdi/gdi"
)

// withIDs gives the database two Person vertices with application-level
// IDs "1" and "2" (names 'a' and 'b'), as gdi import makes them, and one
// Person without an ID, made by Cypher.
func withIDs(e *Engine) error {
	if _, err := e.Run(context.Background(), "CREATE (:Person {name: 'c'})", nil); err != nil {
		return err
	}
	if e.comm.Rank() == 0 {
		if err := runTransaction(context.Background(), e.db, func(tx gdi.Transaction) error {
			return addIDPersons(e, tx)
		}); err != nil {
			return err
		}
	}
	return e.comm.Barrier()
}

func addIDPersons(e *Engine, tx gdi.Transaction) error {
	person, err := e.schema.Label("Person")
	if err != nil {
		return err
	}
	fam, err := e.schema.Family("name")
	if err != nil {
		return err
	}
	for id, name := range map[string]string{"1": "a", "2": "b"} {
		v, err := tx.CreateVertex([]byte(id))
		if err == nil {
			err = v.AddLabel(person)
		}
		if err == nil {
			err = v.AddProperty(fam.Write[graph.String], gdi.Chars(name))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// TestIDSeek checks that the application-level ID reads as the string
// key GDI_PROPERTY_TYPE_ID, that an equality on it in a labelled pattern
// is an IDSeek with the same answers as a scan, and that Cypher does not
// write it.
func TestIDSeek(t *testing.T) {
	id := map[string]value.Value{"id": value.Str("2")}
	cases := []struct{ query, want string }{
		{"MATCH (p:Person {GDI_PROPERTY_TYPE_ID: '2'}) RETURN p.name", "'b'"},
		{"MATCH (p:Person) WHERE p.GDI_PROPERTY_TYPE_ID = $id RETURN p.name", "'b'"},
		{"MATCH (p {GDI_PROPERTY_TYPE_ID: $id}) RETURN p.name", "'b'"}, // no label: a scan
		{"MATCH (p:Person) RETURN p.GDI_PROPERTY_TYPE_ID AS id ORDER BY id", "'1';'2';null"},
		{"MATCH (p:Person {GDI_PROPERTY_TYPE_ID: 2}) RETURN p.name", ""},
		{"MATCH (p:Person {GDI_PROPERTY_TYPE_ID: '3'}) RETURN p.name", ""},
		{"MATCH (p:Nobody {GDI_PROPERTY_TYPE_ID: '2'}) RETURN p.name", ""},
		{"MATCH (p:Person {GDI_PROPERTY_TYPE_ID: '1'}) DETACH DELETE p WITH count(*) AS n MATCH (q:Person {GDI_PROPERTY_TYPE_ID: '1'}) RETURN count(q)", "0"},
		{"MATCH (p:Person {GDI_PROPERTY_TYPE_ID: '2'}) SET p.GDI_PROPERTY_TYPE_ID = '3'", "error " + gdi.ErrReadOnlyPropertyType.String()},
		{"MATCH (p:Person {GDI_PROPERTY_TYPE_ID: '2'}) SET p = {name: 'z'} RETURN p.GDI_PROPERTY_TYPE_ID, p.name", "'2','z'"},
	}
	onEvery(t, func(t *testing.T, e *Engine) error {
		if err := withIDs(e); err != nil {
			return err
		}
		for _, c := range cases {
			got, err := rowsOrError(e, c.query, id)
			if err != nil {
				return err
			}
			if got != c.want && !(strings.HasPrefix(c.want, "error ") && strings.Contains(got, c.want[6:])) {
				t.Errorf("%s\n got %s\nwant %s", c.query, got, c.want)
			}
		}
		return nil
	})
}

// rowsOrError runs query and gives its rows, "a,b;c,d", or "error " and
// the error's text. The cases of TestIDSeek share one database, so those
// that write come after those that read what they change.
func rowsOrError(e *Engine, query string, params map[string]value.Value) (string, error) {
	res, err := e.Run(context.Background(), query, params)
	if err != nil {
		return "error " + err.Error(), nil
	}
	var rows []string
	for _, r := range res.Strings() {
		rows = append(rows, strings.Join(r, ","))
	}
	return strings.Join(rows, ";"), nil
}

// TestIDSeekPlan pins the plans of the ID seek.
func TestIDSeekPlan(t *testing.T) {
	for q, want := range map[string]string{
		"MATCH (p:Person {GDI_PROPERTY_TYPE_ID: $id})-[:knows]-(f) RETURN f": "IDSeek (p:Person) WHERE p.GDI_PROPERTY_TYPE_ID = $id",
		"MATCH (p:Person) WHERE p.GDI_PROPERTY_TYPE_ID = '7' RETURN p":       "IDSeek (p:Person) WHERE p.GDI_PROPERTY_TYPE_ID = '7'",
		"MATCH (p {GDI_PROPERTY_TYPE_ID: '7'}) RETURN p":                     "NodeScan (p {GDI_PROPERTY_TYPE_ID: '7'})",
		"MATCH (p:Person) WHERE p.GDI_PROPERTY_TYPE_ID > '7' RETURN p":       "NodeScan (p:Person)",
	} {
		onEvery(t, func(t *testing.T, e *Engine) error {
			res, err := e.Run(context.Background(), "EXPLAIN "+q, map[string]value.Value{"id": value.Str("7")})
			if err != nil {
				return fmt.Errorf("%s: %w", q, err)
			}
			if got := strings.Split(res.Explain(), "\n")[0]; got != want {
				t.Errorf("%s: first operator\n got %s\nwant %s", q, got, want)
			}
			return nil
		})
	}
}
