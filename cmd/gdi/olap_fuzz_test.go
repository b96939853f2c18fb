package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gdi-go/gdi/workload/graphalytics"
	"github.com/gdi-go/gdi/workload/olap"
)

// FuzzOlap runs gdi olap end to end on arbitrary NAME.properties, NAME.v
// and NAME.e files and a fuzzed algorithm, -source, -k, -load and rank
// count: reading, parameters, loading into the database (bulk CSV or
// transactions), extraction and the algorithm. It must not panic or hang.
// A run that succeeds writes one "id value" line per vertex of the data
// set, in ascending id order; a run that fails says why on stderr.
//
// Inputs whose iteration counts would make a legitimately long run (more
// than 50 PageRank or CDLP iterations) are skipped: a user may ask for
// those.
func FuzzOlap(f *testing.F) {
	props := "graph.g.directed = true\ngraph.g.bfs.source-vertex = 1\ngraph.g.pr.num-iterations = 3\n"
	f.Add(props, "1\n2\n3\n", "1 2\n2 3\n", uint8(0), uint8(0), "", int8(2))
	f.Add("graph.g.directed = false\ngraph.g.sssp.source-vertex = 3\n", "1\n2\n3\n", "1 2 0.5\n2 3 1e300\n3 1 0\n", uint8(6), uint8(0x13), "", int8(1))
	f.Add(props, "1\n2\n", "1 1\n1 1\n2 2\n", uint8(4), uint8(0x21), "2", int8(0))
	f.Add("graph.g.directed = true\ngraph.g.pr.damping-factor = 2\ngraph.g.cdlp.max-iterations = 0\n", "5\n", "", uint8(2), uint8(0x0a), "", int8(-1))
	f.Add(props, "18446744073709551615\n18446744073709551614\n", "18446744073709551615 18446744073709551614\n", uint8(5), uint8(0x12), "18446744073709551615", int8(3))
	f.Add(props, "1\n2\n", "1 2\n", uint8(1), uint8(0), "99", int8(100))
	f.Add(props, "1\n2\n", "1 2 -1\n", uint8(6), uint8(0), "x", int8(2))
	f.Add("graph.g.directed = true\ngraph.g.bfs.source-vertex = 7\n", "", "", uint8(0), uint8(0x20), "", int8(2))
	f.Fuzz(func(t *testing.T, properties, vertices, edges string, algo, flags uint8, source string, k int8) {
		for _, line := range strings.Split(properties, "\n") {
			key, val, _ := strings.Cut(line, "=")
			if strings.Contains(key, "iterations") {
				if n, err := strconv.ParseUint(strings.TrimSpace(val), 10, 64); err == nil && n > 50 {
					return
				}
			}
		}
		dir := t.TempDir()
		for name, data := range map[string]string{"g.properties": properties, "g.v": vertices, "g.e": edges} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		alg := olap.Algorithms[int(algo)%len(olap.Algorithms)]
		ranks := 1 + int(flags&3)%3
		load := []string{"auto", "csv", "tx", "auto"}[flags>>2&3]
		out := filepath.Join(dir, "out")
		args := []string{"olap", "-quiet", "-algo", alg, "-graph", filepath.Join(dir, "g"), "-ranks", strconv.Itoa(ranks),
			"-load", load, "-k", strconv.Itoa(int(k)), "-o", out}
		if flags&0x10 != 0 {
			args = append(args, "-source", source)
		}
		if flags&0x20 != 0 && alg == "bfs" {
			args = append(args, "-validate")
		}
		var stdout, stderr bytes.Buffer
		done := make(chan int, 1)
		go func() { done <- run(args, &stdout, &stderr) }()
		var code int
		select {
		case code = <-done:
		case <-time.After(time.Minute):
			t.Fatalf("gdi %q hangs", args)
		}
		if code != 0 {
			if stderr.Len() == 0 {
				t.Fatalf("gdi %q exited %d without a message", args, code)
			}
			return
		}
		ds, err := graphalytics.ReadDataset(dir, "g")
		if err != nil {
			t.Fatalf("gdi %q succeeded on a data set that does not read: %v", args, err)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		if len(data) == 0 {
			lines = nil
		}
		if len(lines) != len(ds.Vertices) {
			t.Fatalf("gdi %q wrote %d lines for %d vertices:\n%s", args, len(lines), len(ds.Vertices), data)
		}
		for i, line := range lines {
			id, val, ok := strings.Cut(line, " ")
			if want := fmt.Sprint(ds.Vertices[i]); !ok || id != want || val == "" {
				t.Fatalf("gdi %q: line %d is %q, want the id %s and a value", args, i+1, line, want)
			}
		}
	})
}
