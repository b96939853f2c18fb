package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/launch"
	"github.com/gdi-go/gdi/workload/graphalytics"
	"github.com/gdi-go/gdi/workload/olap"
)

const olapUsage = `usage: gdi olap -algo ALGO -graph PATH/NAME [flags]

Loads the LDBC Graphalytics data set PATH/NAME (NAME.properties, NAME.v,
NAME.e) into a GDI database on N ranks, runs ALGO in a collective read
transaction (package workload/olap) and writes "id value" lines in
Graphalytics format to -o, sorted by vertex id. Unreachable vertices get
9223372036854775807 (bfs, khop) or infinity (sssp). Parameters (sources,
iterations, damping) come from NAME.properties. Progress and timings go
to stderr.

algorithms: bfs khop pr wcc cdlp lcc sssp

flags:
`

// runOlap is the olap subcommand.
func runOlap(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("olap", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, olapUsage)
		fs.PrintDefaults()
	}
	algo := fs.String("algo", "", "algorithm: "+strings.Join(olap.Algorithms, ", "))
	graph := fs.String("graph", "", "data set: PATH/NAME, with PATH/NAME.properties, PATH/NAME.v and PATH/NAME.e")
	ranks := fs.Int("ranks", 1, "number of ranks (local goroutines, or the MPI processes under mpirun)")
	out := fs.String("o", "-", "output file, - for stdout")
	backend := fs.String("backend", defaultBackend, "GDI backend: "+strings.Join(driverNames(), ", "))
	k := fs.Int("k", 2, "khop: number of hops")
	source := fs.String("source", "", "bfs, khop, sssp: source vertex id (default: from NAME.properties)")
	validate := fs.Bool("validate", false, "bfs: check the BFS tree with the Graph500 validation rules")
	loadMode := fs.String("load", "auto", "how to load: csv (bulk loader), tx (transactions) or auto")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	var keep olapKeep
	fs.StringVar(&keep.checkpoint, "checkpoint", "", "gdirma: once the data set is loaded, write a checkpoint of the database to this directory")
	fs.StringVar(&keep.restore, "restore", "", "gdirma: restore the data set from this checkpoint (of gdi olap -checkpoint, on as many ranks) instead of loading it")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if (keep.checkpoint != "" || keep.restore != "") && *backend != "gdirma" {
		return errors.New("-checkpoint and -restore need the gdirma backend")
	}
	if err := checkParsed(fs); err != nil {
		return err
	}
	if !slices.Contains(olap.Algorithms, *algo) {
		return fmt.Errorf("-algo must be one of %s, not %q", strings.Join(olap.Algorithms, ", "), *algo)
	}
	if *graph == "" {
		return errors.New("-graph PATH/NAME is required")
	}
	driver, err := driverByName(*backend)
	if err != nil {
		return err
	}
	mode, ok := map[string]graphalytics.LoadMode{"auto": graphalytics.LoadAuto, "csv": graphalytics.LoadCSV, "tx": graphalytics.LoadTransactions}[*loadMode]
	if !ok {
		return fmt.Errorf("-load must be auto, csv or tx, not %q", *loadMode)
	}
	if *validate && *algo != "bfs" {
		return errors.New("-validate works with -algo bfs only")
	}
	logf := func(format string, a ...any) {
		if !*quiet {
			fmt.Fprintf(stderr, "gdi olap: "+format+"\n", a...)
		}
	}

	start := time.Now()
	dir, name := graphalytics.Split(*graph)
	ds, err := graphalytics.ReadDataset(dir, name)
	if err != nil {
		return err
	}
	params, err := olap.ParamsOf(ds)
	if err != nil {
		return err
	}
	if *algo == "sssp" {
		if params.Source, err = olap.SSSPSource(ds, params); err != nil {
			return err
		}
	}
	if *source != "" {
		if _, err := fmt.Sscan(*source, &params.Source); err != nil {
			return fmt.Errorf("-source %q is not a vertex id", *source)
		}
	}
	params.K = *k
	if *algo == "sssp" && !ds.Weighted {
		return fmt.Errorf("%s has no edge weights, which sssp needs", *graph)
	}
	logf("read %s: %d vertices, %d edges, directed %v (%v)", name, len(ds.Vertices), len(ds.Edges), ds.Directed, time.Since(start).Round(time.Microsecond))

	w := stdout
	var file *os.File
	if *out != "-" {
		if file, err = os.Create(*out); err != nil {
			return err
		}
		w = file
	}
	err = launch.Run(*ranks, func(comm rma.Comm) error {
		return olapRank(comm, driver, ds, mode, keep, *algo, params, *validate, w, logf)
	})
	if file != nil {
		err = errors.Join(err, file.Close())
		if err != nil {
			os.Remove(*out)
		}
	}
	if err == nil {
		logf("total %v", time.Since(start).Round(time.Microsecond))
	}
	return errors.Join(err, launch.Finalize())
}

// olapKeep is where gdi olap keeps a loaded data set (-checkpoint), or
// takes it from (-restore).
type olapKeep struct{ checkpoint, restore string }

// olapRank is the work of one rank: load (or restore), index, a collective
// read transaction with the extraction and the algorithm, then the output.
func olapRank(comm rma.Comm, driver gdi.Driver, ds *graphalytics.Dataset, mode graphalytics.LoadMode, keep olapKeep,
	algo string, p olap.Params, validate bool, w io.Writer, logf func(string, ...any)) error {
	log := func(format string, a ...any) {
		if comm.Rank() == 0 {
			logf(format, a...)
		}
	}
	t := time.Now()
	step := func(what string) {
		log("%s on %d rank(s): %v", what, comm.Size(), time.Since(t).Round(time.Microsecond))
		t = time.Now()
	}
	var dbParams any
	if keep.restore != "" {
		dbParams = &gdirma.Params{Restore: keep.restore}
	}
	db, err := driver.CreateDatabase(comm, dbParams)
	if err != nil {
		return err
	}
	defer db.Free()
	var s graphalytics.Schema
	if keep.restore != "" {
		s, err = graphalytics.FindSchema(db, ds)
	} else {
		s, err = graphalytics.Load(db, comm, ds, mode)
	}
	if err == nil && keep.checkpoint != "" {
		err = db.(*gdirma.Database).Checkpoint(keep.checkpoint)
	}
	if err != nil {
		return err
	}
	idx, err := olap.VertexIndex(db, comm, s.Vertex)
	if err != nil {
		return err
	}
	step("load")

	tx, err := db.StartCollectiveTransaction()
	if err != nil {
		return err
	}
	vals, err := olapQuery(tx, comm, idx, s, algo, p, validate, step)
	if err != nil {
		tx.Abort() // every rank fails together: the olap functions agree on errors
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	lines, err := vals()
	if err != nil {
		return err
	}
	if comm.Rank() == 0 {
		if err := olap.WriteLines(w, lines); err != nil {
			return err
		}
	}
	step("output")
	return nil
}

// olapQuery extracts the graph and runs the algorithm inside tx; the
// returned function gathers the output after the commit.
func olapQuery(tx gdi.Transaction, comm rma.Comm, idx gdi.Index, s graphalytics.Schema, algo string,
	p olap.Params, validate bool, step func(string)) (func() ([]olap.Line, error), error) {
	opts := olap.ExtractOptions{Index: idx}
	if algo == "sssp" {
		opts.Weight = s.Weight
	}
	g, err := olap.Extract(tx, comm, opts)
	if err != nil {
		return nil, err
	}
	step(fmt.Sprintf("extract (%d ghosts on rank 0)", g.NumSlots()-g.NumLocal))
	var vals []string
	if validate {
		res, err := olap.BFS(g, p.Source)
		if err != nil {
			return nil, err
		}
		step("bfs")
		if err := olap.Validate(g, res); err != nil {
			return nil, err
		}
		step("validate (Graph500 rules: passed)")
		for _, l := range res.Level {
			vals = append(vals, fmt.Sprint(l))
		}
	} else {
		if vals, err = olap.Run(g, algo, p); err != nil {
			return nil, err
		}
		step(algo)
	}
	if algo == "khop" {
		count, _, err := olap.KHop(g, p.Source, p.K)
		if err != nil {
			return nil, err
		}
		step(fmt.Sprintf("%d vertices within %d hops of %d", count, p.K, p.Source))
	}
	return func() ([]olap.Line, error) { return olap.Gather(g, vals) }, nil
}
