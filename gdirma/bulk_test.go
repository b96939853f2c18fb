package gdirma

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/launch"
)

// TestBulkLoadManyEdges gives one vertex more edges than it has slots:
// the rest get holders of their own, as transactions would give them.
func TestBulkLoadManyEdges(t *testing.T) {
	if testing.Short() {
		t.Skip("65600 edges")
	}
	const edges = layout.MaxSlot + 65
	err := launch.Run(2, func(c rma.Comm) error {
		db, err := Driver{}.CreateDatabase(c, Params{MemoryPerRank: 16 << 20, BlockSize: 4096})
		if err != nil {
			return err
		}
		l, err := db.CreateLabel("e")
		if err != nil {
			return err
		}
		src := gdi.BulkSource{
			Vertices: 3,
			Vertex: func(x uint64, v *gdi.BulkVertex) error {
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
					v, err := tx.AssociateVertex(gdi.VertexUID(db.(*Database).st.UID(u.Holder())))
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
				return db.(*Database).CheckHolders()
			}()
		}
		return errors.Join(err, c.Barrier(), db.Free())
	})
	if err != nil {
		t.Fatal(err)
	}
}

func (st *graph) mustAll(t *testing.T) []layout.Number {
	m, err := st.all(vertexKind)
	if err != nil {
		t.Error(err)
	}
	return sortedKeys(m)
}

// TestBulkLoadErrors checks that bad input is an error on every rank.
func TestBulkLoadErrors(t *testing.T) {
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
		ok := func(uint64, *gdi.BulkVertex) error { return nil }
		none := func(int, int, func(uint64, uint64, int) error) error { return nil }
		cases := map[string]gdi.BulkSource{
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
			"id": {Vertices: 4, Vertex: func(x uint64, v *gdi.BulkVertex) error {
				v.ID = []byte("same")
				v.Labels = append(v.Labels, gdi.Label(12345))
				return nil
			}, Edges: none, Direction: gdi.Directed},
			"duplicate id": {Vertices: 4, Vertex: func(x uint64, v *gdi.BulkVertex) error {
				v.ID = []byte("same")
				v.Labels = append(v.Labels, l)
				return nil
			}, Edges: none, Direction: gdi.Directed},
			"vertex error": {Vertices: 4, Vertex: func(x uint64, v *gdi.BulkVertex) error {
				return errors.New("no such vertex")
			}, Edges: none, Direction: gdi.Directed},
		}
		for name, src := range cases {
			src.RoundEdges = 10 // errors in later rounds too
			if err := d.BulkLoad(src); err == nil || !gdi.Failed(err) {
				return fmt.Errorf("%s: BulkLoad returned %v", name, err)
			}
		}
		return errors.Join(bulkFullEdgeErrors(d, l), db.Free())
	})
	if err != nil {
		t.Fatal(err)
	}
}

// bulkFullEdgeErrors checks that bad edges of FullEdges fail BulkLoad on
// every rank with the spec's error code.
func bulkFullEdgeErrors(d *Database, l gdi.Label) error {
	single, err := d.CreatePropertyType(gdi.PropertyTypeInfo{Name: "single", Entity: gdi.SingleEntity, Datatype: gdi.Int64, Size: gdi.NoSizeLimit})
	if err != nil {
		return err
	}
	ok := func(uint64, *gdi.BulkVertex) error { return nil }
	edge := func(e gdi.BulkEdge) func(int, int, func(*gdi.BulkEdge) error) error {
		return func(r, s int, emit func(*gdi.BulkEdge) error) error {
			for range 25 { // past the first round, on every rank
				if err := emit(&gdi.BulkEdge{Origin: 0, Target: 1}); err != nil {
					return err
				}
			}
			if r == s-1 {
				return emit(&e)
			}
			return nil
		}
	}
	prop := func(p gdi.PropertyType, v gdi.Value) []gdi.BulkProperty {
		return []gdi.BulkProperty{{Type: p, Value: v}}
	}
	for _, c := range []struct {
		name string
		src  gdi.BulkSource
		want gdi.Code
	}{
		{"Edges and FullEdges", gdi.BulkSource{Edges: func(int, int, func(uint64, uint64, int) error) error { return nil }, FullEdges: edge(gdi.BulkEdge{})}, gdi.ErrArgument},
		{"end out of range", gdi.BulkSource{FullEdges: edge(gdi.BulkEdge{Origin: 0, Target: 9})}, gdi.ErrArgument},
		{"an edge's ID", gdi.BulkSource{FullEdges: edge(gdi.BulkEdge{Origin: 0, Target: 1, Properties: prop(gdi.PropertyTypeID, gdi.Bytes([]byte("e")))})}, gdi.ErrArgument},
		{"two values of a single-entity type", gdi.BulkSource{FullEdges: edge(gdi.BulkEdge{Origin: 1, Target: 0, Labels: []gdi.Label{l}, Properties: append(prop(single, gdi.Int64s(1)), prop(single, gdi.Int64s(2))...)})}, gdi.ErrPropertyTypeExists},
		{"a value of the wrong datatype", gdi.BulkSource{FullEdges: edge(gdi.BulkEdge{Origin: 1, Target: 1, Properties: prop(single, gdi.Chars("x"))})}, gdi.ErrDatatype},
	} {
		c.src.Vertices, c.src.Vertex, c.src.Direction, c.src.RoundEdges = 2, ok, gdi.Undirected, 10
		if err := d.BulkLoad(c.src); gdi.ErrorClass(err) != c.want {
			return fmt.Errorf("FullEdges, %s: BulkLoad returned %v, want %v", c.name, err, c.want)
		}
	}
	return nil
}
