package generator

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/gdi-go/gdi/rma"
)

const (
	edgeChunk   = 1 << 16 // edges per chunk of the writers
	vertexChunk = 1 << 11 // vertices per chunk of the CSV writer
)

// WriteEdges writes edges [lo, hi) to w as text, one "u v" line per edge in
// edge order, generating and formatting in parallel.
func (g *Graph) WriteEdges(w io.Writer, lo, hi uint64, opt WriteOptions) error {
	if lo > hi || hi > g.m {
		return fmt.Errorf("generator: edges [%d, %d) out of [0, %d)", lo, hi, g.m)
	}
	return ordered(lo, hi, edgeChunk, opt.workers(),
		func(lo, hi uint64) []byte {
			buf := make([]byte, 0, (hi-lo)*(2*digits(g.n)+2))
			for i := lo; i < hi; i++ {
				u, v := g.Edge(i)
				buf = strconv.AppendUint(buf, u, 10)
				buf = append(buf, ' ')
				buf = strconv.AppendUint(buf, v, 10)
				buf = append(buf, '\n')
			}
			return buf
		},
		func(lo, hi uint64, buf []byte) error {
			_, err := w.Write(buf)
			opt.progress(hi - lo)
			return err
		})
}

// digits returns the number of decimal digits of n-1.
func digits(n uint64) uint64 { return uint64(len(strconv.FormatUint(n-1, 10))) }

// CSVFile describes one of the files WriteCSV writes.
type CSVFile struct {
	// Name is the file name in the output directory:
	// vertex_<Label>.csv or edge_<label>_<OriginLabel>_<TargetLabel>.csv.
	Name string
	// Edge tells an edge file from a vertex file.
	Edge bool
	// Label is the vertex label (vertex file) or the edge label (edge
	// file): an index into Scheme().VertexLabels or EdgeLabels.
	Label int
	// Origin and Target are the vertex labels of the two ends of the
	// edges of an edge file.
	Origin, Target int
	// Columns are the property types of the columns after the ID of a
	// vertex file, indices into Scheme().Properties.
	Columns []int
}

// CSVFiles returns the files WriteCSV writes, vertex files first. There is
// one vertex file per vertex label, and one edge file per pair of vertex
// labels: ordered pairs for directed graphs, unordered ones (origin label
// not after the target label) for undirected graphs, where the writer puts
// each edge's ends in that order. For undirected graphs with a label per
// unordered pair, as in DefaultScheme, that is one file per edge label.
func (g *Graph) CSVFiles() []CSVFile {
	s := g.scheme
	var fs []CSVFile
	for k, l := range s.VertexLabels {
		f := CSVFile{Name: "vertex_" + l.Name + ".csv", Label: k}
		for _, u := range l.Properties {
			f.Columns = append(f.Columns, u.Property)
		}
		fs = append(fs, f)
	}
	for i := range s.VertexLabels {
		for j := range s.VertexLabels {
			if !g.cfg.Directed && j < i {
				continue
			}
			e := s.EdgeMatrix[i][j]
			fs = append(fs, CSVFile{
				Name: fmt.Sprintf("edge_%s_%s_%s.csv", s.EdgeLabels[e], s.VertexLabels[i].Name, s.VertexLabels[j].Name),
				Edge: true, Label: e, Origin: i, Target: j,
			})
		}
	}
	return fs
}

// header returns the header line of a file, in the style of neo4j-admin
// import.
func (g *Graph) header(f CSVFile) string {
	s := g.scheme
	if f.Edge {
		return fmt.Sprintf(":START_ID(%s),:END_ID(%s)\n", s.VertexLabels[f.Origin].Name, s.VertexLabels[f.Target].Name)
	}
	h := ":ID(" + s.VertexLabels[f.Label].Name + ")"
	for _, p := range f.Columns {
		h += "," + s.Properties[p].Name
		switch s.Properties[p].Kind {
		case Uint32, Uint64:
			h += ":long"
		case Date:
			h += ":date"
		}
	}
	return h + "\n"
}

// WriteCSV writes the graph as CSV files into dir (which must exist):
// those of CSVFiles, each with a header line, fields separated by commas.
// IDs are the vertex numbers in decimal; a gdi.CSVLoader reads them with
// CSVFile.TextIDs (see LoadCSV). Every vertex of a label is in the file of
// the label, in ascending order, with the values of its label's property
// types; an empty field is a property the vertex does not carry, or an
// empty string. Edges are in the file of their end labels, in edge order.
//
// WriteCSV is collective: each rank generates its part of every file (its
// RankSlice of the edges, an equal share of each label's vertices) and the
// ranks append their parts in rank order, so the files do not depend on the
// number of ranks.
func (g *Graph) WriteCSV(c rma.Comm, dir string, opt WriteOptions) error {
	files := g.CSVFiles()
	open := func(flag int) ([]*os.File, error) {
		var fs []*os.File
		for _, f := range files {
			fh, err := os.OpenFile(filepath.Join(dir, f.Name), flag, 0o666)
			if err != nil {
				closeAll(fs)
				return nil, err
			}
			fs = append(fs, fh)
		}
		return fs, nil
	}
	return Sequential(c, func() (err error) {
		flag := os.O_WRONLY | os.O_APPEND
		if c.Rank() == 0 {
			flag = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		}
		fs, err := open(flag)
		if err != nil {
			return err
		}
		defer func() { err = errors.Join(err, closeAll(fs)) }()
		if c.Rank() == 0 {
			for k, f := range files {
				if _, err := io.WriteString(fs[k], g.header(f)); err != nil {
					return err
				}
			}
		}
		for k, f := range files {
			if f.Edge {
				continue
			}
			llo, lhi := g.LabelRange(f.Label)
			lo, hi := Split(lhi-llo, c.Rank(), c.Size())
			if err := g.writeVertices(fs[k], f, llo+lo, llo+hi, opt); err != nil {
				return err
			}
		}
		lo, hi := g.RankSlice(c.Rank(), c.Size())
		return g.writeEdgeFiles(fs, files, lo, hi, opt)
	})
}

func closeAll(fs []*os.File) error {
	var err error
	for _, f := range fs {
		err = errors.Join(err, f.Close())
	}
	return err
}

// writeVertices writes the lines of vertices [lo, hi) of a vertex file.
func (g *Graph) writeVertices(w io.Writer, f CSVFile, lo, hi uint64, opt WriteOptions) error {
	uses := g.scheme.VertexLabels[f.Label].Properties
	return ordered(lo, hi, vertexChunk, opt.workers(),
		func(lo, hi uint64) []byte {
			var buf []byte
			for x := lo; x < hi; x++ {
				buf = strconv.AppendUint(buf, x, 10)
				for _, u := range uses {
					buf = append(buf, ',')
					buf = g.appendText(buf, x, u)
				}
				buf = append(buf, '\n')
			}
			return buf
		},
		func(lo, hi uint64, buf []byte) error {
			_, err := w.Write(buf)
			opt.progress(hi - lo)
			return err
		})
}

// writeEdgeFiles writes edges [lo, hi) into the edge files.
func (g *Graph) writeEdgeFiles(ws []*os.File, files []CSVFile, lo, hi uint64, opt WriteOptions) error {
	n := len(g.scheme.VertexLabels)
	fileOf := make([]int, n*n) // by origin and target label
	for k, f := range files {
		if f.Edge {
			fileOf[f.Origin*n+f.Target] = k
		}
	}
	return ordered(lo, hi, edgeChunk, opt.workers(),
		func(lo, hi uint64) [][]byte {
			bufs := make([][]byte, len(files))
			for i := lo; i < hi; i++ {
				u, v := g.Edge(i)
				a, b := g.VertexLabel(u), g.VertexLabel(v)
				if !g.cfg.Directed && a > b {
					u, v, a, b = v, u, b, a
				}
				k := fileOf[a*n+b]
				buf := strconv.AppendUint(bufs[k], u, 10)
				buf = append(buf, ',')
				buf = strconv.AppendUint(buf, v, 10)
				bufs[k] = append(buf, '\n')
			}
			return bufs
		},
		func(lo, hi uint64, bufs [][]byte) error {
			for k, buf := range bufs {
				if len(buf) > 0 {
					if _, err := ws[k].Write(buf); err != nil {
						return err
					}
				}
			}
			opt.progress(hi - lo)
			return nil
		})
}
