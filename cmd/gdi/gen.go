package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
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
			bar = newProgressBar(stderr, total(g, *format), offset(g, *format, c.Rank(), c.Size()), unit(*format))
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

// progressBar draws a throttled progress bar on stderr. A nil bar does
// nothing.
type progressBar struct {
	w           io.Writer
	total, done uint64
	unit        string
	start, last time.Time
}

func newProgressBar(w io.Writer, total, offset uint64, unit string) *progressBar {
	now := time.Now()
	return &progressBar{w: w, total: total, done: offset, unit: unit, start: now, last: now}
}

const progressEvery = 250 * time.Millisecond

func (b *progressBar) add(n uint64) {
	if b == nil {
		return
	}
	b.done += n
	if now := time.Now(); now.Sub(b.last) >= progressEvery {
		b.last = now
		b.draw()
	}
}

func (b *progressBar) draw() {
	frac := float64(b.done) / float64(max(b.total, 1))
	const width = 30
	full := int(frac * width)
	fmt.Fprintf(b.w, "\rgen [%s%s] %3.0f%% %d/%d %s", strings.Repeat("#", full), strings.Repeat(".", width-full), 100*frac, b.done, b.total, b.unit)
}

// finish draws the full bar and a summary line after a long run (of all
// ranks: the last rank calls it); short runs stay quiet.
func (b *progressBar) finish(elapsed time.Duration) {
	if b == nil || elapsed < progressEvery {
		return
	}
	b.draw()
	fmt.Fprintln(b.w)
	fmt.Fprintf(b.w, "gen: %d %s in %v (%.1f M/s)\n", b.total, b.unit, elapsed.Round(time.Millisecond), float64(b.total)/elapsed.Seconds()/1e6)
}
