package cypher

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/gdi-go/gdi/conformance/refdb"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/launch"
	"github.com/gdi-go/gdi/rma/local"
	"github.com/gdi-go/gdi/rma/mpi"
)

// distributedScript builds a graph of 40 people and reads it: whole-graph
// scans and aggregations (collective), a cartesian product and an
// OPTIONAL MATCH after the gather, point reads and errors.
var distributedScript = []string{
	"UNWIND range(1, 40) AS i CREATE (:Person {id: i, age: i % 7, name: 'p' + toString(i)})",
	"MATCH (a:Person), (b:Person) WHERE b.id = a.id + 1 OR b.id = a.id * 3 CREATE (a)-[:KNOWS {w: a.id}]->(b)",
	"MATCH (n:Person) RETURN count(*)",
	"MATCH (n) RETURN n.age AS a, count(*) AS c, sum(n.id) AS s, min(n.name) AS lo, max(n.id) AS hi, avg(n.id) AS m ORDER BY a",
	"MATCH (a:Person)-[r:KNOWS]->(b) WHERE a.age > 3 RETURN a.id, b.id, r.w ORDER BY a.id, b.id",
	"MATCH (a:Person) OPTIONAL MATCH (a)-[:KNOWS*1..2]->(f) WITH a, count(f) AS n RETURN a.id, n ORDER BY n DESC, a.id LIMIT 7",
	"MATCH (n:Person) RETURN DISTINCT n.age AS age ORDER BY age",
	"MATCH (n:Person) WITH n ORDER BY n.id SKIP 5 LIMIT 3 RETURN collect(n.name) AS names",
	"MATCH (n:Person) WHERE n.id < 4 RETURN n",
	"MATCH (n:Person) RETURN n.id / (n.id - 17)",
	"MATCH (n:Person) WHERE n.id > 38 RETURN n.name - 1 AS x",
	"MATCH (a:Person) MATCH (b:Person) WHERE a.id = b.id * 13 RETURN a.id, b.id ORDER BY a.id",
	"MATCH (n:Person {id: 5}) RETURN n.name",
	"MATCH (a:Person {age: 2})-[:KNOWS]-(b) RETURN a.id AS a, count(b) AS n, sum(b.id) AS s ORDER BY a",
	"UNWIND [3, 1] AS x MATCH (n:Person {id: x}) RETURN n.name ORDER BY n.name",
	"MATCH (n:Nobody) RETURN count(n)",
}

// TestDistributed runs distributedScript on gdirma with 1, 2 and 4 ranks
// (under mpirun, with the job's processes, every one checking its own
// answers) and requires of every statement refdb's outcome on 1 rank.
func TestDistributed(t *testing.T) {
	want := scriptOutcomes(t, refdb.Driver{}, local.Run, 1)
	for _, n := range distributedRanks(t) {
		got := scriptOutcomes(t, gdirma.Driver{}, launch.Run, n)
		for i := range distributedScript {
			if i < len(got) && got[i] != want[i] {
				t.Errorf("gdirma/%d: %s\ngot:\n%s\nwant (refdb/1):\n%s", n, distributedScript[i], got[i], want[i])
			}
		}
	}
}

// distributedRanks is 1, 2 and 4, or the size of the MPI job.
func distributedRanks(t *testing.T) []int {
	if !mpi.InMPIRun() {
		return []int{1, 2, 4}
	}
	n, err := strconv.Atoi(os.Getenv("OMPI_COMM_WORLD_SIZE"))
	if err != nil {
		t.Fatalf("OMPI_COMM_WORLD_SIZE: %v", err)
	}
	return []int{n}
}

// scriptOutcomes runs distributedScript on a fresh database of n ranks
// and returns this process's rank 0 outcomes (under mpirun: this
// process's rank's), each as outcomeText gives it, in order where the
// statement orders its rows.
func scriptOutcomes(t *testing.T, d gdi.Driver, run rma.Launcher, n int) []string {
	t.Helper()
	out := make([][]string, n)
	err := run(n, func(c rma.Comm) error {
		return withEngine(c, d, func(e *Engine, _ gdi.Database) error {
			for _, q := range distributedScript {
				res, err := e.Run(context.Background(), q, nil)
				out[c.Rank()] = append(out[c.Rank()], outcomeText(res, err, strings.Contains(q, "ORDER BY")))
			}
			return nil
		})
	})
	if err != nil {
		t.Fatalf("%d ranks: %v", n, err)
	}
	for r := 1; r < n; r++ {
		if out[r] != nil && out[0] != nil && strings.Join(out[r], "\x00") != strings.Join(out[0], "\x00") {
			t.Errorf("%d ranks: rank %d disagrees with rank 0:\n%q\n%q", n, r, out[r], out[0])
		}
	}
	for _, o := range out {
		if o != nil {
			return o
		}
	}
	return nil
}

// TestCollectiveNeedsQuiet: a whole-graph read while one rank has a
// transaction open fails on every rank alike (none waits for the others
// forever), and runs once the transaction has ended.
func TestCollectiveNeedsQuiet(t *testing.T) {
	err := local.Run(2, func(c rma.Comm) error {
		return withEngine(c, gdirma.Driver{}, func(e *Engine, db gdi.Database) error {
			return readWhileOpen(t, c, e, db)
		})
	})
	if err != nil {
		t.Fatal(err)
	}
}

// readWhileOpen is TestCollectiveNeedsQuiet on one rank.
func readWhileOpen(t *testing.T, c rma.Comm, e *Engine, db gdi.Database) error {
	var open gdi.Transaction
	if c.Rank() == 1 {
		var err error
		if open, err = db.StartTransaction(); err != nil {
			return err
		}
	}
	if _, err := e.Run(context.Background(), "MATCH (n) RETURN count(n)", nil); err == nil {
		t.Errorf("rank %d: a whole-graph read ran while rank 1 had a transaction open", c.Rank())
	}
	if open != nil {
		if err := open.Abort(); err != nil {
			return err
		}
	}
	res, err := e.Run(context.Background(), "MATCH (n) RETURN count(n)", nil)
	if err != nil || len(res.Rows) != 1 {
		t.Errorf("rank %d: after the transaction ended: %v, %v", c.Rank(), res, err)
	}
	return nil
}
