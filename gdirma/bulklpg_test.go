package gdirma_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/launch"
)

// lpg is a small labeled property graph drawn at random: vertices with
// properties of every datatype, edges with no label, one or several, some
// with properties. Labels and property types are indices into the names
// of lpgSchema.
type lpg struct {
	vertices []lpgObject
	edges    []lpgEdge
}

type lpgObject struct {
	labels []int
	props  []lpgProp
}

type lpgProp struct {
	ptype int
	value gdi.Value
}

type lpgEdge struct {
	origin, target uint64
	lpgObject
}

// lpgSchema are the names of the labels and property types of an lpg:
// one property type per datatype, single-entity for odd datatypes.
type lpgSchema struct {
	labels []gdi.Label
	ptypes []gdi.PropertyType
	infos  []gdi.PropertyTypeInfo
}

const lpgLabels = 4

func newLPGSchema(db gdi.Database) (*lpgSchema, error) {
	s := &lpgSchema{}
	for i := range lpgLabels {
		l, err := db.CreateLabel(fmt.Sprint("L", i))
		if err != nil {
			return nil, err
		}
		s.labels = append(s.labels, l)
	}
	for d := gdi.Char; d <= gdi.Byte; d++ {
		info := gdi.PropertyTypeInfo{Name: fmt.Sprint("P", int(d)), Entity: gdi.MultipleEntity, Datatype: d, Size: gdi.NoSizeLimit}
		if d%2 == 1 {
			info.Entity = gdi.SingleEntity
		}
		p, err := db.CreatePropertyType(info)
		if err != nil {
			return nil, err
		}
		s.ptypes, s.infos = append(s.ptypes, p), append(s.infos, info)
	}
	return s, nil
}

// randomLPG draws a graph of n vertices and m edges from seed.
func randomLPG(seed uint64, n, m int) *lpg {
	rng := rand.New(rand.NewPCG(seed, 17))
	g := &lpg{}
	object := func(maxLabels int) lpgObject {
		var o lpgObject
		for l := range lpgLabels {
			if len(o.labels) < maxLabels && rng.IntN(3) == 0 {
				o.labels = append(o.labels, l)
			}
		}
		for d := gdi.Char; d <= gdi.Byte; d++ {
			if rng.IntN(3) != 0 {
				continue
			}
			values := 1
			if d%2 == 0 {
				values += rng.IntN(2)
			}
			for range values {
				v := randomValue(rng, d)
				if !slices.ContainsFunc(o.props, func(p lpgProp) bool { return p.ptype == int(d-gdi.Char) && p.value == v }) {
					o.props = append(o.props, lpgProp{int(d - gdi.Char), v})
				}
			}
		}
		return o
	}
	for range n {
		g.vertices = append(g.vertices, object(3))
	}
	for range m {
		e := lpgEdge{origin: rng.Uint64N(uint64(n)), target: rng.Uint64N(uint64(n))}
		switch rng.IntN(3) {
		case 0: // as Edges would give it: one label at most, no property
			if rng.IntN(2) == 0 {
				e.labels = []int{rng.IntN(lpgLabels)}
			}
		case 1:
			e.lpgObject = object(lpgLabels)
		default:
			e.lpgObject = object(lpgLabels)
			e.props = nil
		}
		g.edges = append(g.edges, e)
	}
	return g
}

// randomValue draws a value of datatype d, of one to three elements.
func randomValue(rng *rand.Rand, d gdi.Datatype) gdi.Value {
	k := 1 + rng.IntN(3)
	switch d {
	case gdi.Char:
		return gdi.Chars(fmt.Sprintf("%x", rng.Uint32())[:k+1])
	case gdi.Byte:
		return gdi.Bytes([]byte{byte(rng.Uint32()), 0, byte(k)})
	case gdi.Bool:
		return gdi.Bools(rng.IntN(2) == 0, true)
	case gdi.Int8:
		return gdi.Int8s(int8(rng.Int32()))
	case gdi.Int16:
		return gdi.Int16s(int16(rng.Int32()), -1)
	case gdi.Int32:
		return gdi.Int32s(rng.Int32())
	case gdi.Int64:
		return gdi.Int64s(rng.Int64(), int64(k))
	case gdi.Uint8:
		return gdi.Uint8s(uint8(rng.Uint32()))
	case gdi.Uint16:
		return gdi.Uint16s(uint16(rng.Uint32()))
	case gdi.Uint32:
		return gdi.Uint32s(rng.Uint32(), 7)
	case gdi.Uint64:
		return gdi.Uint64s(rng.Uint64())
	case gdi.Float:
		return gdi.Floats(rng.Float32(), float32(k))
	case gdi.Double:
		return gdi.Doubles(rng.NormFloat64())
	case gdi.DecimalType:
		x, _ := gdi.ParseDecimal(fmt.Sprintf("%d.%03d", rng.IntN(100000)-50000, rng.IntN(1000)))
		return gdi.Decimals(x)
	case gdi.TimeType:
		x, _ := gdi.NewTime(rng.IntN(24), rng.IntN(60), rng.IntN(60), rng.IntN(1000))
		return gdi.Times(x)
	case gdi.DateType:
		x, _ := gdi.NewDate(1900+rng.IntN(200), 1+rng.IntN(12), 1+rng.IntN(28))
		return gdi.Dates(x)
	case gdi.DatetimeType:
		x, _ := gdi.NewDatetime(1900+rng.IntN(200), 1+rng.IntN(12), 1+rng.IntN(28), rng.IntN(24), rng.IntN(60), rng.IntN(60), rng.IntN(1000), 100*(rng.IntN(25)-12))
		return gdi.Datetimes(x)
	}
	panic(fmt.Sprint("no values of datatype ", d))
}

func lpgID(x uint64) []byte { return fmt.Appendf(nil, "v%d", x) }

// bulkSource describes g for BulkLoad, with FullEdges; each rank emits
// the edges whose index is its rank modulo the ranks.
func (g *lpg) bulkSource(s *lpgSchema, dir gdi.DirectionType) gdi.BulkSource {
	props := func(o lpgObject) []gdi.BulkProperty {
		var out []gdi.BulkProperty
		for _, p := range o.props {
			out = append(out, gdi.BulkProperty{Type: s.ptypes[p.ptype], Value: p.value})
		}
		return out
	}
	labels := func(o lpgObject) []gdi.Label {
		var out []gdi.Label
		for _, l := range o.labels {
			out = append(out, s.labels[l])
		}
		return out
	}
	return gdi.BulkSource{
		Vertices: uint64(len(g.vertices)),
		Vertex: func(x uint64, v *gdi.BulkVertex) error {
			o := g.vertices[x]
			v.ID, v.Labels, v.Properties = lpgID(x), labels(o), props(o)
			return nil
		},
		FullEdges: func(rank, size int, emit func(*gdi.BulkEdge) error) error {
			for i := rank; i < len(g.edges); i += size {
				e := g.edges[i]
				if err := emit(&gdi.BulkEdge{Origin: e.origin, Target: e.target, Labels: labels(e.lpgObject), Properties: props(e.lpgObject)}); err != nil {
					return err
				}
			}
			return nil
		},
		Direction:  dir,
		RoundEdges: 7, // several rounds
	}
}

// insert builds g in db with transactions, from rank 0.
func (g *lpg) insert(db gdi.Database, s *lpgSchema, dir gdi.DirectionType) error {
	fill := func(h interface {
		AddLabel(gdi.Label) error
		AddProperty(gdi.PropertyType, gdi.Value) error
	}, o lpgObject) error {
		for _, l := range o.labels {
			if err := h.AddLabel(s.labels[l]); err != nil {
				return err
			}
		}
		for _, p := range o.props {
			if err := h.AddProperty(s.ptypes[p.ptype], p.value); err != nil {
				return err
			}
		}
		return nil
	}
	return gdirma.InTx(db, func(tx gdi.Transaction) error {
		vs := make([]gdi.VertexHolder, len(g.vertices))
		for x, o := range g.vertices {
			v, err := tx.CreateVertex(lpgID(uint64(x)))
			if err != nil {
				return err
			}
			if err := fill(v, o); err != nil {
				return err
			}
			vs[x] = v
		}
		for _, e := range g.edges {
			h, err := tx.CreateEdge(dir, vs[e.origin], vs[e.target])
			if err != nil {
				return err
			}
			if err := fill(h, e.lpgObject); err != nil {
				return err
			}
		}
		return nil
	})
}

// dump describes the graph db holds, in terms of the vertex numbers of g
// and the indices of s, whatever the UIDs: each vertex's labels and
// properties, and its edges sorted, each with its ends, direction, labels
// and properties.
func (g *lpg) dump(db gdi.Database, s *lpgSchema) (string, error) {
	var out strings.Builder
	err := gdirma.InTx(db, func(tx gdi.Transaction) error {
		of := map[gdi.VertexUID]uint64{}
		vs := make([]gdi.VertexHolder, len(g.vertices))
		for x, o := range g.vertices {
			l := gdi.LabelNone
			if len(o.labels) > 0 {
				l = s.labels[o.labels[0]]
			}
			uid, ok, err := tx.TranslateVertexID(l, lpgID(uint64(x)))
			if err != nil || !ok {
				return errors.Join(err, fmt.Errorf("vertex %d not found", x))
			}
			of[uid] = uint64(x)
			if vs[x], err = tx.AssociateVertex(uid); err != nil {
				return err
			}
		}
		for x, v := range vs {
			desc, err := describe(s, v)
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
				ed, err3 := describe(s, e)
				if err := errors.Join(err1, err2, err3); err != nil {
					return err
				}
				lines = append(lines, fmt.Sprintf("%d-%d %v%s", of[o], of[t], d, ed))
			}
			slices.Sort(lines)
			fmt.Fprintf(&out, "%d:%s | %d edges: %s\n", x, desc, len(lines), strings.Join(lines, ", "))
		}
		return nil
	})
	return out.String(), err
}

// describe lists the labels and properties of h, sorted.
func describe(s *lpgSchema, h interface {
	Labels() ([]gdi.Label, error)
	PropertyTypes() ([]gdi.PropertyType, error)
	Properties(gdi.PropertyType) ([]gdi.Value, error)
}) (string, error) {
	ls, err1 := h.Labels()
	ps, err2 := h.PropertyTypes()
	if err := errors.Join(err1, err2); err != nil {
		return "", err
	}
	var parts []string
	for _, l := range ls {
		parts = append(parts, fmt.Sprint("L", slices.Index(s.labels, l)))
	}
	for _, p := range ps {
		vs, err := h.Properties(p)
		if err != nil {
			return "", err
		}
		var strs []string
		for _, v := range vs {
			strs = append(strs, v.String())
		}
		slices.Sort(strs)
		name := "ID"
		if i := slices.Index(s.ptypes, p); i >= 0 {
			name = s.infos[i].Name
		}
		parts = append(parts, fmt.Sprintf("%s=%v", name, strs))
	}
	slices.Sort(parts)
	return " " + strings.Join(parts, " "), nil
}

// TestBulkLoadFullLPG loads random labeled property graphs with BulkLoad
// (FullEdges) into one database and with transactions into another, on
// 1, 2 and 3 ranks and for both directions, and compares the two through
// GDI: every label, property value (every datatype) and edge.
func TestBulkLoadFullLPG(t *testing.T) {
	for _, ranks := range []int{1, 2, 3} {
		for _, dir := range []gdi.DirectionType{gdi.Directed, gdi.Undirected} {
			t.Run(fmt.Sprintf("ranks=%d/%v", ranks, dir), func(t *testing.T) {
				g := randomLPG(uint64(ranks)*10+uint64(dir), 40, 120)
				err := launch.Run(ranks, func(c rma.Comm) error {
					p := gdirma.Params{MemoryPerRank: 2 << 20, BlockSize: 128}
					a, err1 := gdirma.Driver{}.CreateDatabase(c, p)
					b, err2 := gdirma.Driver{}.CreateDatabase(c, p)
					if err := errors.Join(err1, err2); err != nil {
						return err
					}
					defer a.Free()
					defer b.Free()
					sa, err1 := newLPGSchema(a)
					sb, err2 := newLPGSchema(b)
					if err := errors.Join(err1, err2); err != nil {
						return err
					}
					if err := a.(gdi.BulkLoader).BulkLoad(g.bulkSource(sa, dir)); err != nil {
						return fmt.Errorf("BulkLoad: %w", err)
					}
					var err error
					if c.Rank() == 0 {
						err = g.insert(b, sb, dir)
					}
					if err := errors.Join(err, c.Barrier()); err != nil {
						return fmt.Errorf("insert: %w", err)
					}
					if c.Rank() != ranks-1 {
						return c.Barrier()
					}
					da, err1 := g.dump(a, sa)
					db, err2 := g.dump(b, sb)
					if err := errors.Join(err1, err2); err != nil {
						return errors.Join(err, c.Barrier())
					}
					if da != db {
						err = firstDifference(da, db)
					}
					if err == nil {
						err = errors.Join(a.(*gdirma.Database).CheckHolders(), a.(*gdirma.Database).CheckImplicitIndex())
					}
					return errors.Join(err, c.Barrier())
				})
				if errors.Is(err, rma.ErrRanks) {
					t.Skip(err) // under mpirun with fewer processes
				}
				if err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

// firstDifference names the first line where the dumps bulk and insert
// differ.
func firstDifference(bulk, insert string) error {
	lb, li := strings.Split(bulk, "\n"), strings.Split(insert, "\n")
	for i := range min(len(lb), len(li)) {
		if lb[i] != li[i] {
			return fmt.Errorf("the graphs differ:\nbulk:   %s\ninsert: %s", lb[i], li[i])
		}
	}
	return fmt.Errorf("the graphs differ: %d lines against %d", len(lb), len(li))
}
