package csvimport

import (
	"fmt"
	"io"
	"time"

	"github.com/gdi-go/gdi/internal/agree"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
)

// Options are the settings of an import.
type Options struct {
	// Delimiter separates the fields of a line: ',' if 0, or '|' for a
	// file whose header has a '|' and no ','.
	Delimiter byte
	// ArrayDelimiter separates the elements of an array and the labels of
	// a :LABEL field: ';' if 0.
	ArrayDelimiter byte
	// Direction of every edge: gdi.Directed if 0.
	Direction gdi.DirectionType
	// Progress, if set, receives a line at each step.
	Progress io.Writer
	// RoundEdges bounds the edges a rank resolves at once (1<<20 if 0).
	RoundEdges int
}

// Stats are what an import loaded, and how long it took.
type Stats struct {
	Files           int
	Vertices, Edges uint64
	// Parse is the time taken to read the files and resolve the ends of
	// the edges; Load that of BulkLoad.
	Parse, Load time.Duration
}

// Import loads the CSV files of dir (and its subdirectories) into db,
// which must be empty and a gdi.BulkLoader: see the package doc. It is
// collective: every rank calls it with the same dir and options, and
// every rank returns the same class of error. Nothing is loaded if a file
// is malformed.
func Import(c rma.Comm, db gdi.Database, dir string, opt Options) (Stats, error) {
	start := time.Now()
	bl, ok := db.(gdi.BulkLoader)
	if !ok {
		return Stats{}, gdi.Errorf(gdi.ErrArgument, "csvimport: the database cannot load in bulk (no gdi.BulkLoader)")
	}
	im := &importer{c: c, db: db, opt: opt.withDefaults()}
	if err := agree.Errors(c, im.scan(dir)); err != nil {
		return Stats{}, err
	}
	im.progress("%d vertex files, %d edge files", len(im.vfiles), len(im.efiles))
	if err := agree.Errors(c, im.count()); err != nil {
		return Stats{}, err
	}
	if err := agree.Errors(c, im.vertices()); err != nil {
		return Stats{}, err
	}
	im.progress("%d vertices read", im.total)
	if err := agree.Errors(c, im.indexIDs()); err != nil {
		return Stats{}, err
	}
	if err := agree.Errors(c, im.edges()); err != nil {
		return Stats{}, err
	}
	edges, err := im.sum(uint64(len(im.edgeRows)))
	if err != nil {
		return Stats{}, err
	}
	im.progress("%d edges read and resolved", edges)
	if err := agree.Errors(c, im.schema()); err != nil {
		return Stats{}, err
	}
	st := Stats{Files: len(im.vfiles) + len(im.efiles), Vertices: im.total, Edges: edges, Parse: time.Since(start)}
	im.progress("loading")
	if err := bl.BulkLoad(im.source()); err != nil {
		return st, err
	}
	st.Load = time.Since(start) - st.Parse
	return st, nil
}

func (o Options) withDefaults() Options {
	if o.ArrayDelimiter == 0 {
		o.ArrayDelimiter = ';'
	}
	if o.Direction == 0 {
		o.Direction = gdi.Directed
	}
	if o.RoundEdges <= 0 {
		o.RoundEdges = 1 << 20
	}
	return o
}

// importer is a rank's part of an import.
type importer struct {
	c      rma.Comm
	db     gdi.Database
	opt    Options
	vfiles []*file
	efiles []*file
	props  []propName // the property types, by name

	// lines[r][i] is the number of lines of rank r's share of file i, the
	// vertex files first.
	lines [][]int
	// The rank's vertices are numbered from first, in the order of its
	// shares; total is all ranks' count.
	rows         []vertexRow
	first, total uint64
	other        map[[2]int][]vertexRow // other ranks' shares, read when asked
	ids          map[string]uint64      // the vertices whose key hashes to the rank

	edgeRows   []edgeRow
	edgeLabels []string      // the labels of the rank's edges
	edgeProps  [][]propValue // the properties of the rank's edges that have any

	labels map[string]gdi.Label
	ptypes []gdi.PropertyType
}

// vertexRow is a vertex as read: its ID, labels and properties.
type vertexRow struct {
	id     string
	labels []string
	props  []propValue
}

// propValue is a value of property type props[ptype].
type propValue struct {
	ptype int32
	value gdi.Value
}

// edgeRow is an edge as read, its ends resolved to vertex numbers: its
// label, an index into edgeLabels, and its properties, an index into
// edgeProps or -1. It holds no pointer, for the garbage collector's sake:
// a rank holds millions.
type edgeRow struct {
	origin, target uint64
	label, props   int32
}

func (im *importer) progress(format string, args ...any) {
	if im.opt.Progress != nil && im.c.Rank() == 0 {
		fmt.Fprintf(im.opt.Progress, "import: "+format+"\n", args...)
	}
}

// sum returns the sum of x over all ranks.
func (im *importer) sum(x uint64) (uint64, error) {
	buf := []uint64{x}
	if err := im.c.AllreduceUint64(buf, rma.OpSum); err != nil {
		return 0, gdi.Errorf(gdi.ErrIntern, "csvimport: %v", err)
	}
	return buf[0], nil
}
