package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/gdi-go/gdi/workload/oltp"
)

// TestBenchOLTPTable: the table has every operation type, and its
// latencies in one unit, microseconds, with no unit in the cells.
func TestBenchOLTPTable(t *testing.T) {
	var out, errs bytes.Buffer
	args := []string{"bench", "oltp", "-workload", "wi", "-scale", "6", "-edgefactor", "4", "-ranks", "2", "-goroutines", "2", "-count", "200"}
	if code := run(args, &out, &errs); code != 0 {
		t.Fatalf("gdi %v exited %d: %s", args, code, errs.String())
	}
	for _, want := range []string{"graph: scale 6, edge factor 4, 64 vertices, 256 edges", "workload WI: 2 ranks x 2 goroutines", "add vertex", "delete vertex"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	// The columns widen with the slowest cell, so match the header by its words.
	if !regexp.MustCompile(`mean µs +p50 µs +p90 µs`).MatchString(out.String()) {
		t.Errorf("output lacks the latency header in µs:\n%s", out.String())
	}
	if cell := regexp.MustCompile(`[0-9](ns|µs|ms|s)\s`).FindString(out.String()[strings.Index(out.String(), "operation"):]); cell != "" {
		t.Errorf("a latency cell with its own unit (%q):\n%s", cell, out.String())
	}
}

func TestBenchOLTPJSON(t *testing.T) {
	var out, errs bytes.Buffer
	args := []string{"bench", "oltp", "-workload", "rm", "-scale", "5", "-ranks", "1", "-count", "100", "-json", "-zipf"}
	if code := run(args, &out, &errs); code != 0 {
		t.Fatalf("gdi %v exited %d: %s", args, code, errs.String())
	}
	var r struct {
		Workload            string
		Committed, NotFound int64
		Failed              int64
		Ops                 []struct{ Op string }
		Params              map[string]any
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out.String())
	}
	if r.Workload != "RM" || r.Committed+r.NotFound+r.Failed != 100 || len(r.Ops) != 7 {
		t.Fatalf("report %+v: want RM with 100 operations over 7 types", r)
	}
	// The run's parameters, to reproduce it.
	want := map[string]any{"scale": 5.0, "edge_factor": 16.0, "seed": 1.0, "count_per_rank": 100.0, "zipf": true, "prefetch": true, "backend": "gdirma"}
	for k, v := range want {
		if r.Params[k] != v {
			t.Errorf("params[%q] = %v, want %v (params %v)", k, r.Params[k], v, r.Params)
		}
	}
	if v, _ := r.Params["version"].(string); !strings.HasPrefix(v, "gdi ") {
		t.Errorf("params lack the version: %v", r.Params)
	}
	// Every flag, given or defaulted, in the terms of a command line.
	flags, _ := r.Params["flags"].(map[string]any)
	for k, v := range map[string]any{"workload": "rm", "goroutines": 1.0, "duration": "10s", "blocksize": 512.0, "json": true} {
		if flags[k] != v {
			t.Errorf("flags[%q] = %v, want %v (flags %v)", k, flags[k], v, flags)
		}
	}
}

// TestBenchOLTPPlot: -plot writes an SVG with a line per operation type
// that committed operations, says where with the absolute path, and
// leaves no other file behind.
func TestBenchOLTPPlot(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	var out, errs bytes.Buffer
	args := []string{"bench", "oltp", "-workload", "lb", "-scale", "5", "-ranks", "1", "-count", "300", "-json", "-plot", "lat.svg"}
	if code := run(args, &out, &errs); code != 0 {
		t.Fatalf("gdi %v exited %d: %s", args, code, errs.String())
	}
	var r oltp.Report
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out.String())
	}
	var want []string
	for _, o := range r.Ops {
		if o.Committed > 0 {
			want = append(want, o.Op)
		}
	}
	path := filepath.Join(dir, "lat.svg")
	if !strings.Contains(errs.String(), "plot: wrote "+path+"\n") {
		t.Errorf("stderr does not say plot: wrote %s:\n%s", path, errs.String())
	}
	var lines []string
	for _, l := range svgElements(t, path, "series") {
		lines = append(lines, l["data-name"])
	}
	if len(want) < 3 || !slices.Equal(lines, want) {
		t.Errorf("lines of %q, want one per operation type that committed: %q", lines, want)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*")); len(files) != 1 {
		t.Errorf("files left: %q", files)
	}
}

// TestBenchOLTPRMAStats: -rmastats adds the calls per operation to the
// JSON and the table, and refuses more than one goroutine per rank.
func TestBenchOLTPRMAStats(t *testing.T) {
	var out, errs bytes.Buffer
	args := []string{"bench", "oltp", "-scale", "6", "-count", "300", "-ranks", "2", "-rmastats", "-json"}
	if code := run(args, &out, &errs); code != 0 {
		t.Fatalf("gdi %v exited %d: %s", args, code, errs.String())
	}
	var r oltp.Report
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out.String())
	}
	if r.Calls == nil || r.Calls.Calls < 1 || r.Calls.Bytes <= 0 || math.Abs(r.Calls.Calls-(r.Calls.Gets+r.Calls.Puts+r.Calls.Atomics+r.Calls.Flushes)) > 1e-9 {
		t.Errorf("calls per operation %+v", r.Calls)
	}
	for _, o := range r.Ops {
		if o.Committed+o.NotFound+o.Failed > 0 && (o.Calls == nil || o.Calls.Calls <= 0) {
			t.Errorf("%s: calls per operation %+v", o.Op, o.Calls)
		}
	}
	out.Reset()
	if code := run([]string{"bench", "oltp", "-scale", "6", "-count", "300", "-rmastats"}, &out, &errs); code != 0 || !strings.Contains(out.String(), "one-sided calls per operation") {
		t.Errorf("the table lacks the calls (exit %d):\n%s", code, out.String())
	}
	if code := run([]string{"bench", "oltp", "-rmastats", "-goroutines", "2"}, &out, &errs); code == 0 {
		t.Errorf("-rmastats with -goroutines 2 was accepted")
	}
}

func TestBenchOLTPBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"bench"},
		{"bench", "olap2"},
		{"bench", "oltp", "-workload", "xx"},
		{"bench", "oltp", "-backend", "nosuch"},
		{"bench", "oltp", "-scale", "0"},
		{"bench", "oltp", "-ranks", "0"},
		{"bench", "oltp", "-count", "-1"},
		{"bench", "oltp", "-duration", "0"},
		{"bench", "oltp", "-scale", "4", "-count", "1", "-profile", "disk"},
		{"bench", "oltp", "-scale", "4", "-count", "1", "-plot", "out.gif"},
	} {
		var out, errs bytes.Buffer
		if code := run(args, &out, &errs); code == 0 {
			t.Errorf("gdi %v exited 0", args)
		}
	}
}

func TestBenchOLAP(t *testing.T) {
	for _, c := range []struct {
		algo     string
		extracts bool // the query extracts the graph, and says how long that took
		more     []string
	}{
		{"bfs", false, nil}, // straight on gdirma's storage
		{"bfs", true, []string{"-storage=false"}},
		{"pr", true, nil}, {"wcc", true, nil}, {"khop", true, nil}, {"cdlp", true, nil}, {"lcc", true, nil},
		{"gnn", false, nil}, // reports its layer as a whole
	} {
		algo := c.algo
		var out, errs bytes.Buffer
		args := append([]string{"bench", "olap", "-algo", algo, "-scale", "6", "-edgefactor", "4", "-ranks", "2", "-json"}, c.more...)
		if algo == "bfs" || algo == "pr" || algo == "wcc" {
			args = append(args, "-baseline", "csr") // bfs also checks its levels against the CSR
		}
		if code := run(args, &out, &errs); code != 0 {
			t.Fatalf("gdi %v exited %d: %s", args, code, errs.String())
		}
		var f olapFigures
		if err := json.Unmarshal(out.Bytes(), &f); err != nil {
			t.Fatalf("%s: output is not JSON: %v\n%s", algo, err, out.String())
		}
		if f.Algo != algo || f.Ranks != 2 || f.Run <= 0 || (f.Extract > 0) != c.extracts {
			t.Errorf("%s %v: figures %+v (extraction timed: %v)", algo, c.more, f, c.extracts)
		}
		if f.Flags["seed"] != 1.0 || f.Flags["iterations"] != 10.0 || f.Flags["algo"] != algo || !strings.HasPrefix(f.Version, "gdi ") {
			t.Errorf("%s: the figures lack the run's flags or version: %v, %q", algo, f.Flags, f.Version)
		}
		if runtime.GOOS == "linux" && (f.PeakRSS < 1<<20 || f.QueryRSS < 0) {
			t.Errorf("%s: peak resident size %d bytes, %d added by the query", algo, f.PeakRSS, f.QueryRSS)
		}
		if (f.CSRBytes > 0) != c.extracts {
			t.Errorf("%s %v: the extracted CSR has %d bytes", algo, c.more, f.CSRBytes)
		}
		if f.Query < f.Extract+f.Run {
			t.Errorf("%s: query_ns %v is not the whole of extract_ns %v and run_ns %v", algo, f.Query, f.Extract, f.Run)
		}
		if (f.Baseline > 0) != slices.Contains(args, "csr") || f.Baseline > 0 && f.Ratio <= 0 {
			t.Errorf("%s: baseline %v, ratio %v", algo, f.Baseline, f.Ratio)
		}
		if algo != "lcc" && algo != "gnn" && len(f.Rounds) == 0 || algo == "pr" && len(f.Rounds) != 10 {
			t.Errorf("%s: %d rounds timed", algo, len(f.Rounds))
		}
	}
}

// TestBenchOLAPWeighted runs sssp and bi on 1 and 2 ranks, and bi also
// through holders (-storage=false), each checked against the plain CSR
// (-baseline csr fails the run on a difference), and checks that the
// figures and answers are there and that the answers do not depend on
// the number of ranks or the way.
func TestBenchOLAPWeighted(t *testing.T) {
	for _, algo := range []string{"sssp", "bi"} {
		var first *olapFigures
		for _, run1 := range [][]string{{"-ranks", "1"}, {"-ranks", "2"}, {"-ranks", "2", "-storage=false"}} {
			var out, errs bytes.Buffer
			args := append([]string{"bench", "olap", "-algo", algo, "-scale", "8", "-baseline", "csr", "-json"}, run1...)
			if code := run(args, &out, &errs); code != 0 {
				t.Fatalf("gdi %v exited %d: %s", args, code, errs.String())
			}
			var f olapFigures
			if err := json.Unmarshal(out.Bytes(), &f); err != nil {
				t.Fatalf("%s: output is not JSON: %v\n%s", algo, err, out.String())
			}
			checkWeightedFigures(t, algo, &f)
			if first == nil {
				first = &f
			} else if !reflect.DeepEqual(f.SSSP, first.SSSP) || !reflect.DeepEqual(f.BI, first.BI) {
				t.Errorf("%s %v: answers %+v %+v, on 1 rank %+v %+v", algo, run1, f.SSSP, f.BI, first.SSSP, first.BI)
			}
		}
	}
}

func TestBenchOLAPWeightedTable(t *testing.T) {
	for algo, want := range map[string]string{"sssp": "sssp from vertex", "bi": "weight > 0.25: "} {
		var out, errs bytes.Buffer
		args := []string{"bench", "olap", "-algo", algo, "-scale", "6", "-edgefactor", "4", "-ranks", "2", "-minweight", "0.25", "-baseline", "csr"}
		if code := run(args, &out, &errs); code != 0 {
			t.Fatalf("gdi %v exited %d: %s", args, code, errs.String())
		}
		for _, w := range []string{want, "of it writing the edge weights", "query ", "plain CSR in one process"} {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s: output lacks %q:\n%s", algo, w, out.String())
			}
		}
	}
}

// checkWeightedFigures checks the figures of a run of sssp or bi.
func checkWeightedFigures(t *testing.T, algo string, f *olapFigures) {
	t.Helper()
	if f.Algo != algo || f.Query <= 0 || f.Run <= 0 || f.Weights <= 0 || f.Load < f.Weights || f.Baseline <= 0 {
		t.Errorf("%s: figures %+v", algo, f)
	}
	if f.Query < f.Extract+f.Run {
		t.Errorf("%s: query_ns %v is not the whole of extract_ns %v and run_ns %v", algo, f.Query, f.Extract, f.Run)
	}
	switch algo {
	case "sssp":
		if s := f.SSSP; f.Extract <= 0 || len(f.Rounds) == 0 || s == nil || s.Reached < 2 || s.Reached > 256 || s.MaxDistance <= 0 {
			t.Errorf("sssp: extract %v, %d rounds, answer %+v", f.Extract, len(f.Rounds), s)
		}
	case "bi":
		// The weights are uniform in (0, 1]: about half the edges pass.
		if b := f.BI; f.Extract != 0 || b == nil || b.MinDegree != 2 || b.MinWeight != 0.5 ||
			b.Sources <= 0 || b.Edges < 2*4096/4 || b.Edges > 2*4096*3/4 || b.WeightSum <= 0.5*float64(b.Edges) || b.WeightSum > float64(b.Edges) {
			t.Errorf("bi: extract %v, answer %+v", f.Extract, b)
		}
	}
}

// TestBenchOLAPPlot: -plot draws a bar per round, and says where.
func TestBenchOLAPPlot(t *testing.T) {
	file := filepath.Join(t.TempDir(), "rounds.svg")
	var out, errs bytes.Buffer
	args := []string{"bench", "olap", "-algo", "pr", "-scale", "5", "-ranks", "1", "-json", "-plot", file}
	if code := run(args, &out, &errs); code != 0 {
		t.Fatalf("gdi %v exited %d: %s", args, code, errs.String())
	}
	var f olapFigures
	if err := json.Unmarshal(out.Bytes(), &f); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out.String())
	}
	if bars := svgElements(t, file, "bar"); len(bars) != 10 || len(f.Rounds) != 10 {
		t.Errorf("%d bars for %d rounds, want 10", len(bars), len(f.Rounds))
	}
	if !strings.Contains(errs.String(), "plot: wrote "+file+"\n") {
		t.Errorf("stderr does not say plot: wrote %s:\n%s", file, errs.String())
	}
}

func TestBenchOLAPBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "olap", "-algo", "nosuch"},
		{"bench", "olap", "-algo", "khop", "-baseline", "csr"},
		{"bench", "olap", "-algo", "lcc", "-baseline", "csr"},
		{"bench", "olap", "-baseline", "gpu"},
		{"bench", "olap", "-scale", "99"},
		{"bench", "olap", "-iterations", "0"},
		{"bench", "olap", "-backend", "nosuch"},
		{"bench", "olap", "-plot", "rounds.txt"},
	} {
		var out, errs bytes.Buffer
		if code := run(args, &out, &errs); code == 0 {
			t.Errorf("gdi %v exited 0", args)
		}
	}
}

// TestBenchRestore: gdi bench oltp and olap run on a graph restored from
// the checkpoint gdi gen -format load writes, and refuse a checkpoint of
// another graph.
func TestBenchRestore(t *testing.T) {
	ck := filepath.Join(t.TempDir(), "ckpt")
	gen(t, "-scale", "7", "-edgefactor", "4", "-format", "load", "-ranks", "2", "-checkpoint", ck, "-quiet")
	for _, args := range [][]string{
		{"bench", "oltp", "-workload", "lb", "-scale", "7", "-edgefactor", "4", "-count", "300", "-restore", ck},
		{"bench", "olap", "-algo", "bfs", "-scale", "7", "-edgefactor", "4", "-restore", ck},
	} {
		var out, errs bytes.Buffer
		if code := run(args, &out, &errs); code != 0 || !strings.Contains(out.String(), "scale 7") {
			t.Errorf("gdi %v exited %d: %s%s", args, code, errs.String(), out.String())
		}
	}
	var out, errs bytes.Buffer
	args := []string{"bench", "oltp", "-scale", "8", "-edgefactor", "4", "-count", "300", "-restore", ck}
	if code := run(args, &out, &errs); code != 1 || !strings.Contains(errs.String(), "lacks vertex 255") {
		t.Errorf("gdi %v (another graph) exited %d: %s", args, code, errs.String())
	}
}

// TestBenchNotFoundWarning: a run most of whose operations find no vertex
// says so on stderr; one that finds most of them does not.
func TestBenchNotFoundWarning(t *testing.T) {
	for _, c := range []struct {
		count string
		warn  bool
	}{{"20000", true}, {"100", false}} {
		var out, errs bytes.Buffer
		args := []string{"bench", "oltp", "-workload", "wi", "-scale", "5", "-edgefactor", "2", "-count", c.count}
		if code := run(args, &out, &errs); code != 0 {
			t.Fatalf("gdi %v exited %d: %s", args, code, errs.String())
		}
		if got := strings.Contains(errs.String(), "of the operations found no vertex"); got != c.warn {
			t.Errorf("gdi %v: warning %v, want %v:\n%s", args, got, c.warn, errs.String())
		}
	}
}

// TestProfileSaysWhere: -profile writes its file into the current
// directory and says where on stderr.
func TestProfileSaysWhere(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	var out, errs bytes.Buffer
	args := []string{"bench", "oltp", "-scale", "5", "-count", "50", "-profile", "cpu"}
	if code := run(args, &out, &errs); code != 0 {
		t.Fatalf("gdi %v exited %d: %s", args, code, errs.String())
	}
	path := filepath.Join(dir, "cpu.pprof")
	if _, err := os.Stat(path); err != nil || !strings.Contains(errs.String(), "profile: wrote "+path) {
		t.Errorf("no %s, or not said (%v): %q", path, err, errs.String())
	}
}
