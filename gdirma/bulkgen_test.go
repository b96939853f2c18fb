package gdirma_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/generator"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/launch"
)

// dumpGenerated describes the graph of db as text, in terms of generator
// vertex numbers and scheme indices, so that two databases holding the
// same graph give the same text whatever their UIDs: for each vertex its
// labels, property types and values, and the sorted list of its edges
// (ends, direction, labels).
func dumpGenerated(g *generator.Graph, db gdi.Database, m *generator.Metadata) (string, error) {
	tx, err := db.StartTransaction()
	if err != nil {
		return "", err
	}
	defer tx.Abort()
	name := map[gdi.Label]string{}
	for k, l := range m.VertexLabels {
		name[l] = fmt.Sprint("V", k)
	}
	for k, l := range m.EdgeLabels {
		name[l] = fmt.Sprint("E", k)
	}
	pname := map[gdi.PropertyType]string{gdi.PropertyTypeID: "ID"}
	for k, p := range m.PropertyTypes {
		pname[p] = fmt.Sprint("P", k)
	}
	vertexOf := map[gdi.VertexUID]uint64{}
	holders := make([]gdi.VertexHolder, g.NumVertices())
	for x := range g.NumVertices() {
		uid, found, err := tx.TranslateVertexID(m.VertexLabels[g.VertexLabel(x)], generator.AppID(x))
		if err != nil || !found {
			return "", fmt.Errorf("vertex %d not found (%v)", x, err)
		}
		vertexOf[uid] = x
		if holders[x], err = tx.AssociateVertex(uid); err != nil {
			return "", err
		}
	}
	var out strings.Builder
	for x, v := range holders {
		ls, err1 := v.Labels()
		ps, err2 := v.PropertyTypes()
		if err := errors.Join(err1, err2); err != nil {
			return "", err
		}
		fmt.Fprintf(&out, "%d:", x)
		for _, l := range ls {
			fmt.Fprintf(&out, " %s", name[l])
		}
		for _, p := range ps {
			vs, err := v.Properties(p)
			if err != nil {
				return "", err
			}
			fmt.Fprintf(&out, " %s=%v", pname[p], vs)
		}
		es, err := v.Edges(gdi.EdgeAll, nil)
		if err != nil {
			return "", err
		}
		var lines []string
		for _, uid := range es {
			e, err := tx.AssociateEdge(uid)
			if err != nil {
				return "", err
			}
			o, t, err1 := e.Vertices()
			d, err2 := e.Direction()
			ls, err3 := e.Labels()
			ps, err4 := e.PropertyTypes()
			if err := errors.Join(err1, err2, err3, err4); err != nil {
				return "", err
			}
			var ln []string
			for _, l := range ls {
				ln = append(ln, name[l])
			}
			lines = append(lines, fmt.Sprintf("%d-%d %v %v %d", vertexOf[o], vertexOf[t], d, ln, len(ps)))
		}
		slices.Sort(lines)
		fmt.Fprintf(&out, " | %d edges: %s\n", len(lines), strings.Join(lines, ", "))
	}
	return out.String(), nil
}

// TestBulkLoadMatchesInsert loads a generated graph with BulkLoad into one
// database and with generator.Insert (transactions) into another, and
// compares both, vertex by vertex, through GDI.
func TestBulkLoadMatchesInsert(t *testing.T) {
	for _, directed := range []bool{false, true} {
		g, err := generator.New(generator.Config{Scale: 7, EdgeFactor: 8, Seed: 21, Directed: directed})
		if err != nil {
			t.Fatal(err)
		}
		err = launch.Run(2, func(c rma.Comm) error {
			p := gdirma.Params{MemoryPerRank: 2 << 20}
			a, err1 := gdirma.Driver{}.CreateDatabase(c, p)
			b, err2 := gdirma.Driver{}.CreateDatabase(c, p)
			if err := errors.Join(err1, err2); err != nil {
				return err
			}
			ma, err1 := g.Scheme().CreateMetadata(a)
			mb, err2 := g.Scheme().CreateMetadata(b)
			if err := errors.Join(err1, err2); err != nil {
				return err
			}
			src := g.BulkSource(ma)
			if directed {
				src.RoundEdges = 100 // several rounds
			}
			if err := a.(gdi.BulkLoader).BulkLoad(src); err != nil {
				return fmt.Errorf("BulkLoad: %w", err)
			}
			if err := g.Insert(c, b, mb, generator.InsertOptions{}); err != nil {
				return fmt.Errorf("Insert: %w", err)
			}
			var err error
			if c.Rank() == 1 {
				var da, dbb string
				if da, err = dumpGenerated(g, a, ma); err == nil {
					dbb, err = dumpGenerated(g, b, mb)
				}
				if err == nil && da != dbb {
					la, lb := strings.Split(da, "\n"), strings.Split(dbb, "\n")
					for i := range min(len(la), len(lb)) {
						if la[i] != lb[i] {
							err = fmt.Errorf("bulk:   %s\ninsert: %s", la[i], lb[i])
							break
						}
					}
				}
				if err == nil {
					err = a.(*gdirma.Database).CheckHolders()
				}
			}
			return errors.Join(err, c.Barrier(), a.Free(), b.Free())
		})
		if err != nil {
			t.Fatalf("directed=%v: %v", directed, err)
		}
	}
}
