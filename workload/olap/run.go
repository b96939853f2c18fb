package olap

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/workload/graphalytics"
)

// Algorithms that Run knows, as the -algo flag of gdi olap names them.
var Algorithms = []string{"bfs", "khop", "pr", "wcc", "cdlp", "lcc", "sssp"}

// Params are the parameters of the algorithms.
type Params struct {
	Source        uint64  // BFS, k-hop and SSSP source (application-level ID)
	K             int     // k-hop depth
	Damping       float64 // PageRank damping factor
	Iterations    int     // PageRank iterations
	MaxIterations int     // CDLP iterations
}

// ParamsOf reads the parameters of a Graphalytics data set. Missing ones
// get defaults (source: the first vertex; K 2; PageRank 0.85 and 10
// iterations; CDLP 10 iterations).
func ParamsOf(d *graphalytics.Dataset) (Params, error) {
	p := Params{K: 2}
	var first uint64
	if len(d.Vertices) > 0 {
		first = d.Vertices[0]
	}
	var errs [5]error
	var it, cd uint64
	p.Source, errs[0] = d.PropUint("bfs.source-vertex", first)
	p.Damping, errs[1] = d.PropFloat("pr.damping-factor", 0.85)
	it, errs[2] = d.PropUint("pr.num-iterations", 10)
	cd, errs[3] = d.PropUint("cdlp.max-iterations", 10)
	for _, err := range errs {
		if err != nil {
			return p, err
		}
	}
	p.Iterations, p.MaxIterations = int(min(it, 1<<30)), int(min(cd, 1<<30))
	return p, nil
}

// SSSPSource is the SSSP source of a data set (sssp.source-vertex, else the
// BFS source).
func SSSPSource(d *graphalytics.Dataset, p Params) (uint64, error) {
	return d.PropUint("sssp.source-vertex", p.Source)
}

// Run runs algorithm algo (one of Algorithms) on g and returns the value
// of every local vertex in Graphalytics output format. For khop it is the
// depth of the vertices within K hops and Unreached for the others. It is
// collective.
func Run(g *Graph, algo string, p Params) ([]string, error) {
	out := make([]string, g.NumLocal)
	switch algo {
	case "bfs", "khop":
		depth := int64(math.MaxInt64)
		if algo == "khop" {
			if p.K < 0 {
				return nil, fmt.Errorf("olap: k-hop with k = %d", p.K)
			}
			depth = int64(p.K)
		}
		res, err := bfs(g, p.Source, depth)
		if err != nil {
			return nil, err
		}
		for i, l := range res.Level {
			out[i] = strconv.FormatInt(l, 10)
		}
	case "pr":
		pr, err := PageRank(g, p.Damping, p.Iterations)
		if err != nil {
			return nil, err
		}
		for i, x := range pr {
			out[i] = formatReal(x)
		}
	case "wcc", "cdlp":
		var labels []uint64
		var err error
		if algo == "wcc" {
			labels, err = WCC(g)
		} else {
			labels, err = CDLP(g, p.MaxIterations)
		}
		if err != nil {
			return nil, err
		}
		for i, l := range labels {
			out[i] = strconv.FormatUint(l, 10)
		}
	case "lcc":
		lcc, err := LCC(g)
		if err != nil {
			return nil, err
		}
		for i, x := range lcc {
			out[i] = formatReal(x)
		}
	case "sssp":
		dist, err := SSSP(g, p.Source)
		if err != nil {
			return nil, err
		}
		for i, x := range dist {
			out[i] = formatReal(x)
		}
	default:
		return nil, fmt.Errorf("olap: unknown algorithm %q (want one of %s)", algo, strings.Join(Algorithms, ", "))
	}
	return out, nil
}

// formatReal writes a double as Graphalytics does: %.15e, infinity for
// +Inf.
func formatReal(x float64) string {
	if math.IsInf(x, 1) {
		return "infinity"
	}
	return strconv.FormatFloat(x, 'e', 15, 64)
}

// Line is a line of output.
type Line struct {
	ID    uint64
	Value string
}

// Gather collects the values of all ranks on rank 0, sorted by vertex id
// (other ranks get nil). vals has one entry per local vertex. It is
// collective (one Alltoallv).
func Gather(g *Graph, vals []string) ([]Line, error) {
	if len(vals) != g.NumLocal {
		return nil, fmt.Errorf("olap: Gather of %d values on %d vertices", len(vals), g.NumLocal)
	}
	send := make([][]byte, g.comm.Size())
	var b []byte
	for i, v := range vals {
		b = strconv.AppendUint(b, g.ID[i], 10)
		b = append(b, ' ')
		b = append(b, v...)
		b = append(b, '\n')
	}
	send[0] = b
	got, err := g.comm.Alltoallv(send)
	if err != nil || g.comm.Rank() != 0 {
		return nil, err
	}
	var lines []Line
	for _, b := range got {
		for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
			if l == "" {
				continue
			}
			id, v, _ := strings.Cut(l, " ")
			x, _ := strconv.ParseUint(id, 10, 64)
			lines = append(lines, Line{x, v})
		}
	}
	slices.SortFunc(lines, func(a, b Line) int { return cmpU64(a.ID, b.ID) })
	return lines, nil
}

// WriteLines writes lines as "id value" lines.
func WriteLines(w io.Writer, lines []Line) error {
	bw := bufio.NewWriter(w)
	for _, l := range lines {
		fmt.Fprintf(bw, "%d %s\n", l.ID, l.Value)
	}
	return bw.Flush()
}

// VertexIndex creates an index over label l, the index from which every
// rank finds its local vertices. It is collective, ends with a barrier,
// and needs a quiet database.
func VertexIndex(db gdi.Database, comm rma.Comm, l gdi.Label) (gdi.Index, error) {
	idx, err := db.CreateIndex(gdi.HashTableIndex, 0)
	if err != nil {
		return nil, fmt.Errorf("olap: create index: %w", err)
	}
	if err := idx.AddLabel(l); err != nil {
		return nil, fmt.Errorf("olap: index label: %w", err)
	}
	return idx, comm.Barrier()
}

// ExtractGraph extracts the graph in a collective read transaction of its
// own (StartCollectiveTransaction, Extract, Commit). It is collective.
func ExtractGraph(db gdi.Database, comm rma.Comm, opts ExtractOptions) (*Graph, error) {
	tx, err := db.StartCollectiveTransaction()
	if err != nil {
		return nil, fmt.Errorf("olap: start collective transaction: %w", err)
	}
	g, err := Extract(tx, comm, opts)
	if err != nil {
		tx.Abort()
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("olap: commit: %w", err)
	}
	return g, nil
}
