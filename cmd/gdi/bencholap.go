package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/generator"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/launch"
	"github.com/gdi-go/gdi/workload/olap"
)

// benchOLAPAlgos are the algorithms gdi bench olap runs: those that need no
// edge weights, which generated graphs do not have.
var benchOLAPAlgos = []string{"bfs", "khop", "pr", "wcc", "cdlp", "lcc", "gnn"}

// olapFigures are the results of gdi bench olap.
type olapFigures struct {
	Algo       string        `json:"algo"`
	Scale      int           `json:"scale"`
	EdgeFactor int           `json:"edgefactor"`
	Ranks      int           `json:"ranks"`
	Backend    string        `json:"backend"`
	Load       time.Duration `json:"load_ns"`
	// Query is the end-to-end time of the query: from the start of the
	// collective transaction to the answer on every rank. Its parts are
	// Extract (the transaction, reading the graph from the database, and
	// building the CSR) and Run (the algorithm on the CSR).
	Query   time.Duration `json:"query_ns"`
	Extract time.Duration `json:"extract_ns"`
	Run     time.Duration `json:"run_ns"`
	// PerIteration is Run divided by the iterations, for PageRank.
	PerIteration time.Duration `json:"per_iteration_ns,omitempty"`
	// Baseline is the same algorithm on a plain CSR in one process;
	// Ratio is Run (the algorithm alone, not Query) over Baseline.
	Baseline time.Duration `json:"baseline_ns,omitempty"`
	Ratio    float64       `json:"ratio,omitempty"`
	// Rounds are the times of the algorithm's synchronous rounds
	// (iterations, BFS levels) on rank 0.
	Rounds []time.Duration `json:"round_ns"`
	// Graph500 are the figures of -roots.
	Graph500 *graph500Figures `json:"graph500,omitempty"`
	// PeakRSS is the largest resident size of the process (of rank 0's
	// under MPI) over the run, load and baseline included; 0 where it
	// cannot be read.
	PeakRSS int64 `json:"peak_rss_bytes"`
}

// runBenchOLAP generates a Kronecker graph into a database, extracts it on
// every rank, and times an algorithm, optionally next to a plain CSR.
func runBenchOLAP(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench olap", flag.ContinueOnError)
	fs.SetOutput(stderr)
	algo := fs.String("algo", "bfs", "algorithm: "+strings.Join(benchOLAPAlgos, ", "))
	scale := fs.Int("scale", 12, "the graph has 2^scale vertices")
	edgefactor := fs.Int("edgefactor", 16, "edges per vertex")
	seed := fs.Uint64("seed", 1, "seed of the graph")
	ranks := fs.Int("ranks", 2, "number of ranks")
	iterations := fs.Int("iterations", 10, "pr: iterations; cdlp: maximum iterations")
	k := fs.Int("k", 3, "khop: number of hops")
	backendName := fs.String("backend", defaultBackend, "GDI backend: "+strings.Join(driverNames(), ", "))
	blockSize := fs.Int("blocksize", 512, "gdirma: block size in bytes (64 to 4096)")
	memory := fs.Int("memory", 0, "gdirma: block memory per rank in MiB (0: estimated from the graph)")
	baseline := fs.String("baseline", "", "csr: also run the algorithm on a plain CSR outside the database (bfs, pr, wcc)")
	asJSON := fs.Bool("json", false, "print the figures as JSON")
	prof := fs.String("profile", "", "write a cpu or mem profile of the run to the current directory")
	roots := fs.Int("roots", 0, "bfs: run this many searches from random roots of degree > 0 and report them as Graph500 does (TEPS)")
	validate := fs.Bool("validate", false, "with -roots: check every search with the five Graph500 rules")
	noScan := fs.Bool("noscan", false, "extract vertex by vertex even where the backend can scan its storage (gdi.AdjacencyScanner), to compare")
	plotFile := fs.String("plot", "", "draw the time of every round (iteration) to this .svg, .png or .pdf file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	driver, err := driverByName(*backendName)
	if err != nil {
		return err
	}
	switch {
	case !slices.Contains(benchOLAPAlgos, *algo):
		return fmt.Errorf("-algo must be one of %s, not %q", strings.Join(benchOLAPAlgos, ", "), *algo)
	case *scale < 1 || *scale > 32:
		return fmt.Errorf("-scale must be in [1, 32], not %d", *scale)
	case *edgefactor < 1 || *ranks < 1 || *iterations < 1 || *k < 0:
		return errors.New("-edgefactor, -ranks and -iterations must be positive, -k not negative")
	case *baseline != "" && *baseline != "csr":
		return fmt.Errorf("-baseline must be csr, not %q", *baseline)
	case *baseline == "csr" && !slices.Contains([]string{"bfs", "pr", "wcc"}, *algo):
		return fmt.Errorf("-baseline csr is there for bfs, pr and wcc, not %s", *algo)
	case *roots < 0 || *roots > 0 && *algo != "bfs":
		return fmt.Errorf("-roots is a number of BFS searches (-algo bfs), not %d with %s", *roots, *algo)
	case *validate && *roots == 0:
		return errors.New("-validate checks the searches of -roots")
	}
	if *plotFile != "" {
		if err := checkPlotFile(*plotFile); err != nil {
			return err
		}
	}
	stop, err := startProfile(*prof)
	if err != nil {
		return err
	}
	defer stop()
	g, err := generator.New(generator.Config{Scale: *scale, EdgeFactor: *edgefactor, Seed: *seed})
	if err != nil {
		return err
	}
	// The BFS and k-hop source: the Kronecker vertex of highest expected
	// degree, which is in the giant component.
	root := g.Scramble(0)
	p := olap.Params{Source: root, K: *k, Damping: 0.85, Iterations: *iterations, MaxIterations: *iterations}
	fig := &olapFigures{Algo: *algo, Scale: *scale, EdgeFactor: *edgefactor, Ranks: *ranks, Backend: *backendName}

	var csr *olap.CSR
	var levels []int32 // the baseline's BFS levels, to check the database's
	if *baseline == "csr" {
		if csr, err = olap.BuildCSR(int(g.NumVertices()), g.Config().Directed, func(fn func(u, v uint64)) {
			g.EdgesRange(0, g.NumEdges(), func(_, u, v uint64) { fn(u, v) })
		}); err != nil {
			return err
		}
		start := time.Now()
		switch *algo {
		case "bfs":
			levels = csr.BFS(int(root))
		case "pr":
			csr.PageRank(p.Damping, p.Iterations)
		case "wcc":
			csr.WCC()
		}
		fig.Baseline = time.Since(start)
	}

	dbParams := params(*backendName, sizing{g.NumVertices(), g.NumEdges(), *ranks, *blockSize, *memory << 20})
	err = launch.Run(*ranks, func(c rma.Comm) error {
		opts := olapRankOptions{noScan: *noScan, roots: *roots, seed: *seed, validate: *validate}
		return benchOLAPRank(c, driver, dbParams, g, *algo, p, levels, fig, opts, stderr)
	})
	if err := errors.Join(err, launch.Finalize()); err != nil {
		return err
	}
	if fig.Run == 0 && fig.Extract == 0 { // under MPI only rank 0's process prints
		return nil
	}
	header := fmt.Sprintf("graph: scale %d, edge factor %d, %d vertices, %d edges, backend %s on %d ranks (%s)",
		*scale, *edgefactor, g.NumVertices(), g.NumEdges(), *backendName, *ranks, launch.Backend())
	return reportOLAP(stdout, fig, p.Iterations, *asJSON, *plotFile, header)
}

// reportOLAP completes fig (per iteration, ratio, peak resident size) and
// writes it: as JSON, or for people under header; and plots its rounds.
func reportOLAP(stdout io.Writer, fig *olapFigures, iterations int, asJSON bool, plotFile, header string) error {
	if fig.Algo == "pr" {
		fig.PerIteration = fig.Run / time.Duration(iterations)
	}
	if fig.Baseline > 0 {
		fig.Ratio = float64(fig.Run) / float64(fig.Baseline)
	}
	if plotFile != "" {
		if err := plotRounds(fig, plotFile); err != nil {
			return err
		}
	}
	fig.PeakRSS = peakRSS()
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(fig)
	}
	fmt.Fprintln(stdout, header)
	printOLAP(stdout, fig)
	if fig.Graph500 != nil {
		printGraph500(stdout, fig.Graph500)
	}
	return nil
}

// benchOLAPRank is the work of one rank: load, index, extract, run. Rank 0
// fills fig.
// olapRankOptions are the flags benchOLAPRank follows.
type olapRankOptions struct {
	noScan, validate bool
	roots            int
	seed             uint64
}

func benchOLAPRank(c rma.Comm, driver gdi.Driver, dbParams any, g *generator.Graph, algo string, p olap.Params, levels []int32, fig *olapFigures, opts olapRankOptions, stderr io.Writer) error {
	db, err := driver.CreateDatabase(c, dbParams)
	if err != nil {
		return err
	}
	defer db.Free()
	m, load, err := loadGraph(c, db, g, stderr)
	if err != nil {
		return err
	}
	idx, err := db.CreateIndex(gdi.HashTableIndex, 0)
	if err != nil {
		return err
	}
	if err := idx.AddLabelsAndPropertyTypes(m.VertexLabels, nil); err != nil {
		return err
	}
	if err := c.Barrier(); err != nil {
		return err
	}
	if algo == "gnn" {
		return benchGNN(c, db, idx, load, fig)
	}
	queryStart := time.Now()
	start := queryStart
	og, err := olap.ExtractGraph(db, c, olap.ExtractOptions{Index: idx, NoScan: opts.noScan})
	if err != nil {
		return err
	}
	extract := time.Since(start)
	if err := c.Barrier(); err != nil {
		return err
	}
	if opts.roots > 0 {
		g5, err := graph500(c, og, opts.roots, opts.seed, opts.validate, extract)
		if err != nil {
			return err
		}
		if c.Rank() == 0 {
			fig.Graph500 = g5
		}
	}
	start = time.Now()
	var rounds []time.Duration
	if c.Rank() == 0 {
		last := start
		og.OnRound = func() {
			now := time.Now()
			rounds = append(rounds, now.Sub(last))
			last = now
		}
	}
	var res *olap.BFSResult
	if algo == "bfs" {
		res, err = olap.BFS(og, p.Source)
	} else {
		_, err = olap.Run(og, algo, p)
	}
	if err != nil {
		return err
	}
	if err := c.Barrier(); err != nil {
		return err
	}
	run, query := time.Since(start), time.Since(queryStart)
	if res != nil && levels != nil {
		for i, l := range res.Level[:og.NumLocal] {
			want := int64(levels[og.ID[i]])
			if want < 0 {
				want = olap.Unreached
			}
			if l != want {
				return fmt.Errorf("bfs: vertex %d at depth %d in the database, %d in the plain CSR", og.ID[i], l, want)
			}
		}
	}
	if c.Rank() == 0 {
		fig.Load, fig.Query, fig.Extract, fig.Run, fig.Rounds = load, query, extract, run, rounds
	}
	return idx.Free()
}

// printOLAP writes fig for people: what each time covers.
func printOLAP(stdout io.Writer, fig *olapFigures) {
	fmt.Fprintf(stdout, "load %v (not part of the query); peak resident size %.1f MiB\n", fig.Load.Round(time.Millisecond), float64(fig.PeakRSS)/(1<<20))
	if fig.Extract == 0 { // gnn reads through gdi
		fmt.Fprintf(stdout, "query %v end to end (%s reads the graph through gdi: no extraction)\n", fig.Query.Round(time.Microsecond), fig.Algo)
		return
	}
	fmt.Fprintf(stdout, "query %v end to end: extract %v (collective transaction, read the graph, build the CSR) + %s %v (the algorithm on the CSR, %d rounds",
		fig.Query.Round(time.Microsecond), fig.Extract.Round(time.Microsecond), fig.Algo, fig.Run.Round(time.Microsecond), len(fig.Rounds))
	if fig.PerIteration > 0 {
		fmt.Fprintf(stdout, ", %v per iteration", fig.PerIteration.Round(time.Microsecond))
	}
	fmt.Fprintln(stdout, ")")
	if fig.Baseline > 0 {
		fmt.Fprintf(stdout, "plain CSR in one process: %v; the algorithm on the database's CSR takes %.2f times that (extraction not counted)\n", fig.Baseline.Round(time.Microsecond), fig.Ratio)
	}
}
