package gdirma

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/generator"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/launch"
)

// dumpGraph describes the graph of db as text, in terms of generator
// vertex numbers and scheme indices, so that two databases holding the
// same graph give the same text whatever their UIDs: for each vertex its
// labels, property types and values, and the sorted list of its edges
// (ends, direction, labels).
func dumpGraph(g *generator.Graph, db gdi.Database, m *generator.Metadata) (string, error) {
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

// checkImages checks that every vertex holder's image is what encodeRecord
// makes of its decoded record, so that the bulk path writes the format of
// the transactions byte for byte.
func checkImages(db *Database) error {
	st := db.st
	return st.scanHolders(vertexKind, func(n uint64, r *record) error {
		img, ok, err := st.readImage(n, false, true)
		if err != nil || !ok {
			return fmt.Errorf("holder %d: %v", n, err)
		}
		if !bytes.Equal(img.bytes, encodeRecord(vertexKind, r, st.codec(n))) {
			return fmt.Errorf("holder %d: the image is not encodeRecord's", n)
		}
		return nil
	})
}

// TestBulkLoadMatchesInsert loads a generated graph with BulkLoad into one
// database and with generator.Insert (transactions) into another, and
// compares both, vertex by vertex, through GDI.
func TestBulkLoadMatchesInsert(t *testing.T) {
	defer func(n int) { roundEdges = n }(roundEdges)
	for _, directed := range []bool{false, true} {
		g, err := generator.New(generator.Config{Scale: 7, EdgeFactor: 8, Seed: 21, Directed: directed})
		if err != nil {
			t.Fatal(err)
		}
		if directed {
			roundEdges = 100 // several rounds
		}
		err = launch.Run(2, func(c rma.Comm) error {
			p := Params{MemoryPerRank: 2 << 20}
			a, err1 := Driver{}.CreateDatabase(c, p)
			b, err2 := Driver{}.CreateDatabase(c, p)
			if err := errors.Join(err1, err2); err != nil {
				return err
			}
			ma, err1 := g.Scheme().CreateMetadata(a)
			mb, err2 := g.Scheme().CreateMetadata(b)
			if err := errors.Join(err1, err2); err != nil {
				return err
			}
			if err := a.(*Database).BulkLoad(GeneratorSource(g, ma)); err != nil {
				return fmt.Errorf("BulkLoad: %w", err)
			}
			if err := g.Insert(c, b, mb, generator.InsertOptions{}); err != nil {
				return fmt.Errorf("Insert: %w", err)
			}
			var err error
			if c.Rank() == 1 {
				var da, dbb string
				if da, err = dumpGraph(g, a, ma); err == nil {
					dbb, err = dumpGraph(g, b, mb)
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
					err = checkImages(a.(*Database))
				}
			}
			return errors.Join(err, c.Barrier(), a.Free(), b.Free())
		})
		if err != nil {
			t.Fatalf("directed=%v: %v", directed, err)
		}
	}
}

// TestBulkLoadManyEdges gives one vertex more edges than it has slots:
// the rest get holders of their own, as transactions would give them.
func TestBulkLoadManyEdges(t *testing.T) {
	if testing.Short() {
		t.Skip("65600 edges")
	}
	const edges = maxSlot + 65
	err := launch.Run(2, func(c rma.Comm) error {
		db, err := Driver{}.CreateDatabase(c, Params{MemoryPerRank: 16 << 20, BlockSize: 4096})
		if err != nil {
			return err
		}
		l, err := db.CreateLabel("e")
		if err != nil {
			return err
		}
		src := BulkSource{
			Vertices: 3,
			Vertex: func(x uint64, v *BulkVertex) error {
				v.ID = []byte{byte('a' + x)}
				return nil
			},
			Edges: func(rank, size int, emit func(u, v uint64, label int) error) error {
				for i := rank; i < edges; i += size {
					if err := emit(0, uint64(1+i%2), 0); err != nil {
						return err
					}
				}
				return nil
			},
			EdgeLabels: []gdi.Label{l},
			Direction:  gdi.Directed,
		}
		if err := db.(*Database).BulkLoad(src); err != nil {
			return err
		}
		if c.Rank() == 0 {
			err = func() error {
				tx, err := db.StartTransaction()
				if err != nil {
					return err
				}
				defer tx.Abort()
				var hub gdi.VertexHolder
				for _, u := range db.(*Database).st.mustAll(t) {
					v, err := tx.AssociateVertex(gdi.VertexUID(db.(*Database).st.uid(u)))
					if err != nil {
						return err
					}
					if ps, _ := v.Properties(gdi.PropertyTypeID); len(ps) == 1 && string(ps[0].Raw()) == "a" {
						hub = v
					}
				}
				es, err := hub.Edges(gdi.EdgeOutgoing, nil)
				if err != nil || len(es) != edges {
					return fmt.Errorf("the hub has %d outgoing edges (%v), want %d", len(es), err, edges)
				}
				for _, uid := range es[len(es)-100:] {
					e, err := tx.AssociateEdge(uid)
					if err != nil {
						return err
					}
					if ls, err := e.Labels(); err != nil || !slices.Equal(ls, []gdi.Label{l}) {
						return fmt.Errorf("edge %v has labels %v (%v)", uid, ls, err)
					}
				}
				return checkImages(db.(*Database))
			}()
		}
		return errors.Join(err, c.Barrier(), db.Free())
	})
	if err != nil {
		t.Fatal(err)
	}
}

func (st *store) mustAll(t *testing.T) []uint64 {
	m, err := st.all(vertexKind)
	if err != nil {
		t.Error(err)
	}
	return sortedKeys(m)
}

// TestBulkLoadErrors checks that bad input is an error on every rank.
func TestBulkLoadErrors(t *testing.T) {
	defer func(n int) { roundEdges = n }(roundEdges)
	roundEdges = 10
	err := launch.Run(2, func(c rma.Comm) error {
		db, err := Driver{}.CreateDatabase(c, nil)
		if err != nil {
			return err
		}
		d := db.(*Database)
		l, err := db.CreateLabel("L")
		if err != nil {
			return err
		}
		ok := func(uint64, *BulkVertex) error { return nil }
		none := func(int, int, func(uint64, uint64, int) error) error { return nil }
		cases := map[string]BulkSource{
			"no funcs":  {Vertices: 2, Direction: gdi.Directed},
			"direction": {Vertices: 2, Vertex: ok, Edges: none},
			"too many":  {Vertices: 1 << 40, Vertex: ok, Edges: none, Direction: gdi.Directed},
			"end": {Vertices: 2, Vertex: ok, Direction: gdi.Directed, Edges: func(r, s int, emit func(uint64, uint64, int) error) error {
				return emit(0, 5, -1)
			}},
			"late end on one rank": {Vertices: 2, Vertex: ok, Direction: gdi.Directed, Edges: func(r, s int, emit func(uint64, uint64, int) error) error {
				for range 55 {
					if err := emit(0, 1, -1); err != nil {
						return err
					}
				}
				if r == 1 {
					return emit(7, 1, -1)
				}
				return nil
			}},
			"label": {Vertices: 2, Vertex: ok, Direction: gdi.Directed, Edges: func(r, s int, emit func(uint64, uint64, int) error) error {
				return emit(0, 1, 3)
			}},
			"id": {Vertices: 4, Vertex: func(x uint64, v *BulkVertex) error {
				v.ID = []byte("same")
				v.Labels = append(v.Labels, gdi.Label(12345))
				return nil
			}, Edges: none, Direction: gdi.Directed},
			"duplicate id": {Vertices: 4, Vertex: func(x uint64, v *BulkVertex) error {
				v.ID = []byte("same")
				v.Labels = append(v.Labels, l)
				return nil
			}, Edges: none, Direction: gdi.Directed},
			"vertex error": {Vertices: 4, Vertex: func(x uint64, v *BulkVertex) error {
				return errors.New("no such vertex")
			}, Edges: none, Direction: gdi.Directed},
		}
		for name, src := range cases {
			if err := d.BulkLoad(src); err == nil || !gdi.Failed(err) {
				return fmt.Errorf("%s: BulkLoad returned %v", name, err)
			}
		}
		return db.Free()
	})
	if err != nil {
		t.Fatal(err)
	}
}
