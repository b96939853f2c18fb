package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/generator"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/launch"
	"github.com/gdi-go/gdi/workload/olap"
)

// benchOLAPAlgos are the algorithms gdi bench olap runs. Generated graphs
// have no edge weights: for sssp and bi the load gives every edge one
// (benchWeight).
var benchOLAPAlgos = []string{"bfs", "khop", "pr", "wcc", "cdlp", "lcc", "sssp", "bi", "gnn"}

// baselineAlgos are the algorithms that -baseline csr runs on a plain CSR.
var baselineAlgos = []string{"bfs", "pr", "wcc", "sssp", "bi"}

// olapFigures are the results of gdi bench olap.
type olapFigures struct {
	Algo       string `json:"algo"`
	Scale      int    `json:"scale"`
	EdgeFactor int    `json:"edgefactor"`
	Ranks      int    `json:"ranks"`
	Backend    string `json:"backend"`
	// Flags are those of the run, given or defaulted, and Version is the
	// program's (versionLine).
	Flags   map[string]any `json:"flags"`
	Version string         `json:"version"`
	// Load is the time of the load, and for sssp and bi of writing the
	// edge weights after it, which Weights is.
	Load    time.Duration `json:"load_ns"`
	Weights time.Duration `json:"weights_ns,omitempty"`
	// Query is the end-to-end time of the query: from the start of the
	// collective transaction to the answer on every rank. Its parts are
	// Extract (the transaction, reading the graph from the database, and
	// building the CSR) and Run (the algorithm on the CSR); gnn and bi
	// read the graph through gdi, and Run is all of Query.
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
	// SSSP and BI are the answers of sssp and bi.
	SSSP *ssspFigures `json:"sssp,omitempty"`
	BI   *biFigures   `json:"bi,omitempty"`
	// PeakRSS is the largest resident size of the process (of rank 0's
	// under MPI) over the run, load and baseline included; 0 where it
	// cannot be read.
	PeakRSS int64 `json:"peak_rss_bytes"`
	// QueryRSS is the most the query added to the resident size of rank
	// 0's process (all ranks, on local ranks), from a collected heap
	// before it; CSRBytes the size of the arrays extraction built, all
	// ranks together. 0 where they cannot be read or nothing is built.
	QueryRSS int64 `json:"query_added_rss_bytes"`
	CSRBytes int64 `json:"csr_bytes,omitempty"`
	// KeptBytes is what an extracting query left live on the Go heap of
	// rank 0's process once it ended, over the heap before it: the
	// extracted graph and what else it kept (a BFS's levels), without
	// the garbage and the collector's slack that QueryRSS includes.
	KeptBytes int64 `json:"kept_bytes,omitempty"`
}

// olapFlags are the flags of gdi bench olap.
type olapFlags struct {
	algo, backend, baseline, profile, plot  string
	restore                                 string
	scale, edgefactor, ranks, iterations, k int
	blockSize, memory, roots                int
	seed, minDegree                         uint64
	minWeight                               float64
	asJSON, validate, noScan, storage       bool
	values                                  map[string]any // of every flag
}

// parseOLAPFlags parses and checks the flags of gdi bench olap.
func parseOLAPFlags(args []string, stderr io.Writer) (*olapFlags, error) {
	f := &olapFlags{}
	fs := flag.NewFlagSet("bench olap", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.algo, "algo", "bfs", "algorithm: "+strings.Join(benchOLAPAlgos, ", "))
	fs.IntVar(&f.scale, "scale", 12, "the graph has 2^scale vertices")
	fs.IntVar(&f.edgefactor, "edgefactor", 16, "edges per vertex")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the graph (and of the edge weights of sssp and bi)")
	fs.IntVar(&f.ranks, "ranks", 2, "number of ranks")
	fs.IntVar(&f.iterations, "iterations", 10, "pr: iterations; cdlp: maximum iterations")
	fs.IntVar(&f.k, "k", 3, "khop: number of hops")
	fs.StringVar(&f.backend, "backend", defaultBackend, "GDI backend: "+strings.Join(driverNames(), ", "))
	fs.IntVar(&f.blockSize, "blocksize", 512, "gdirma: block size in bytes (64 to 4096)")
	fs.IntVar(&f.memory, "memory", 0, "gdirma: block memory per rank in MiB (0: estimated from the graph)")
	fs.StringVar(&f.baseline, "baseline", "", "csr: also run the algorithm on a plain CSR outside the database and check the answer ("+strings.Join(baselineAlgos, ", ")+")")
	fs.Uint64Var(&f.minDegree, "mindegree", 2, "bi: the least degree of both ends of an edge")
	fs.Float64Var(&f.minWeight, "minweight", 0.5, "bi: edges of weight above this (weights are in (0, 1])")
	fs.BoolVar(&f.asJSON, "json", false, "print the figures as JSON")
	fs.StringVar(&f.profile, "profile", "", "write a cpu or mem profile of the run to the current directory")
	fs.IntVar(&f.roots, "roots", 0, "bfs: run this many searches from random roots of degree > 0 and report them as Graph500 does (TEPS)")
	fs.BoolVar(&f.validate, "validate", false, "with -roots: check every search with the five Graph500 rules")
	fs.BoolVar(&f.noScan, "noscan", false, "extract vertex by vertex even where the backend can scan its storage (gdi.AdjacencyScanner), to compare")
	fs.BoolVar(&f.storage, "storage", true, "bfs and bi: run straight on the storage where the backend can (gdi.KeyedAdjacencyReader); false: bfs searches the extracted CSR and bi reads through holders, to compare")
	fs.StringVar(&f.plot, "plot", "", "draw the time of every round (iteration) to this .svg file (checked before the run)")
	fs.StringVar(&f.restore, "restore", "", "gdirma: restore the graph from this checkpoint (gdi gen -format load -checkpoint with the same -scale, -edgefactor and -seed) instead of loading it")
	usageOf(fs, benchOLAPUsage, stderr)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if err := checkParsed(fs); err != nil {
		return nil, err
	}
	f.values = flagValues(fs)
	if f.restore != "" && f.backend != "gdirma" {
		return nil, errors.New("-restore needs the gdirma backend")
	}
	if err := f.check(); err != nil {
		return nil, err
	}
	if f.plot != "" {
		return f, checkPlotFile(f.plot)
	}
	return f, nil
}

// check checks the values of the flags against each other.
func (f *olapFlags) check() error {
	switch {
	case !slices.Contains(benchOLAPAlgos, f.algo):
		return fmt.Errorf("-algo must be one of %s, not %q", strings.Join(benchOLAPAlgos, ", "), f.algo)
	case f.scale > 32:
		return fmt.Errorf("-scale must be in [1, 32] for bench olap, which numbers the vertices of the extracted graph in 32 bits, not %d", f.scale)
	case f.baseline != "" && f.baseline != "csr":
		return fmt.Errorf("-baseline must be csr, not %q", f.baseline)
	case f.baseline == "csr" && !slices.Contains(baselineAlgos, f.algo):
		return fmt.Errorf("-baseline csr is there for %s, not %s", strings.Join(baselineAlgos, ", "), f.algo)
	case f.roots > 0 && f.algo != "bfs":
		return fmt.Errorf("-roots is a number of BFS searches (-algo bfs), not %d with %s", f.roots, f.algo)
	case f.validate && f.roots == 0:
		return errors.New("-validate checks the searches of -roots")
	}
	return nil
}

// runBenchOLAP generates a Kronecker graph into a database, extracts it on
// every rank, and times an algorithm, optionally next to a plain CSR.
func runBenchOLAP(args []string, stdout, stderr io.Writer) error {
	f, err := parseOLAPFlags(args, stderr)
	if err != nil {
		return err
	}
	driver, err := driverByName(f.backend)
	if err != nil {
		return err
	}
	stop, err := startProfile(f.profile, stderr)
	if err != nil {
		return err
	}
	defer stop()
	g, err := generator.New(generator.Config{Scale: f.scale, EdgeFactor: f.edgefactor, Seed: f.seed})
	if err != nil {
		return err
	}
	// The BFS, k-hop and SSSP source: the Kronecker vertex of highest
	// expected degree, which is in the giant component.
	p := olap.Params{Source: g.Scramble(0), K: f.k, Damping: 0.85, Iterations: f.iterations, MaxIterations: f.iterations}
	fig := &olapFigures{Algo: f.algo, Scale: f.scale, EdgeFactor: f.edgefactor, Ranks: f.ranks, Backend: f.backend, Flags: f.values, Version: versionLine()}
	opts := olapRankOptions{noScan: f.noScan, storage: f.storage, roots: f.roots, seed: f.seed, validate: f.validate, minDegree: f.minDegree, minWeight: f.minWeight}
	want := &olapBaseline{} // the baseline's answers, to check the database's
	if f.baseline == "csr" {
		if want, fig.Baseline, err = runBaseline(g, f.algo, p, opts); err != nil {
			return err
		}
	}
	weighted := f.algo == "sssp" || f.algo == "bi"
	dbParams := params(f.backend, sizing{g.NumVertices(), g.NumEdges(), f.ranks, f.blockSize, f.memory << 20, weighted})
	if f.restore != "" { // the checkpoint has its sizes
		dbParams = &gdirma.Params{Restore: f.restore}
	}
	if err := checkMemory(dbParams, f.ranks, fmt.Sprintf("-scale %d, -edgefactor %d and -ranks %d", f.scale, f.edgefactor, f.ranks)); err != nil {
		return err
	}
	err = launch.Run(f.ranks, func(c rma.Comm) error {
		return benchOLAPRank(c, driver, dbParams, g, f.algo, p, want, fig, opts, stderr)
	})
	if err := errors.Join(err, launch.Finalize()); err != nil {
		return err
	}
	if fig.Run == 0 && fig.Extract == 0 { // under MPI only rank 0's process prints
		return nil
	}
	header := fmt.Sprintf("graph: scale %d, edge factor %d, %d vertices, %d edges, backend %s on %d ranks (%s)",
		f.scale, f.edgefactor, g.NumVertices(), g.NumEdges(), f.backend, f.ranks, launch.Backend())
	if f.plot != "" {
		if err := plotRounds(fig, f.plot, stderr); err != nil {
			return err
		}
	}
	return reportOLAP(stdout, fig, p.Iterations, f.asJSON, header)
}

// runBaseline builds the plain CSR of g (with its edge weights for sssp
// and bi) and times algo on it; it returns the answers that the database's
// are checked against and the time.
func runBaseline(g *generator.Graph, algo string, p olap.Params, opts olapRankOptions) (*olapBaseline, time.Duration, error) {
	csr, err := olap.BuildCSR(int(g.NumVertices()), g.Config().Directed, func(fn func(u, v uint64)) {
		g.EdgesRange(0, g.NumEdges(), func(_, u, v uint64) { fn(u, v) })
	})
	if err != nil {
		return nil, 0, err
	}
	if algo == "sssp" || algo == "bi" {
		w := benchWeight(g.Config().Seed, g.Config().Directed)
		csr.SetWeights(func(u, v uint32) float64 { return w(uint64(u), uint64(v)) })
	}
	want := &olapBaseline{}
	start := time.Now()
	switch algo {
	case "bfs":
		want.levels = csr.BFS(int(p.Source))
	case "pr":
		csr.PageRank(p.Damping, p.Iterations)
	case "wcc":
		csr.WCC()
	case "sssp":
		want.dist = csr.SSSP(int(p.Source))
	case "bi":
		bi := csr.BI(opts.minDegree, opts.minWeight)
		want.bi = &bi
	}
	return want, time.Since(start), nil
}

// reportOLAP completes fig (per iteration, ratio, peak resident size) and
// writes it: as JSON, or for people under header.
func reportOLAP(stdout io.Writer, fig *olapFigures, iterations int, asJSON bool, header string) error {
	if fig.Algo == "pr" {
		fig.PerIteration = fig.Run / time.Duration(iterations)
	}
	if fig.Baseline > 0 {
		fig.Ratio = float64(fig.Run) / float64(fig.Baseline)
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
	noScan, validate, storage bool
	roots                     int
	seed                      uint64
	// bi's parameters
	minDegree uint64
	minWeight float64
}

func benchOLAPRank(c rma.Comm, driver gdi.Driver, dbParams any, g *generator.Graph, algo string, p olap.Params, want *olapBaseline, fig *olapFigures, opts olapRankOptions, stderr io.Writer) error {
	db, err := driver.CreateDatabase(c, dbParams)
	if err != nil {
		return err
	}
	defer db.Free()
	restored := false
	if p, ok := dbParams.(*gdirma.Params); ok {
		restored = p.Restore != ""
	}
	m, load, err := loadGraph(c, db, g, restored, stderr)
	if err != nil {
		return err
	}
	var weight gdi.PropertyType
	if algo == "sssp" || algo == "bi" {
		var weighing time.Duration
		if weight, weighing, err = weighGraph(c, db, m, g, stderr); err != nil {
			return err
		}
		load += weighing
		if c.Rank() == 0 {
			fig.Weights = weighing
		}
	}
	idx, err := vertexIndex(c, db, m)
	if err != nil {
		return err
	}
	if c.Rank() == 0 {
		fig.Load = load
	}
	resident, err := queryMemoryStart(c)
	if err != nil {
		return err
	}
	switch {
	case algo == "gnn":
		err = benchGNN(c, db, idx, load, fig)
	case algo == "sssp" || algo == "bi":
		err = benchWeighted(c, db, idx, weight, algo, p, want, fig, opts)
	case algo == "bfs" && searchesStorage(db, opts):
		err = benchOnStorage(c, db, idx, p, want, fig)
	default:
		err = benchExtracted(c, db, idx, algo, p, want, fig, opts)
	}
	if err != nil {
		return err
	}
	if c.Rank() == 0 && resident > 0 {
		// The kernel raises the peak lazily: memory given back before it
		// noticed can leave the peak below what was resident at the
		// start, and the query then added nothing it could see.
		fig.QueryRSS = max(0, queryPeak()-resident)
	}
	return idx.Free()
}

// csrBytes is the size of the arrays of og over all ranks. It is
// collective.
func csrBytes(c rma.Comm, og *olap.Graph) (int64, error) {
	n := []int64{og.Bytes()}
	err := c.AllreduceInt64(n, rma.OpSum)
	return n[0], err
}

// queryMemoryStart is startQueryMemory on rank 0 while every rank waits
// (local ranks share the process), which also notes the live heap for
// heapKept. It is collective.
func queryMemoryStart(c rma.Comm) (resident int64, err error) {
	err = onRankZero(c, func() {
		resident = startQueryMemory()
		liveBeforeQuery.Store(heapLive())
	})
	return resident, err
}

// liveBeforeQuery is the live heap queryMemoryStart saw.
var liveBeforeQuery atomic.Int64

// heapKept is, on rank 0, the live heap now over liveBeforeQuery, while
// every rank waits (so their graphs are live too). It is collective.
func heapKept(c rma.Comm) (kept int64, err error) {
	err = onRankZero(c, func() { kept = heapLive() - liveBeforeQuery.Load() })
	return kept, err
}

// onRankZero runs f on rank 0 between two barriers: no rank runs on
// meanwhile. It is collective.
func onRankZero(c rma.Comm, f func()) error {
	if err := c.Barrier(); err != nil {
		return err
	}
	if c.Rank() == 0 {
		f()
	}
	return c.Barrier()
}

// heapLive is the live Go heap after a collection, in bytes.
func heapLive() int64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// benchExtracted times the extraction of the graph of idx and algo on it,
// and checks BFS levels against want.levels if there are any; rank 0
// fills fig.
func benchExtracted(c rma.Comm, db gdi.Database, idx gdi.Index, algo string, p olap.Params, want *olapBaseline, fig *olapFigures, opts olapRankOptions) error {
	queryStart := time.Now()
	og, err := olap.ExtractGraph(db, c, olap.ExtractOptions{Index: idx, NoScan: opts.noScan})
	if err != nil {
		return err
	}
	extract := time.Since(queryStart)
	csr, err := csrBytes(c, og)
	if err != nil {
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
	start := time.Now()
	rounds := timeRounds(c, og)
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
	kept, err := heapKept(c)
	if err != nil {
		return err
	}
	if res != nil {
		if err := rma.Agree(c, checkBFS(og, res, want.levels)); err != nil { // og is live until here
			return err
		}
	}
	if c.Rank() == 0 {
		fig.Query, fig.Extract, fig.Run, fig.Rounds, fig.CSRBytes, fig.KeptBytes = query, extract, run, *rounds, csr, kept
	}
	return nil
}

// checkBFS compares the levels of the local vertices of og with those of
// the plain CSR, want, if there are any.
func checkBFS(og *olap.Graph, res *olap.BFSResult, want []int32) error {
	if want == nil {
		return nil
	}
	for i, l := range res.Level[:og.NumLocal] {
		w := int64(want[og.ID[i]])
		if w < 0 {
			w = olap.Unreached
		}
		if l != w {
			return fmt.Errorf("bfs: vertex %d at depth %d in the database, %d in the plain CSR", og.ID[i], l, w)
		}
	}
	return nil
}

// vertexIndex creates the index over the vertex labels of m from which
// every rank finds its local vertices. It is collective.
func vertexIndex(c rma.Comm, db gdi.Database, m *generator.Metadata) (gdi.Index, error) {
	idx, err := db.CreateIndex(gdi.HashTableIndex, 0)
	if err != nil {
		return nil, err
	}
	if err := idx.AddLabelsAndPropertyTypes(m.VertexLabels, nil); err != nil {
		return nil, err
	}
	return idx, c.Barrier()
}

// printOLAP writes fig for people: what each time covers.
func printOLAP(stdout io.Writer, fig *olapFigures) {
	fmt.Fprintf(stdout, "load %v (not part of the query", fig.Load.Round(time.Millisecond))
	if fig.Weights > 0 {
		fmt.Fprintf(stdout, "; %v of it writing the edge weights", fig.Weights.Round(time.Millisecond))
	}
	fmt.Fprintf(stdout, "); peak resident size %.1f MiB\n", float64(fig.PeakRSS)/(1<<20))
	if fig.QueryRSS > 0 {
		fmt.Fprintf(stdout, "the query added %.1f MiB to the resident size at its peak", float64(fig.QueryRSS)/(1<<20))
		if fig.CSRBytes > 0 {
			fmt.Fprintf(stdout, " (the CSR it built: %.1f MiB; %.1f MiB live after it)", float64(fig.CSRBytes)/(1<<20), float64(fig.KeptBytes)/(1<<20))
		}
		fmt.Fprintln(stdout)
	}
	printAnswer(stdout, fig)
	if fig.Extract == 0 { // bfs and bi straight from the storage or through holders; gnn as a whole
		how := "reads the database directly: no extraction"
		if fig.Algo == "gnn" {
			how = "the whole layer: extraction, features, halo exchange and write-back"
		}
		fmt.Fprintf(stdout, "query %v end to end (%s %s", fig.Query.Round(time.Microsecond), fig.Algo, how)
		if len(fig.Rounds) > 0 {
			fmt.Fprintf(stdout, "; %d rounds", len(fig.Rounds))
		}
		fmt.Fprintln(stdout, ")")
		printBaseline(stdout, fig)
		return
	}
	fmt.Fprintf(stdout, "query %v end to end: extract %v (collective transaction, read the graph, build the CSR) + %s %v (the algorithm on the CSR, %d rounds",
		fig.Query.Round(time.Microsecond), fig.Extract.Round(time.Microsecond), fig.Algo, fig.Run.Round(time.Microsecond), len(fig.Rounds))
	if fig.PerIteration > 0 {
		fmt.Fprintf(stdout, ", %v per iteration", fig.PerIteration.Round(time.Microsecond))
	}
	fmt.Fprintln(stdout, ")")
	printBaseline(stdout, fig)
}

// printAnswer writes the answer of sssp and bi.
func printAnswer(stdout io.Writer, fig *olapFigures) {
	if s := fig.SSSP; s != nil {
		fmt.Fprintf(stdout, "sssp from vertex %d: %d vertices reached, the farthest at distance %.6f\n", s.Root, s.Reached, s.MaxDistance)
	}
	if b := fig.BI; b != nil {
		fmt.Fprintf(stdout, "bi (a)-[e]->(b), degree >= %d at both ends, weight > %v: %d sources, %d edges, weight sum %.6f\n",
			b.MinDegree, b.MinWeight, b.Sources, b.Edges, b.WeightSum)
	}
}

// printBaseline writes the time of the plain CSR.
func printBaseline(stdout io.Writer, fig *olapFigures) {
	if fig.Baseline == 0 {
		return
	}
	if fig.Extract == 0 {
		fmt.Fprintf(stdout, "plain CSR in one process: %v, with the same answer; the query takes %.2f times that\n", fig.Baseline.Round(time.Microsecond), fig.Ratio)
		return
	}
	fmt.Fprintf(stdout, "plain CSR in one process: %v; the algorithm on the database's CSR takes %.2f times that (extraction not counted)\n", fig.Baseline.Round(time.Microsecond), fig.Ratio)
}
