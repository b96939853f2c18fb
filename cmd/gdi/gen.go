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

	"github.com/gdi-go/gdi/gdirma"
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
  -format load       no output: load the graph straight into a gdirma
                     database on -ranks ranks with its collective bulk
                     loader (gdirma.BulkLoad) and print the rate (edges/s
                     and vertices+edges/s) and the block memory used (bytes
                     per edge and per vertex, against the 16 bytes per
                     edge of a binary edge list); with -checkpoint DIR,
                     then write the database to DIR with
                     gdirma.Database.Checkpoint (restore it with
                     gdirma.Params.Restore, on as many ranks)

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
	format := fs.String("format", "edgelist", "output format: edgelist, csv or load")
	blockSize := fs.Int("blocksize", 0, "gdirma block size in bytes for -format load (0: the default)")
	memory := fs.Int("memory", 0, "gdirma block memory per rank in MiB for -format load (0: estimated from the graph)")
	out := fs.String("o", "-", "output: a directory, or - for stdout (edgelist only)")
	checkpoint := fs.String("checkpoint", "", "for -format load: write a checkpoint of the loaded database to this directory")
	directed := fs.Bool("directed", false, "make the edges directed")
	quiet := fs.Bool("quiet", false, "no progress bar or summary on stderr")
	prof := fs.String("profile", "", "write a cpu or mem profile of the run to the current directory")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := checkParsed(fs); err != nil {
		return err
	}
	stop, err := startProfile(*prof, stderr)
	if err != nil {
		return err
	}
	defer stop()
	if *format != "edgelist" && *format != "csv" && *format != "load" {
		return fmt.Errorf("-format must be edgelist, csv or load, not %q", *format)
	}
	if *checkpoint != "" && *format != "load" {
		return fmt.Errorf("-checkpoint is for -format load")
	}
	if *format == "load" && *out != "-" {
		return fmt.Errorf("-format load writes no files: -o is not for it")
	}
	if *out == "" || (*format == "csv" && *out == "-") {
		return fmt.Errorf("-format %s needs a directory as -o", *format)
	}
	g, err := generator.New(generator.Config{Scale: *scale, EdgeFactor: *edgeFactor, Seed: *seed, Directed: *directed})
	if err != nil {
		return err
	}
	if *format == "load" {
		s := sizing{g.NumVertices(), g.NumEdges(), *ranks, *blockSize, *memory << 20, false}
		if err := checkMemory(params("gdirma", s), *ranks, fmt.Sprintf("-scale %d, -edgefactor %d and -ranks %d", *scale, *edgeFactor, *ranks)); err != nil {
			return err
		}
		return errors.Join(loadGen(g, s, *checkpoint, *quiet, stdout, stderr), launch.Finalize())
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

// loadGen is -format load: it creates a gdirma database on s.ranks ranks,
// bulk-loads g into it and prints the rate and the memory used.
func loadGen(g *generator.Graph, s sizing, checkpoint string, quiet bool, stdout, stderr io.Writer) error {
	start := time.Now()
	return launch.Run(s.ranks, func(c rma.Comm) error {
		say := func(format string, args ...any) {
			if !quiet && c.Rank() == 0 {
				fmt.Fprintf(stderr, "load: "+format+"\n", args...)
			}
		}
		p := params("gdirma", s).(*gdirma.Params)
		say("creating a gdirma database: %d ranks, %d MiB of blocks each", c.Size(), p.MemoryPerRank>>20)
		gdb, err := gdirma.Driver{}.CreateDatabase(c, p)
		if err != nil {
			return err
		}
		db := gdb.(*gdirma.Database)
		m, err := g.Scheme().CreateMetadata(db)
		if err != nil {
			return errors.Join(err, db.Free())
		}
		src := g.BulkSource(m)
		var bar *progressBar
		if !quiet && c.Rank() == 0 {
			// Only rank 0 draws, for its own share of the edges (the
			// ranks share no memory under MPI).
			lo, hi := g.RankSlice(0, c.Size())
			bar = newProgressBar(stderr, "load: routing the edges of rank 0", hi-lo, 0, "edges")
			edges := src.Edges
			src.Edges = func(rank, size int, emit func(u, v uint64, label int) error) error {
				n := uint64(0)
				defer func() { bar.add(n); bar.draw(); bar.line.end() }()
				return edges(rank, size, func(u, v uint64, label int) error {
					if n++; n == 1<<16 {
						bar.add(n)
						n = 0
					}
					return emit(u, v, label)
				})
			}
		}
		say("bulk loading %d vertices and %d edges", g.NumVertices(), g.NumEdges())
		loadStart := time.Now()
		err = db.BulkLoad(src)
		if err == nil {
			err = c.Barrier()
		}
		load, total := time.Since(loadStart), time.Since(start)
		if err == nil && c.Rank() == 0 {
			var ms gdirma.MemoryStats
			if ms, err = db.MemoryStats(); err == nil {
				v, e := float64(g.NumVertices()), float64(g.NumEdges())
				bytes := float64(ms.BlocksInUse) * float64(ms.BlockSize)
				fmt.Fprintf(stdout, "loaded %d vertices and %d edges on %d ranks in %v (%v with database creation)\n",
					g.NumVertices(), g.NumEdges(), c.Size(), load.Round(time.Millisecond), total.Round(time.Millisecond))
				fmt.Fprintf(stdout, "rate: %.2f M edges/s, %.2f M vertices+edges/s (%.2f M edges/s with database creation)\n",
					e/load.Seconds()/1e6, (v+e)/load.Seconds()/1e6, e/total.Seconds()/1e6)
				fmt.Fprintf(stdout, "memory: %d blocks of %d bytes in use = %.1f MiB: %.1f bytes per edge, %.1f bytes per vertex (binary edge list: 16 bytes per edge)\n",
					ms.BlocksInUse, ms.BlockSize, bytes/(1<<20), bytes/max(e, 1), bytes/max(v, 1))
			}
		}
		if err == nil && checkpoint != "" {
			say("writing a checkpoint to %s", checkpoint)
			ckStart := time.Now()
			if err = db.Checkpoint(checkpoint); err == nil && c.Rank() == 0 {
				fmt.Fprintf(stdout, "checkpoint: %s written in %v\n", checkpoint, time.Since(ckStart).Round(time.Millisecond))
			}
		}
		return errors.Join(err, db.Free())
	})
}
