package csvimport_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gdi-go/gdi/csvimport"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/generator"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// dumpByID describes the graph db holds by names and IDs, whatever the
// UIDs and datatypes: for each vertex of g (found by its ID under its
// generated label), its labels, properties (integers as numbers, so that
// a long read back equals an unsigned the generator made) and edges
// (other end's ID, direction, labels).
func dumpByID(g *generator.Graph, db gdi.Database) (string, error) {
	var out strings.Builder
	err := inTx(db, func(tx gdi.Transaction) error {
		idOf := map[gdi.VertexUID]string{}
		var vs []gdi.VertexHolder
		for x := range g.NumVertices() {
			l, err := db.LabelFromName(g.Scheme().VertexLabels[g.VertexLabel(x)].Name)
			if err != nil {
				return err
			}
			uid, ok, err := tx.TranslateVertexID(l, generator.AppID(x))
			if err != nil || !ok {
				return errors.Join(err, fmt.Errorf("vertex %d not found", x))
			}
			v, err := tx.AssociateVertex(uid)
			if err != nil {
				return err
			}
			idOf[uid] = string(generator.AppID(x))
			vs = append(vs, v)
		}
		for x, v := range vs {
			desc, err := describe(db, v)
			if err != nil {
				return err
			}
			uids, err := v.Edges(gdi.EdgeAll, nil)
			if err != nil {
				return err
			}
			var lines []string
			for _, uid := range uids {
				e, err := tx.AssociateEdge(uid)
				if err != nil {
					return err
				}
				o, t, err1 := e.Vertices()
				d, err2 := e.Direction()
				ed, err3 := describe(db, e)
				if err := errors.Join(err1, err2, err3); err != nil {
					return err
				}
				lines = append(lines, fmt.Sprintf("%s-%s %v%s", idOf[o], idOf[t], d, ed))
			}
			slices.Sort(lines)
			fmt.Fprintf(&out, "%d:%s | %s\n", x, desc, strings.Join(lines, ", "))
		}
		return nil
	})
	return out.String(), err
}

type described interface {
	Labels() ([]gdi.Label, error)
	PropertyTypes() ([]gdi.PropertyType, error)
	Properties(gdi.PropertyType) ([]gdi.Value, error)
}

// describe lists the labels and properties of h by name, sorted.
func describe(db gdi.Database, h described) (string, error) {
	ls, err1 := h.Labels()
	ps, err2 := h.PropertyTypes()
	if err := errors.Join(err1, err2); err != nil {
		return "", err
	}
	var parts []string
	for _, l := range ls {
		name, err := db.LabelName(l)
		if err != nil {
			return "", err
		}
		parts = append(parts, name)
	}
	for _, p := range ps {
		info, err := db.PropertyTypeInfo(p)
		if err != nil {
			return "", err
		}
		vs, err := h.Properties(p)
		if err != nil {
			return "", err
		}
		var strs []string
		for _, v := range vs {
			strs = append(strs, plain(v))
		}
		slices.Sort(strs)
		parts = append(parts, fmt.Sprintf("%s=%v", info.Name, strs))
	}
	slices.Sort(parts)
	return " " + strings.Join(parts, " "), nil
}

// plain is the text of v, integers as plain numbers.
func plain(v gdi.Value) string {
	if xs, err := v.Int64Slice(); err == nil {
		return fmt.Sprint(xs)
	}
	if xs, err := v.Uint64Slice(); err == nil {
		return fmt.Sprint(xs)
	}
	if s, err := v.Text(); err == nil {
		return s
	}
	return v.String()
}

// TestImportMatchesGenerator imports the CSV files gdi gen writes on 1, 2
// and 3 ranks and compares the database, vertex by vertex, with the one
// BulkLoad makes from the generator itself.
func TestImportMatchesGenerator(t *testing.T) {
	g, err := generator.New(generator.Config{Scale: 7, EdgeFactor: 8, Seed: 5, Directed: true})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := local.Run(2, func(c rma.Comm) error { return g.WriteCSV(c, dir, generator.WriteOptions{}) }); err != nil {
		t.Fatal(err)
	}
	for _, ranks := range []int{1, 2, 3} {
		err := local.Run(ranks, func(c rma.Comm) error {
			p := gdirma.Params{MemoryPerRank: 4 << 20}
			a, err1 := gdirma.Driver{}.CreateDatabase(c, p)
			b, err2 := gdirma.Driver{}.CreateDatabase(c, p)
			if err := errors.Join(err1, err2); err != nil {
				return err
			}
			defer a.Free()
			defer b.Free()
			st, err := csvimport.Import(c, a, dir, csvimport.Options{RoundEdges: 100})
			if err != nil {
				return fmt.Errorf("import: %w", err)
			}
			if st.Vertices != g.NumVertices() || st.Edges != g.NumEdges() {
				return fmt.Errorf("imported %d vertices and %d edges, want %d and %d", st.Vertices, st.Edges, g.NumVertices(), g.NumEdges())
			}
			m, err := g.Scheme().CreateMetadata(b)
			if err != nil {
				return err
			}
			if err := b.(gdi.BulkLoader).BulkLoad(g.BulkSource(m)); err != nil {
				return err
			}
			if c.Rank() != 0 {
				return c.Barrier()
			}
			da, err1 := dumpByID(g, a)
			db, err2 := dumpByID(g, b)
			err = errors.Join(err1, err2)
			if err == nil && da != db {
				err = firstDifference(da, db)
			}
			return errors.Join(err, c.Barrier())
		})
		if err != nil {
			t.Fatalf("%d ranks: %v", ranks, err)
		}
	}
}

func firstDifference(imported, generated string) error {
	la, lb := strings.Split(imported, "\n"), strings.Split(generated, "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return fmt.Errorf("the graphs differ:\nimported:  %s\ngenerated: %s", la[i], lb[i])
		}
	}
	return fmt.Errorf("the graphs differ: %d lines against %d", len(la), len(lb))
}

// inTx runs fn in a transaction that it then aborts.
func inTx(db gdi.Database, fn func(gdi.Transaction) error) error {
	tx, err := db.StartTransaction()
	if err != nil {
		return err
	}
	defer tx.Abort()
	return fn(tx)
}
