package cypher_test

// SNB-interactive-style short reads on LDBC SNB's sf0.003 graph, through
// the Cypher engine and hand-written against gdi (issue 36, item 8):
// TestSNBShortReadsAgree checks that both give the same rows,
// TestPointReadAllocations bounds what the engine allocates beyond the
// hand-written code, and BenchmarkSNBShortReads times them side by side.
// Compare the two with
//
//	go test -run '^$' -bench SNBShortReads -count 6 ./cypher | tee /tmp/snb.txt
//	benchstat -row /query -col /impl /tmp/snb.txt
//
// (the sub-benchmarks are query=…/impl=…; -bench 'SNBShortReads//impl=engine'
// runs the engine's alone).

import (
	"archive/zip"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gdi-go/gdi/csvimport"
	"github.com/gdi-go/gdi/cypher"
	"github.com/gdi-go/gdi/cypher/value"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/internal/invariants"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/count"
	"github.com/gdi-go/gdi/rma/local"
)

// snbZip is LDBC SNB's sf0.003 data set, read in place; snbDynamic is
// where its initial snapshot's tables are inside.
const (
	snbZip     = "../../shared/testdata/ldbc-snb/social-network-sf0.003-bi-composite-projected-fk.zip"
	snbDynamic = "social-network-sf0.003-bi-composite-projected-fk/graphs/csv/bi/composite-projected-fk/initial_snapshot/dynamic/"
	// snbMemory is the gdirma memory per rank: the tables are about 600 KB.
	snbMemory = 32 << 20
)

// snbTables are the tables the queries need: vertex tables (one word)
// and edge tables (Start_label_End).
var snbTables = []string{"Person", "Post", "Comment", "Person_knows_Person", "Post_hasCreator_Person", "Comment_hasCreator_Person"}

// snbQuery is one short read, in Cypher and hand-written against gdi.
type snbQuery struct {
	name   string
	cypher string
	gdi    func(g *snbGDI, id string) ([][]string, error)
}

var snbQueries = []snbQuery{
	{"person", `MATCH (p:Person {GDI_PROPERTY_TYPE_ID: $id}) RETURN p.firstName AS firstName, p.lastName AS lastName, p.birthday AS birthday, p.locationIP AS locationIP, p.browserUsed AS browserUsed, p.gender AS gender, p.creationDate AS creationDate`, (*snbGDI).person},
	{"friends", `MATCH (p:Person {GDI_PROPERTY_TYPE_ID: $id})-[k:knows]-(f:Person) RETURN f.GDI_PROPERTY_TYPE_ID AS friendId, f.firstName AS firstName, f.lastName AS lastName, k.creationDate AS since ORDER BY since DESC, friendId`, (*snbGDI).friends},
	{"messages", `MATCH (p:Person {GDI_PROPERTY_TYPE_ID: $id})<-[:hasCreator]-(m) RETURN m.GDI_PROPERTY_TYPE_ID AS messageId, m.creationDate AS created ORDER BY created DESC, messageId LIMIT 10`, (*snbGDI).messages},
}

// extractSNB writes the tables of snbTables, all parts of each, into a
// temporary directory as flat files (Person.csv, …) with headers that
// csvimport understands, and returns the directory and the persons' IDs.
// It skips the test if the data set is missing.
//
// The header rewrite: a vertex table's id column becomes id:ID(Table);
// an edge table's two ID columns (Person1Id, PostId, …) :START_ID(Start)
// and :END_ID(End); length becomes length:LONG. Every other column stays
// a plain string column: creationDate and birthday on purpose, as the
// engine has no temporal types and ISO strings in UTC sort in time
// order; the ';'-separated language and email lists stay one string.
func extractSNB(tb testing.TB) (dir string, persons []string) {
	tb.Helper()
	r, err := zip.OpenReader(snbZip)
	if err != nil {
		tb.Skipf("LDBC SNB sf0.003 data set: %v", err)
	}
	defer r.Close()
	dir = tb.TempDir()
	for _, table := range snbTables {
		var out bytes.Buffer
		for _, f := range r.File {
			name := strings.TrimPrefix(f.Name, snbDynamic+table+"/")
			if name == f.Name || !strings.HasPrefix(name, "part-") || !strings.HasSuffix(name, ".csv") {
				continue
			}
			if err := appendPart(&out, f, table); err != nil {
				tb.Fatalf("%s: %v", f.Name, err)
			}
		}
		if out.Len() == 0 {
			tb.Fatalf("%s: no table %s", snbZip, table)
		}
		if table == "Person" {
			persons = columnValues(out.String(), "id:ID(Person)")
		}
		if err := os.WriteFile(filepath.Join(dir, table+".csv"), out.Bytes(), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dir, persons
}

// appendPart appends the records of one part of table to out, preceded
// by the rewritten header if out is empty.
func appendPart(out *bytes.Buffer, f *zip.File, table string) error {
	rc, err := f.Open()
	if err != nil {
		return err
	}
	b, err := io.ReadAll(rc)
	if err := errors.Join(err, rc.Close()); err != nil {
		return err
	}
	header, body, _ := strings.Cut(string(b), "\n")
	if out.Len() == 0 {
		out.WriteString(neo4jHeader(table, header) + "\n")
	}
	out.WriteString(body)
	if body != "" && !strings.HasSuffix(body, "\n") {
		out.WriteByte('\n')
	}
	return nil
}

// neo4jHeader rewrites the LDBC header of table into a neo4j-admin import
// header: see extractSNB.
func neo4jHeader(table, header string) string {
	parts := strings.Split(table, "_")
	ends := []string{":START_ID(" + parts[0] + ")", ":END_ID(" + parts[len(parts)-1] + ")"}
	cols := strings.Split(strings.TrimSpace(header), "|")
	for i, c := range cols {
		switch {
		case c == "id":
			cols[i] = "id:ID(" + table + ")"
		case c == "length":
			cols[i] = "length:LONG"
		case len(parts) > 1 && strings.HasSuffix(c, "Id") && len(ends) > 0:
			cols[i], ends = ends[0], ends[1:]
		}
	}
	return strings.Join(cols, "|")
}

// columnValues returns the values of the column named col of a '|'
// separated CSV text, one per record.
func columnValues(text, col string) []string {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	at := slices.Index(strings.Split(lines[0], "|"), col)
	var out []string
	for _, l := range lines[1:] {
		out = append(out, strings.Split(l, "|")[at])
	}
	return out
}

// snbEnv is the imported graph on a rank, with both ways of querying it.
type snbEnv struct {
	persons []string // the IDs of all persons
	engine  *cypher.Engine
	params  map[string]value.Value // the engine's parameters, one map for every run as gdi shell keeps them
	gdi     *snbGDI
	comm    *count.Comm // the counted comm the database runs on
}

// runSNB extracts the data set, imports it as gdi import does into a
// gdirma database on one local rank whose comm counts one-sided calls,
// opens the engine on it and calls fn.
func runSNB(tb testing.TB, fn func(env *snbEnv) error) {
	tb.Helper()
	dir, persons := extractSNB(tb)
	err := local.Run(1, func(c rma.Comm) error {
		cc := count.Wrap(c)
		db, err := gdirma.Driver{}.CreateDatabase(cc, gdirma.Params{MemoryPerRank: snbMemory})
		if err != nil {
			return err
		}
		err = func() error {
			if _, err := csvimport.Import(cc, db, dir, csvimport.Options{}); err != nil {
				return err
			}
			e, err := cypher.Open(cc, db)
			if err != nil {
				return err
			}
			g, err := newSNBGDI(db)
			if err != nil {
				return err
			}
			return fn(&snbEnv{persons: persons, engine: e, params: map[string]value.Value{}, gdi: g, comm: cc})
		}()
		return errors.Join(err, db.Free())
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// viaEngine runs q through the Cypher engine for the person id.
func (env *snbEnv) viaEngine(q snbQuery, id string) ([][]string, error) {
	env.params["id"] = value.Str(id)
	res, err := env.engine.Run(context.Background(), q.cypher, env.params)
	if err != nil {
		return nil, err
	}
	return res.Strings(), nil
}

// viaGDI runs q's hand-written version for the person id.
func (env *snbEnv) viaGDI(q snbQuery, id string) ([][]string, error) { return q.gdi(env.gdi, id) }

// snbGDI is what the hand-written queries resolve once, before they run:
// labels, property types and label constraints.
type snbGDI struct {
	db                        gdi.Database
	personLabel               gdi.Label
	knows, hasCreator         gdi.Constraint
	firstName, lastName, date gdi.PropertyType
	personProps               []gdi.PropertyType // the columns of person
}

// newSNBGDI resolves the names the hand-written queries use.
func newSNBGDI(db gdi.Database) (*snbGDI, error) {
	g := &snbGDI{db: db}
	var err error
	if g.personLabel, err = db.LabelFromName("Person"); err != nil {
		return nil, err
	}
	if g.knows, err = labelConstraint(db, "knows"); err != nil {
		return nil, err
	}
	if g.hasCreator, err = labelConstraint(db, "hasCreator"); err != nil {
		return nil, err
	}
	for _, name := range []string{"firstName", "lastName", "birthday", "locationIP", "browserUsed", "gender", "creationDate"} {
		pt, err := db.PropertyTypeFromName(name)
		if err != nil {
			return nil, fmt.Errorf("property type %s: %w", name, err)
		}
		g.personProps = append(g.personProps, pt)
	}
	g.firstName, g.lastName, g.date = g.personProps[0], g.personProps[1], g.personProps[6]
	return g, nil
}

// labelConstraint returns the constraint "has the label named name".
func labelConstraint(db gdi.Database, name string) (gdi.Constraint, error) {
	l, err := db.LabelFromName(name)
	if err != nil {
		return nil, err
	}
	sub, err := db.CreateSubconstraint()
	if err != nil {
		return nil, err
	}
	defer sub.Free()
	if err := sub.AddLabelCondition(l, gdi.Equal); err != nil {
		return nil, err
	}
	c, err := db.CreateConstraint()
	if err != nil {
		return nil, err
	}
	return c, c.AddSubconstraint(sub)
}

// inTx runs fn in a single-process transaction, committed if fn
// succeeds.
func (g *snbGDI) inTx(fn func(tx gdi.Transaction) error) error {
	tx, err := g.db.StartTransaction()
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		return errors.Join(err, tx.Abort())
	}
	return tx.Commit()
}

// findPerson returns the person with the application-level ID id, or nil
// if there is none.
func (g *snbGDI) findPerson(tx gdi.Transaction, id string) (gdi.VertexHolder, error) {
	uid, ok, err := tx.TranslateVertexID(g.personLabel, []byte(id))
	if err != nil || !ok {
		return nil, err
	}
	return tx.AssociateVertex(uid)
}

// text returns the first value of h's property pt as the engine prints a
// string ('x'), or null if h has none; raw is the value itself.
func text(h gdi.Holder, pt gdi.PropertyType) (printed, raw string, err error) {
	vs, err := h.Properties(pt)
	if err != nil || len(vs) == 0 {
		return "null", "", err
	}
	raw = vs[0].RawString()
	return value.Format(value.Str(raw), nil), raw, nil
}

// texts returns text of each property of pts on h, as printed.
func texts(h gdi.Holder, pts ...gdi.PropertyType) ([]string, error) {
	out := make([]string, len(pts))
	for i, pt := range pts {
		s, _, err := text(h, pt)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

// person is query 1: the person's properties.
func (g *snbGDI) person(id string) (rows [][]string, err error) {
	err = g.inTx(func(tx gdi.Transaction) error {
		p, err := g.findPerson(tx, id)
		if p == nil {
			return err
		}
		row, err := texts(p, g.personProps...)
		rows = [][]string{row}
		return err
	})
	return rows, err
}

// sortedRow is a row of a result with its sort keys: the first
// descending, the second ascending. A missing value sorts as "", where
// Cypher would put null first in descending order; the data has none.
type sortedRow struct {
	desc, asc string
	cells     []string
}

// sortRows orders rows by desc descending, then asc, and returns the
// first limit of their cells (all if limit < 0).
func sortRows(rows []sortedRow, limit int) [][]string {
	slices.SortFunc(rows, func(a, b sortedRow) int {
		return cmp.Or(strings.Compare(b.desc, a.desc), strings.Compare(a.asc, b.asc))
	})
	if limit >= 0 && len(rows) > limit {
		rows = rows[:limit]
	}
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = r.cells
	}
	return out
}

// expand calls fn, in a transaction, for every edge of the person id
// that matches o and c, with the vertex at its other end (the person
// itself for a loop); it does nothing if there is no such person.
func (g *snbGDI) expand(id string, o gdi.Orientation, c gdi.Constraint, fn func(e gdi.EdgeHolder, v gdi.VertexHolder) error) error {
	return g.inTx(func(tx gdi.Transaction) error {
		p, err := g.findPerson(tx, id)
		if p == nil {
			return err
		}
		self, err := p.UID()
		if err != nil {
			return err
		}
		uids, err := p.Edges(o, c)
		if err != nil {
			return err
		}
		for _, uid := range uids {
			e, v, err := otherEnd(tx, uid, self)
			if err == nil {
				err = fn(e, v)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// otherEnd returns the edge uid of the vertex self and the vertex at its
// other end (self for a loop).
func otherEnd(tx gdi.Transaction, uid gdi.EdgeUID, self gdi.VertexUID) (gdi.EdgeHolder, gdi.VertexHolder, error) {
	e, err := tx.AssociateEdge(uid)
	if err != nil {
		return nil, nil, err
	}
	origin, target, err := e.Vertices()
	if err != nil {
		return nil, nil, err
	}
	if origin == self {
		origin = target
	}
	v, err := tx.AssociateVertex(origin)
	return e, v, err
}

// friends is query 2: the persons the person knows, either way round,
// with when, latest first.
func (g *snbGDI) friends(id string) ([][]string, error) {
	var out []sortedRow
	err := g.expand(id, gdi.EdgeAll, g.knows, func(e gdi.EdgeHolder, f gdi.VertexHolder) error {
		r, err := g.friendRow(e, f)
		if r.cells != nil {
			out = append(out, r)
		}
		return err
	})
	return sortRows(out, -1), err
}

// friendRow is the row of friends for the knows edge e and the vertex f
// at its other end: no cells if f is not a person.
func (g *snbGDI) friendRow(e gdi.EdgeHolder, f gdi.VertexHolder) (sortedRow, error) {
	ls, err := f.Labels()
	if err != nil || !slices.Contains(ls, g.personLabel) {
		return sortedRow{}, err
	}
	fid, rawID, err := text(f, gdi.PropertyTypeID)
	if err != nil {
		return sortedRow{}, err
	}
	names, err := texts(f, g.firstName, g.lastName)
	if err != nil {
		return sortedRow{}, err
	}
	since, rawSince, err := text(e, g.date)
	return sortedRow{desc: rawSince, asc: rawID, cells: []string{fid, names[0], names[1], since}}, err
}

// messages is query 3: the person's latest ten messages (posts and
// comments), by the edges hasCreator into the person.
func (g *snbGDI) messages(id string) ([][]string, error) {
	var out []sortedRow
	err := g.expand(id, gdi.EdgeIncoming, g.hasCreator, func(_ gdi.EdgeHolder, m gdi.VertexHolder) error {
		mid, rawID, err1 := text(m, gdi.PropertyTypeID)
		created, rawCreated, err2 := text(m, g.date)
		out = append(out, sortedRow{desc: rawCreated, asc: rawID, cells: []string{mid, created}})
		return errors.Join(err1, err2)
	})
	return sortRows(out, 10), err
}

// TestSNBShortReadsAgree runs every query for every person both ways and
// requires the same rows, and some persons with friends and some with
// messages, so that the comparison is not vacuous.
func TestSNBShortReadsAgree(t *testing.T) {
	runSNB(t, func(env *snbEnv) error {
		nonEmpty := map[string]int{}
		for _, q := range snbQueries {
			for _, id := range env.persons {
				viaEngine, err1 := env.viaEngine(q, id)
				viaGDI, err2 := env.viaGDI(q, id)
				if err := errors.Join(err1, err2); err != nil {
					return fmt.Errorf("%s %s: %w", q.name, id, err)
				}
				if !slices.EqualFunc(viaEngine, viaGDI, slices.Equal) {
					t.Errorf("%s for person %s:\nengine %q\n   gdi %q", q.name, id, viaEngine, viaGDI)
				}
				if len(viaGDI) > 0 {
					nonEmpty[q.name]++
				}
			}
		}
		if len(env.persons) == 0 || nonEmpty["person"] != len(env.persons) || nonEmpty["friends"] == 0 || nonEmpty["messages"] == 0 {
			t.Errorf("of %d persons, found %d, with friends %d, with messages %d", len(env.persons), nonEmpty["person"], nonEmpty["friends"], nonEmpty["messages"])
		}
		t.Logf("%d persons, %d with friends, %d with messages", len(env.persons), nonEmpty["friends"], nonEmpty["messages"])
		return nil
	})
}

// engineAllocs is what the engine allocates on a point read beyond the
// hand-written query: the execution state with its store, the first row
// and the slice holding it, the scan's output, the projection's buffer,
// the result and its rows, and the seek's UID.
const engineAllocs = 8

// TestPointReadAllocations pins the engine's allocations on the person
// read against the hand-written query's: a change that adds work to every
// statement shows here, as a count, where the benchmark shows it as time.
func TestPointReadAllocations(t *testing.T) {
	if invariants.Enabled {
		t.Skip("under -race the invariants allocate and pools drop entries at random")
	}
	runSNB(t, func(env *snbEnv) error {
		q, id := snbQueries[0], env.persons[0]
		var err error
		allocs := func(run func(snbQuery, string) ([][]string, error)) float64 {
			return testing.AllocsPerRun(100, func() {
				if _, e := run(q, id); e != nil {
					err = e
				}
			})
		}
		engine, hand := allocs(env.viaEngine), allocs(env.viaGDI)
		if engine > hand+engineAllocs {
			t.Errorf("a point read through the engine makes %v allocations, the hand-written one %v: more than %d beyond it", engine, hand, engineAllocs)
		}
		t.Logf("allocations per person read: engine %v, hand-written %v", engine, hand)
		return err
	})
}

// BenchmarkSNBShortReads times each query through the engine and hand-
// written, for the persons in turn, and reports the one-sided calls per
// query (gets, puts, atomics and flushes).
func BenchmarkSNBShortReads(b *testing.B) {
	runSNB(b, func(env *snbEnv) error {
		impls := []struct {
			name string
			run  func(snbQuery, string) ([][]string, error)
		}{{"engine", env.viaEngine}, {"gdi", env.viaGDI}}
		for _, q := range snbQueries {
			b.Run("query="+q.name, func(b *testing.B) {
				for _, impl := range impls {
					b.Run("impl="+impl.name, func(b *testing.B) {
						b.ReportAllocs()
						before, n := env.comm.Counts(), 0
						for b.Loop() {
							if _, err := impl.run(q, env.persons[n%len(env.persons)]); err != nil {
								b.Fatal(err)
							}
							n++
						}
						b.ReportMetric(float64(env.comm.Counts().Sub(before).Calls())/float64(n), "rma-calls/op")
					})
				}
			})
		}
		return nil
	})
}
