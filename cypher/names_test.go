package cypher

import (
	"context"
	"errors"
	"testing"
)

// TestReadsMakeNoMetadata: a statement that only reads leaves the catalog
// as it was, whatever labels, types and keys it names, and finds nothing
// under the names the catalog lacks; a write makes what it names.
func TestReadsMakeNoMetadata(t *testing.T) {
	onEvery(t, func(t *testing.T, e *Engine) error {
		ctx := context.Background()
		if _, err := e.Run(ctx, "CREATE (:A {k: 1})-[:T]->(:B)", nil); err != nil {
			return err
		}
		labels, err := e.db.Labels()
		if err != nil {
			return err
		}
		pts, err := e.db.PropertyTypes()
		if err != nil {
			return err
		}
		for _, q := range []string{
			"MATCH (n:Nope)-[r:NOTYPE]->(m) WHERE n.nokey = 1 RETURN n",
			"MATCH (n:A) WHERE n.other = 2 OR n:Missing RETURN n",
			"MATCH (n) RETURN n.nokey AS v ORDER BY v",
			"MATCH ()-[r:NOTYPE]->() RETURN count(r) AS c",
		} {
			res, err := e.Run(ctx, q, nil)
			if err != nil {
				return err
			}
			if rows := res.Strings(); len(rows) > 0 && rows[0][0] != "null" && rows[0][0] != "0" {
				t.Errorf("%s: rows %q, want nothing found", q, rows)
			}
		}
		after, err1 := e.db.Labels()
		ptsAfter, err2 := e.db.PropertyTypes()
		if len(after) != len(labels) || len(ptsAfter) != len(pts) {
			t.Errorf("rank %d: reads made %d labels and %d property types", e.comm.Rank(), len(after)-len(labels), len(ptsAfter)-len(pts))
		}
		if _, err := e.Run(ctx, "MATCH (n:A) SET n:Made, n.made = 1", nil); err != nil {
			return err
		}
		made, err3 := e.db.LabelFromName("Made")
		if made == 0 {
			t.Errorf("rank %d: a SET of label Made did not make it", e.comm.Rank())
		}
		return errors.Join(err1, err2, err3)
	})
}
