package generator_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/gdi-go/gdi/conformance/refdb"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/generator"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

func newGraph(t testing.TB, cfg generator.Config) *generator.Graph {
	t.Helper()
	g, err := generator.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// writeCSV writes the CSV files of g on the given number of local ranks
// into a new directory.
func writeCSV(t *testing.T, g *generator.Graph, ranks int) string {
	t.Helper()
	dir := t.TempDir()
	err := local.Run(ranks, func(c rma.Comm) error {
		return g.WriteCSV(c, dir, generator.WriteOptions{Workers: 2})
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestCSVSameForAnyRanks(t *testing.T) {
	g := newGraph(t, generator.Config{Scale: 9, EdgeFactor: 16, Seed: 3, Directed: true})
	one := writeCSV(t, g, 1)
	for _, ranks := range []int{2, 3} {
		other := writeCSV(t, g, ranks)
		for _, f := range g.CSVFiles() {
			a, err1 := os.ReadFile(filepath.Join(one, f.Name))
			b, err2 := os.ReadFile(filepath.Join(other, f.Name))
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if !bytes.Equal(a, b) {
				t.Errorf("%s differs between 1 and %d ranks", f.Name, ranks)
			}
		}
	}
}

func TestCSVFiles(t *testing.T) {
	g := newGraph(t, generator.Config{Scale: 8, EdgeFactor: 16, Seed: 3})
	files := g.CSVFiles()
	if len(files) != 5+15 {
		t.Fatalf("%d files for the default scheme, want 5 vertex and 15 edge files", len(files))
	}
	dir := writeCSV(t, g, 1)
	lines := 0
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(dir, f.Name))
		if err != nil {
			t.Fatal(err)
		}
		n := bytes.Count(data, []byte("\n")) - 1 // the header
		if !f.Edge {
			lo, hi := g.LabelRange(f.Label)
			if uint64(n) != hi-lo {
				t.Errorf("%s: %d vertices, want %d", f.Name, n, hi-lo)
			}
			continue
		}
		lines += n
	}
	if uint64(lines) != g.NumEdges() {
		t.Errorf("edge files hold %d edges, want %d", lines, g.NumEdges())
	}
	head, _ := os.ReadFile(filepath.Join(dir, "vertex_Person.csv"))
	if want := ":ID(Person),firstName,lastName,email,birthday:date\n"; !bytes.HasPrefix(head, []byte(want)) {
		t.Errorf("vertex_Person.csv starts %.60q, want %q", head, want)
	}
	head, _ = os.ReadFile(filepath.Join(dir, "edge_worksAt_Company_Person.csv"))
	if want := ":START_ID(Company),:END_ID(Person)\n"; !bytes.HasPrefix(head, []byte(want)) {
		t.Errorf("edge_worksAt_Company_Person.csv starts %.60q, want %q", head, want)
	}
}

type edgeKey struct {
	u, v  uint64
	label int
}

// TestCSVRoundTrip writes the CSV files, loads them into refdb with its
// bulk loader and reads everything back: every vertex with its label and
// properties, every edge with its ends, direction and label.
func TestCSVRoundTrip(t *testing.T) {
	for _, directed := range []bool{false, true} {
		t.Run(fmt.Sprintf("directed=%v", directed), func(t *testing.T) {
			g := newGraph(t, generator.Config{Scale: 8, EdgeFactor: 8, Seed: 77, Directed: directed})
			dir := t.TempDir()
			err := local.Run(2, func(c rma.Comm) error {
				if err := g.WriteCSV(c, dir, generator.WriteOptions{}); err != nil {
					return err
				}
				db, err := refdb.Driver{}.CreateDatabase(c, nil)
				if err != nil {
					return err
				}
				meta, err := g.Scheme().CreateMetadata(db)
				if err != nil {
					return err
				}
				if err := g.LoadCSV(db, dir, meta); err != nil {
					return err
				}
				if c.Rank() == 1 {
					err = checkDatabase(g, db, meta)
				}
				return errJoin(err, c.Barrier(), db.Free())
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

func errJoin(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func checkDatabase(g *generator.Graph, db gdi.Database, meta *generator.Metadata) error {
	tx, err := db.StartTransaction()
	if err != nil {
		return err
	}
	defer tx.Abort()
	s := g.Scheme()
	edgeLabel := map[gdi.Label]int{}
	for k, l := range meta.EdgeLabels {
		edgeLabel[l] = k
	}
	vertexOf := map[gdi.VertexUID]uint64{}
	var holders []gdi.VertexHolder
	for x := range g.NumVertices() {
		k := g.VertexLabel(x)
		uid, found, err := tx.TranslateVertexID(meta.VertexLabels[k], generator.AppID(x))
		if err != nil || !found {
			return fmt.Errorf("vertex %d (%s) not found: %v", x, s.VertexLabels[k].Name, err)
		}
		vertexOf[uid] = x
		v, err := tx.AssociateVertex(uid)
		if err != nil {
			return err
		}
		holders = append(holders, v)
		if ls, err := v.Labels(); err != nil || !slices.Equal(ls, []gdi.Label{meta.VertexLabels[k]}) {
			return fmt.Errorf("vertex %d has labels %v (%v)", x, ls, err)
		}
		for p := range s.Properties {
			got, err := v.Properties(meta.PropertyTypes[p])
			if err != nil {
				return err
			}
			var want []gdi.Value
			// An empty string is an empty CSV field: no property.
			if val, ok := g.Value(x, p); ok && !(val.Datatype() == gdi.Char && val.Len() == 0) {
				want = []gdi.Value{val}
			}
			if !slices.Equal(got, want) {
				return fmt.Errorf("vertex %d, %s: got %v, want %v", x, s.Properties[p].Name, got, want)
			}
		}
	}
	seen := map[gdi.EdgeUID]bool{}
	var got []edgeKey
	for _, v := range holders {
		es, err := v.Edges(gdi.EdgeAll, nil)
		if err != nil {
			return err
		}
		for _, uid := range es {
			if seen[uid] {
				continue
			}
			seen[uid] = true
			e, err := tx.AssociateEdge(uid)
			if err != nil {
				return err
			}
			o, t, err := e.Vertices()
			if err != nil {
				return err
			}
			d, _ := e.Direction()
			ls, _ := e.Labels()
			if len(ls) != 1 || d != map[bool]gdi.DirectionType{true: gdi.Directed, false: gdi.Undirected}[g.Config().Directed] {
				return fmt.Errorf("edge %v: labels %v, direction %v", uid, ls, d)
			}
			got = append(got, norm(g, vertexOf[o], vertexOf[t], edgeLabel[ls[0]]))
		}
	}
	var want []edgeKey
	g.EdgesRange(0, g.NumEdges(), func(_, u, v uint64) {
		want = append(want, norm(g, u, v, g.EdgeLabel(u, v)))
	})
	cmp := func(a, b edgeKey) int {
		return cmpInts(a.u, b.u, a.v, b.v, uint64(a.label), uint64(b.label))
	}
	slices.SortFunc(got, cmp)
	slices.SortFunc(want, cmp)
	if !slices.Equal(got, want) {
		return fmt.Errorf("edges differ: %d in the database, %d generated", len(got), len(want))
	}
	return nil
}

// norm orders the ends of an undirected edge.
func norm(g *generator.Graph, u, v uint64, label int) edgeKey {
	if !g.Config().Directed && u > v {
		u, v = v, u
	}
	return edgeKey{u, v, label}
}

func cmpInts(xs ...uint64) int {
	for k := 0; k < len(xs); k += 2 {
		if xs[k] != xs[k+1] {
			if xs[k] < xs[k+1] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// TestInsert creates the graph through transactions on several ranks and
// checks it as TestCSVRoundTrip does.
func TestInsert(t *testing.T) {
	for _, directed := range []bool{false, true} {
		g := newGraph(t, generator.Config{Scale: 7, EdgeFactor: 8, Seed: 78, Directed: directed})
		err := local.Run(3, func(c rma.Comm) error {
			db, err := refdb.Driver{}.CreateDatabase(c, nil)
			if err != nil {
				return err
			}
			meta, err := g.Scheme().CreateMetadata(db)
			if err != nil {
				return err
			}
			if err := g.Insert(c, db, meta, generator.InsertOptions{Batch: 16}); err != nil {
				return err
			}
			if c.Rank() == 2 {
				err = checkDatabase(g, db, meta)
			}
			return errJoin(err, c.Barrier(), db.Free())
		})
		if err != nil {
			t.Fatalf("directed=%v: %v", directed, err)
		}
	}
}

// flakyDB fails the commit of every third transaction that creates edges,
// as a conflict with another rank would.
type flakyDB struct {
	gdi.Database
	commits *atomic.Int64
}

type flakyTx struct {
	gdi.Transaction
	db    flakyDB
	edges bool
}

func (db flakyDB) StartTransaction() (gdi.Transaction, error) {
	tx, err := db.Database.StartTransaction()
	if err != nil {
		return nil, err
	}
	return &flakyTx{Transaction: tx, db: db}, nil
}

func (tx *flakyTx) CreateEdge(d gdi.DirectionType, o, t gdi.VertexHolder) (gdi.EdgeHolder, error) {
	tx.edges = true
	return tx.Transaction.CreateEdge(d, o, t)
}

func (tx *flakyTx) Commit() error {
	if tx.edges && tx.db.commits.Add(1)%3 == 0 {
		return errJoin(tx.Transaction.Abort(), gdi.Errorf(gdi.ErrTransactionCommitFail, "injected conflict"))
	}
	return tx.Transaction.Commit()
}

func TestInsertRetries(t *testing.T) {
	g := newGraph(t, generator.Config{Scale: 6, EdgeFactor: 8, Seed: 79})
	err := local.Run(2, func(c rma.Comm) error {
		db, err := refdb.Driver{}.CreateDatabase(c, nil)
		if err != nil {
			return err
		}
		meta, err := g.Scheme().CreateMetadata(db)
		if err != nil {
			return err
		}
		flaky := flakyDB{db, &atomic.Int64{}}
		if err := g.Insert(c, flaky, meta, generator.InsertOptions{Batch: 8}); err != nil {
			return err
		}
		if c.Rank() == 0 {
			if flaky.commits.Load() < 10 {
				err = fmt.Errorf("only %d edge commits", flaky.commits.Load())
			} else {
				err = checkDatabase(g, db, meta)
			}
		}
		return errJoin(err, c.Barrier(), db.Free())
	})
	if err != nil {
		t.Fatal(err)
	}
}
