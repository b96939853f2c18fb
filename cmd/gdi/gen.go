package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/gdi-go/gdi/generator"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/launch"
)

const genUsage = `usage: gdi gen [flags]

Generates a Graph500 Kronecker graph (2^scale vertices, edgefactor·2^scale
edges, A=0.57 B=0.19 C=0.19 D=0.05, scrambled vertex numbers) with the
labels and properties of the GDI-RMA evaluation scheme. The output is the
same for any number of ranks.

  -format edgelist   one "u v" line per edge, in edge order, to -o
                     (a directory gets edgelist.txt; - is stdout)
  -format csv        neo4j-import-style CSV files with a header line, one
                     per vertex label and per edge label, into the
                     directory -o; load them with gdi.CSVLoader and
                     CSVFile.TextIDs (see generator.LoadCSV)

flags:
`

// runGen is the gen subcommand.
func runGen(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, genUsage)
		fs.PrintDefaults()
	}
	scale := fs.Int("scale", 16, "base-2 logarithm of the number of vertices")
	edgeFactor := fs.Int("edgefactor", 16, "edges per vertex")
	seed := fs.Uint64("seed", 1, "seed of the graph")
	ranks := fs.Int("ranks", 1, "number of ranks generating in parallel (local goroutines, or the MPI processes under mpirun)")
	format := fs.String("format", "edgelist", "output format: edgelist or csv")
	out := fs.String("o", "-", "output: a directory, or - for stdout (edgelist only)")
	directed := fs.Bool("directed", false, "make the edges directed")
	quiet := fs.Bool("quiet", false, "no progress bar or summary on stderr")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *ranks < 1 {
		return fmt.Errorf("-ranks must be positive, not %d", *ranks)
	}
	if *format != "edgelist" && *format != "csv" {
		return fmt.Errorf("-format must be edgelist or csv, not %q", *format)
	}
	if *out == "" || (*format == "csv" && *out == "-") {
		return fmt.Errorf("-format %s needs a directory as -o", *format)
	}
	g, err := generator.New(generator.Config{Scale: *scale, EdgeFactor: *edgeFactor, Seed: *seed, Directed: *directed})
	if err != nil {
		return err
	}
	if *out != "-" {
		if err := os.MkdirAll(*out, 0o777); err != nil {
			return err
		}
	}
	start := time.Now()
	err = launch.Run(*ranks, func(c rma.Comm) error {
		var bar *progressBar
		if !*quiet {
			bar = newProgressBar(stderr, "gen", total(g, *format), offset(g, *format, c.Rank(), c.Size()), unit(*format))
		}
		var err error
		if *format == "csv" {
			err = g.WriteCSV(c, *out, generator.WriteOptions{Progress: bar.add})
		} else {
			err = writeEdgeList(c, g, *out, stdout, bar)
		}
		if err == nil && !*quiet && c.Rank() == c.Size()-1 {
			bar.finish(time.Since(start))
		}
		return err
	})
	return errors.Join(err, launch.Finalize())
}

func unit(format string) string {
	if format == "csv" {
		return "vertices+edges"
	}
	return "edges"
}

// total is the work of a run: edges, plus vertices for CSV.
func total(g *generator.Graph, format string) uint64 {
	if format == "csv" {
		return g.NumVertices() + g.NumEdges()
	}
	return g.NumEdges()
}

// offset is the work of the ranks before rank, which write first.
func offset(g *generator.Graph, format string, rank, size int) uint64 {
	lo, _ := g.RankSlice(rank, size)
	if format == "csv" {
		for k := range g.Scheme().VertexLabels {
			llo, lhi := g.LabelRange(k)
			vlo, _ := generator.Split(lhi-llo, rank, size)
			lo += vlo
		}
	}
	return lo
}

// writeEdgeList writes the edge list, the ranks one after the other, to
// stdout or to DIR/edgelist.txt.
func writeEdgeList(c rma.Comm, g *generator.Graph, out string, stdout io.Writer, bar *progressBar) error {
	lo, hi := g.RankSlice(c.Rank(), c.Size())
	return generator.Sequential(c, func() (err error) {
		w := stdout
		if out != "-" {
			flag := os.O_WRONLY | os.O_APPEND
			if c.Rank() == 0 {
				flag = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
			}
			f, err := os.OpenFile(filepath.Join(out, "edgelist.txt"), flag, 0o666)
			if err != nil {
				return err
			}
			defer func() { err = errors.Join(err, f.Close()) }()
			w = f
		}
		bw := bufio.NewWriterSize(w, 1<<20)
		if err := g.WriteEdges(bw, lo, hi, generator.WriteOptions{Progress: bar.add}); err != nil {
			return err
		}
		return bw.Flush()
	})
}
