package graphalytics

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdiutil"
	"github.com/gdi-go/gdi/rma"
)

// Schema names the metadata a loaded data set uses.
type Schema struct {
	// Vertex is the label of every vertex.
	Vertex gdi.Label
	// Weight is the Double property of edge weights, PropertyTypeNull if
	// the data set has none.
	Weight gdi.PropertyType
}

// Names of the metadata Load creates.
const (
	VertexLabel    = "Vertex"
	WeightProperty = "weight"
)

// FindSchema returns the schema of data set d in db, which Load filled
// before (a database restored from a checkpoint of it): ErrArgument if
// the label or the weights are missing.
func FindSchema(db gdi.Database, d *Dataset) (Schema, error) {
	var s Schema
	var err error
	if s.Vertex, err = db.LabelFromName(VertexLabel); err == nil && s.Vertex == gdi.LabelNull {
		err = gdi.Errorf(gdi.ErrArgument, "graphalytics: the database has no label %q: not a loaded data set", VertexLabel)
	}
	if err == nil && d.Weighted {
		if s.Weight, err = db.PropertyTypeFromName(WeightProperty); err == nil && s.Weight == gdi.PropertyTypeNull {
			err = gdi.Errorf(gdi.ErrArgument, "graphalytics: the database has no edge weights (%q)", WeightProperty)
		}
	}
	return s, err
}

// LoadMode selects how Load stores the graph.
type LoadMode int

// Load modes.
const (
	// LoadAuto uses the CSV loader when the database has one and the data
	// set has files, transactions otherwise.
	LoadAuto LoadMode = iota
	// LoadCSV requires the CSV loader.
	LoadCSV
	// LoadTransactions creates vertices and edges in single-process
	// transactions.
	LoadTransactions
)

// Load creates the schema and stores d in db. It is collective: every rank
// calls it with the same data set; comm is the communicator of db. It ends
// with a barrier, after which the graph is committed on every rank.
func Load(db gdi.Database, comm rma.Comm, d *Dataset, mode LoadMode) (Schema, error) {
	var s Schema
	var err error
	if s.Vertex, err = db.CreateLabel(VertexLabel); err != nil {
		return s, fmt.Errorf("graphalytics: create label: %w", err)
	}
	if d.Weighted {
		s.Weight, err = db.CreatePropertyType(gdi.PropertyTypeInfo{Name: WeightProperty, Entity: gdi.SingleEntity, Datatype: gdi.Double, Size: gdi.FixedSize, Count: 1})
		if err != nil {
			return s, fmt.Errorf("graphalytics: create property type: %w", err)
		}
	}
	if err := comm.Barrier(); err != nil { // metadata known everywhere
		return s, err
	}
	loader, hasCSV := db.(gdi.CSVLoader)
	switch {
	case mode == LoadCSV && !hasCSV:
		return s, errors.New("graphalytics: the backend has no CSV loader")
	case mode == LoadCSV && d.VertexFile == "":
		return s, errors.New("graphalytics: the data set has no files to bulk load")
	case mode != LoadTransactions && hasCSV && d.VertexFile != "":
		err = loadCSV(loader, d, s)
	default:
		err = loadTx(db, comm, d, s)
	}
	if err != nil {
		return s, err
	}
	return s, comm.Barrier()
}

func (d *Dataset) direction() gdi.DirectionType {
	if d.Directed {
		return gdi.Directed
	}
	return gdi.Undirected
}

func loadCSV(l gdi.CSVLoader, d *Dataset, s Schema) error {
	file := func(path string, sort gdi.SortType) gdi.CSVFile {
		return gdi.CSVFile{Path: path, FieldDelimiter: ' ', ElementDelimiter: ',', Sort: sort, TextIDs: true}
	}
	if err := l.LoadVertexCSV(gdi.VertexCSV{CSVFile: file(d.VertexFile, gdi.NoSorting), Labels: []gdi.Label{s.Vertex}}); err != nil {
		return fmt.Errorf("graphalytics: load %s: %w", d.VertexFile, err)
	}
	req := gdi.EdgeCSV{CSVFile: file(d.EdgeFile, gdi.NoSorting), Direction: d.direction(), OriginLabel: s.Vertex, TargetLabel: s.Vertex}
	if d.Weighted {
		req.PropertyTypes = []gdi.PropertyType{s.Weight}
	}
	if err := l.LoadEdgeCSV(req); err != nil {
		return fmt.Errorf("graphalytics: load %s: %w", d.EdgeFile, err)
	}
	return nil
}

// batch is the number of objects created per transaction.
const batch = 256

// AppID is the application-level ID of a Graphalytics vertex.
func AppID(v uint64) []byte { return strconv.AppendUint(nil, v, 10) }

func loadTx(db gdi.Database, comm rma.Comm, d *Dataset, s Schema) error {
	r, p := comm.Rank(), comm.Size()
	var mine []uint64
	for i, v := range d.Vertices {
		if i%p == r {
			mine = append(mine, v)
		}
	}
	var local error
	for lo := 0; lo < len(mine) && local == nil; lo += batch {
		chunk := mine[lo:min(lo+batch, len(mine))]
		local = gdiutil.RunTransaction(context.Background(), db, func(tx gdi.Transaction) error {
			for _, v := range chunk {
				h, err := tx.CreateVertex(AppID(v))
				if err != nil {
					return err
				}
				if err := h.AddLabel(s.Vertex); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if err := rma.Agree(comm, local); err != nil {
		return fmt.Errorf("graphalytics: create vertices: %w", err)
	}
	// Edges touch two vertices each; the ranks take turns so that their
	// transactions do not conflict.
	for turn := 0; turn < p; turn++ {
		if turn == r && local == nil {
			for lo := r * batch; lo < len(d.Edges) && local == nil; lo += p * batch {
				chunk := d.Edges[lo:min(lo+batch, len(d.Edges))]
				local = gdiutil.RunTransaction(context.Background(), db, func(tx gdi.Transaction) error { return createEdges(tx, d, s, chunk) })
			}
		}
		if err := comm.Barrier(); err != nil {
			return err
		}
	}
	if err := rma.Agree(comm, local); err != nil {
		return fmt.Errorf("graphalytics: create edges: %w", err)
	}
	return nil
}

func createEdges(tx gdi.Transaction, d *Dataset, s Schema, es []Edge) error {
	find := func(v uint64) (gdi.VertexHolder, error) {
		uid, ok, err := tx.TranslateVertexID(s.Vertex, AppID(v))
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("vertex %d not found", v)
		}
		return tx.AssociateVertex(uid)
	}
	for _, e := range es {
		o, err := find(e.Src)
		if err != nil {
			return err
		}
		t, err := find(e.Dst)
		if err != nil {
			return err
		}
		h, err := tx.CreateEdge(d.direction(), o, t)
		if err != nil {
			return err
		}
		if d.Weighted {
			if err := h.AddProperty(s.Weight, gdi.Doubles(e.W)); err != nil {
				return err
			}
		}
	}
	return nil
}
