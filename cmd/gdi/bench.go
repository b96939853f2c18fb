package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/generator"
	"github.com/gdi-go/gdi/rma"
	rmacount "github.com/gdi-go/gdi/rma/count"
	"github.com/gdi-go/gdi/rma/launch"
	"github.com/gdi-go/gdi/workload/oltp"
)

// runBench dispatches gdi bench's workloads.
func runBench(args []string, stdout, stderr io.Writer) error {
	switch {
	case len(args) > 0 && args[0] == "oltp":
		return runBenchOLTP(args[1:], stdout, stderr)
	case len(args) > 0 && args[0] == "olap":
		return runBenchOLAP(args[1:], stdout, stderr)
	}
	fmt.Fprint(stderr, benchUsage)
	if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		return flag.ErrHelp
	}
	return errors.New("want oltp or olap")
}

// runBenchOLTP generates a Kronecker graph into a database on every rank
// and runs an OLTP mix on it.
func runBenchOLTP(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench oltp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	workload := fs.String("workload", "lb", "mix: lb, ri, rm or wi")
	scale := fs.Int("scale", 12, "the graph has 2^scale vertices")
	edgefactor := fs.Int("edgefactor", 16, "edges per vertex")
	seed := fs.Uint64("seed", 1, "seed of the graph and the requests")
	ranks := fs.Int("ranks", 2, "number of ranks")
	goroutines := fs.Int("goroutines", 1, "goroutines issuing requests on each rank")
	duration := fs.Duration("duration", 10*time.Second, "how long to run")
	count := fs.Int("count", 0, "operations per rank; overrides -duration if positive")
	zipf := fs.Bool("zipf", false, "draw targets from LinkBench's Zipf distributions instead of uniformly")
	prefetch := fs.Bool("prefetch", true, "hint the IDs of each goroutine's next operation while the current one runs (if the backend takes hints)")
	backendName := fs.String("backend", defaultBackend, "GDI backend: "+strings.Join(driverNames(), ", "))
	blockSize := fs.Int("blocksize", 512, "gdirma: block size in bytes (64 to 4096)")
	memory := fs.Int("memory", 0, "gdirma: block memory per rank in MiB (0: estimated from the graph)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	prof := fs.String("profile", "", "write a cpu or mem profile of the run to the current directory")
	plotFile := fs.String("plot", "", "draw the latency percentiles to this .svg file (checked before the run)")
	logMode := fs.String("log", "off", "gdirma: redo log mode: off, async or sync")
	logDir := fs.String("logdir", "", "gdirma: directory of the redo log and its checkpoints (with -log async or sync)")
	restore := fs.String("restore", "", "gdirma: restore the graph from this checkpoint (gdi gen -format load -checkpoint with the same -scale, -edgefactor and -seed) instead of loading it")
	rmaStats := fs.Bool("rmastats", false, "count the one-sided calls (gets, puts, atomics, flushes, bytes) of each operation type in the timed phase (needs -goroutines 1)")
	usageOf(fs, benchOLTPUsage, stderr)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := checkParsed(fs); err != nil {
		return err
	}
	mode, err := gdirma.ParseLogMode(*logMode)
	if err != nil {
		return err
	}
	if mode != gdirma.LogOff && (*logDir == "" || *backendName != "gdirma") {
		return errors.New("-log async or sync needs -logdir and the gdirma backend")
	}
	if *restore != "" && *backendName != "gdirma" {
		return errors.New("-restore needs the gdirma backend")
	}
	mix, err := oltp.MixByName(*workload)
	if err != nil {
		return err
	}
	driver, err := driverByName(*backendName)
	if err != nil {
		return err
	}
	switch {
	case *rmaStats && *goroutines != 1:
		return errors.New("-rmastats counts the calls of each operation, which needs -goroutines 1")
	case *count == 0 && *duration == 0:
		return errors.New("give a positive -duration or -count")
	}
	if *plotFile != "" {
		if err := checkPlotFile(*plotFile); err != nil {
			return err
		}
	}
	g, err := generator.New(generator.Config{Scale: *scale, EdgeFactor: *edgefactor, Seed: *seed})
	if err != nil {
		return err
	}
	stop, err := startProfile(*prof, stderr)
	if err != nil {
		return err
	}
	defer stop()

	dbParams := params(*backendName, sizing{g.NumVertices(), g.NumEdges(), *ranks, *blockSize, *memory << 20, false})
	if *restore != "" { // the checkpoint has its sizes
		dbParams = &gdirma.Params{Restore: *restore}
	}
	if err := checkMemory(dbParams, *ranks, fmt.Sprintf("-scale %d, -edgefactor %d and -ranks %d", *scale, *edgefactor, *ranks)); err != nil {
		return err
	}
	if p, ok := dbParams.(*gdirma.Params); ok {
		p.Log, p.LogDir = mode, *logDir
	}
	var report *oltp.Report
	err = launch.Run(*ranks, func(c rma.Comm) error {
		var calls func() rmacount.Counts
		if *rmaStats { // every window the database makes counts
			cc := rmacount.Wrap(c)
			c, calls = cc, cc.Counts
		}
		db, err := driver.CreateDatabase(c, dbParams)
		if err != nil {
			return err
		}
		m, _, err := loadGraph(c, db, g, *restore != "", stderr)
		if err != nil {
			return errors.Join(err, db.Free())
		}
		cfg := oltp.Config{Mix: mix, Graph: g, Meta: m, Goroutines: *goroutines, Count: *count,
			Duration: *duration, Zipf: *zipf, Seed: *seed, NoPrefetch: !*prefetch, Calls: calls}
		line := newStatusLine(stderr)
		if c.Rank() == 0 {
			cfg.Progress = benchProgress(line, *count, *duration)
		}
		r, err := oltp.Run(c, db, cfg)
		if c.Rank() == 0 {
			line.end()
			report = r
		}
		return errors.Join(err, db.Free())
	})
	if err := errors.Join(err, launch.Finalize()); err != nil {
		return err
	}
	if report == nil { // under MPI only rank 0's process prints
		return nil
	}
	report.Params.Backend, report.Params.Version, report.Params.Flags = *backendName, versionLine(), flagValues(fs)
	if share := report.NotFoundShare(); share > oltp.NotFoundWarning {
		fmt.Fprintf(stderr, "warning: %.0f%% of the operations found no vertex (deleted, or not added yet): the figures measure misses more than work; a shorter run (-count) or a larger graph (-scale) keeps them down\n", 100*share)
	}
	if *plotFile != "" {
		if err := plotLatencies(report, *plotFile, stderr); err != nil {
			return err
		}
	}
	if *asJSON {
		return report.WriteJSON(stdout)
	}
	fmt.Fprintf(stdout, "graph: scale %d, edge factor %d, %d vertices, %d edges, backend %s (%s ranks)\n",
		*scale, *edgefactor, g.NumVertices(), g.NumEdges(), *backendName, launch.Backend())
	return report.WriteTable(stdout)
}

// benchProgress reports rank 0's operations on stderr, at most four times a
// second.
func benchProgress(line *statusLine, count int, duration time.Duration) func(int64) {
	start := time.Now()
	return func(done int64) {
		if count > 0 {
			line.show(fmt.Sprintf("run: %d/%d operations on rank 0", done, count), false)
			return
		}
		line.show(fmt.Sprintf("run: %v/%v, %d operations on rank 0", time.Since(start).Round(time.Second), duration, done), false)
	}
}
