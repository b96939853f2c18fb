package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdi-go/gdi/workload/graphalytics"
)

const olapData = "../../../shared/testdata/graphalytics/datasets"

func needOlapData(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(olapData); err != nil {
		t.Skipf("no Graphalytics data sets: %v", err)
	}
}

// TestOlapEndToEnd runs every Graphalytics algorithm through the command
// on example-directed and example-undirected and compares the output file
// with the expected one under the Graphalytics rules.
func TestOlapEndToEnd(t *testing.T) {
	needOlapData(t)
	dir := t.TempDir()
	for _, name := range []string{"example-directed", "example-undirected"} {
		for i, alg := range graphalytics.Algorithms {
			ranks := []string{"1", "2", "3"}[i%3]
			out := filepath.Join(dir, name+"-"+alg)
			var stdout, stderr bytes.Buffer
			args := []string{"olap", "-algo", strings.ToLower(alg), "-graph", filepath.Join(olapData, name), "-ranks", ranks, "-o", out}
			if alg == "BFS" {
				args = append(args, "-validate")
			}
			if code := run(args, &stdout, &stderr); code != 0 {
				t.Fatalf("gdi %v exited %d: %s", args, code, stderr.String())
			}
			if !strings.Contains(stderr.String(), "extract") {
				t.Errorf("no progress on stderr: %q", stderr.String())
			}
			got, err := graphalytics.ReadExpected(out)
			if err != nil {
				t.Fatal(err)
			}
			want, err := graphalytics.ReadExpected(filepath.Join(olapData, name+"-"+alg))
			if err != nil {
				t.Fatal(err)
			}
			if err := graphalytics.Validate(alg, want, got); err != nil {
				t.Errorf("%s %s on %s ranks: %v", name, alg, ranks, err)
			}
		}
	}
}

// TestOlapOutputFormat checks the exact bytes of a small output on stdout.
func TestOlapOutputFormat(t *testing.T) {
	needOlapData(t)
	var stdout, stderr bytes.Buffer
	args := []string{"olap", "-algo", "khop", "-k", "1", "-graph", filepath.Join(olapData, "test-bfs-undirected"), "-ranks", "2", "-quiet"}
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	want := "1 0\n2 1\n3 1\n4 9223372036854775807\n5 1\n6 9223372036854775807\n7 9223372036854775807\n8 1\n" +
		"9 9223372036854775807\n10 9223372036854775807\n"
	if stdout.String() != want || stderr.Len() != 0 {
		t.Errorf("stdout %q, stderr %q; want %q and nothing", stdout.String(), stderr.String(), want)
	}
	stdout.Reset()
	if code := run(append(args, "-load", "tx", "-ranks", "3"), &stdout, &stderr); code != 0 || stdout.String() != want {
		t.Errorf("loaded through transactions: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
	stdout.Reset()
	args = []string{"olap", "-algo", "sssp", "-graph", filepath.Join(olapData, "test-sssp-directed"), "-quiet"}
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), " infinity\n") {
		t.Errorf("sssp output without infinity: %q", stdout.String())
	}
}

func TestOlapBadInput(t *testing.T) {
	needOlapData(t)
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("bad.properties", "graph.bad.directed = true\n")
	write("bad.v", "1\n2\n")
	write("bad.e", "1 2\n2 x\n")
	write("w.properties", "graph.w.directed = true\ngraph.w.bfs.source-vertex = 7\n")
	write("w.v", "1\n2\n")
	write("w.e", "1 2\n")
	good := filepath.Join(olapData, "example-directed")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-algo", "nope", "-graph", good}, 1, "-algo must be one of"},
		{[]string{"-graph", good}, 1, "-algo must be one of"},
		{[]string{"-algo", "bfs"}, 1, "-graph PATH/NAME is required"},
		{[]string{"-algo", "bfs", "-graph", filepath.Join(dir, "missing")}, 1, "no such file"},
		{[]string{"-algo", "bfs", "-graph", filepath.Join(dir, "bad")}, 1, "bad.e:2"},
		{[]string{"-algo", "bfs", "-graph", filepath.Join(dir, "w"), "-ranks", "2", "-o", filepath.Join(dir, "out")}, 1, "source vertex 7 is not in the graph"},
		{[]string{"-algo", "sssp", "-graph", filepath.Join(dir, "w")}, 1, "no edge weights"},
		{[]string{"-algo", "bfs", "-graph", good, "-ranks", "0"}, 1, "-ranks must be in [1, 4096], not 0"},
		{[]string{"-algo", "bfs", "-graph", good, "-backend", "neo4j"}, 1, "-backend must be one of gdirma, refdb"},
		{[]string{"-algo", "bfs", "-graph", good, "-source", "x"}, 1, "not a vertex id"},
		{[]string{"-algo", "pr", "-graph", good, "-validate"}, 1, "bfs only"},
		{[]string{"-algo", "bfs", "-graph", good, "-o", filepath.Join(dir, "no", "such", "dir")}, 1, "no such file"},
		{[]string{"-algo", "bfs", "-graph", good, "extra"}, 1, "unexpected arguments"},
		{[]string{"-bogus"}, 1, "flag provided but not defined"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"olap"}, c.args...), &stdout, &stderr)
		if code != c.code || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("gdi olap %v: exit %d, stderr %q; want exit %d and %q", c.args, code, stderr.String(), c.code, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
		t.Error("an output file was left behind")
	}
}

// TestOlapRestore: a data set loaded once with -checkpoint gives the same
// answers restored with -restore, and a restore on another number of
// ranks than the checkpoint's is refused.
func TestOlapRestore(t *testing.T) {
	ck := filepath.Join(t.TempDir(), "ckpt")
	ds := filepath.Join(olapData, "example-directed")
	outputs := map[string]string{}
	for _, keep := range [][]string{{"-checkpoint", ck}, {"-restore", ck}} {
		var out, errs bytes.Buffer
		args := append([]string{"olap", "-algo", "pr", "-graph", ds, "-ranks", "2", "-quiet"}, keep...)
		if code := run(args, &out, &errs); code != 0 {
			t.Fatalf("gdi %v exited %d: %s", args, code, errs.String())
		}
		outputs[keep[0]] = out.String()
	}
	if a, b := outputs["-checkpoint"], outputs["-restore"]; a == "" || a != b {
		t.Errorf("restored, pr answers\n%s\nloaded, it answered\n%s", b, a)
	}
	var out, errs bytes.Buffer
	args := []string{"olap", "-algo", "pr", "-graph", ds, "-restore", ck, "-quiet"}
	if code := run(args, &out, &errs); code != 1 || !strings.Contains(errs.String(), "ranks") {
		t.Errorf("gdi %v (1 rank, a checkpoint of 2) exited %d: %s", args, code, errs.String())
	}
}
