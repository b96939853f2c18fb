package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

func gen(t *testing.T, args ...string) (stdout, stderr string) {
	t.Helper()
	var out, errs bytes.Buffer
	if code := run(append([]string{"gen"}, args...), &out, &errs); code != 0 {
		t.Fatalf("gdi gen %v exited %d: %s", args, code, errs.String())
	}
	return out.String(), errs.String()
}

func TestGenEdgeListSameForAnyRanks(t *testing.T) {
	one, _ := gen(t, "-scale", "10", "-edgefactor", "8", "-seed", "5")
	lines := strings.Split(strings.TrimSuffix(one, "\n"), "\n")
	if len(lines) != 8<<10 {
		t.Fatalf("%d lines, want %d", len(lines), 8<<10)
	}
	for _, line := range lines {
		f := strings.Fields(line)
		if len(f) != 2 {
			t.Fatalf("line %q", line)
		}
		for _, x := range f {
			if n, err := strconv.ParseUint(x, 10, 64); err != nil || n >= 1<<10 {
				t.Fatalf("line %q: vertex out of [0, 1024)", line)
			}
		}
	}
	for _, ranks := range []string{"2", "4"} {
		if other, _ := gen(t, "-scale", "10", "-edgefactor", "8", "-seed", "5", "-ranks", ranks); other != one {
			t.Errorf("the edge list on %s ranks differs from that on 1", ranks)
		}
	}
	if other, _ := gen(t, "-scale", "10", "-edgefactor", "8", "-seed", "6"); other == one {
		t.Error("seeds 5 and 6 give the same edge list")
	}
	dir := t.TempDir()
	gen(t, "-scale", "10", "-edgefactor", "8", "-seed", "5", "-ranks", "3", "-o", dir)
	if data, err := os.ReadFile(filepath.Join(dir, "edgelist.txt")); err != nil || string(data) != one {
		t.Errorf("edgelist.txt differs from the standard output (%v)", err)
	}
}

func TestGenCSV(t *testing.T) {
	a, b := t.TempDir(), filepath.Join(t.TempDir(), "new", "dir")
	gen(t, "-scale", "9", "-format", "csv", "-o", a)
	gen(t, "-scale", "9", "-format", "csv", "-o", b, "-ranks", "3")
	files, _ := filepath.Glob(filepath.Join(a, "*.csv"))
	if len(files) != 20 {
		t.Fatalf("%d CSV files, want 20: %v", len(files), files)
	}
	for _, f := range files {
		x, _ := os.ReadFile(f)
		y, err := os.ReadFile(filepath.Join(b, filepath.Base(f)))
		if err != nil || !bytes.Equal(x, y) {
			t.Errorf("%s differs between 1 and 3 ranks (%v)", filepath.Base(f), err)
		}
	}
	gen(t, "-scale", "6", "-format", "csv", "-o", a, "-directed")
	files, _ = filepath.Glob(filepath.Join(a, "edge_worksAt_*.csv"))
	if len(files) != 2 {
		t.Errorf("directed: %d worksAt files, want 2 (Company-Person and Person-Company)", len(files))
	}
}

// TestGenLoad bulk-loads a small graph into gdirma and checks the figures.
func TestGenLoad(t *testing.T) {
	for _, ranks := range []string{"1", "3"} {
		out, errs := gen(t, "-scale", "8", "-edgefactor", "8", "-format", "load", "-ranks", ranks, "-directed")
		for _, want := range []string{"loaded 256 vertices and 2048 edges on " + ranks + " ranks", "M edges/s", "bytes per edge", "bytes per vertex"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s ranks: no %q in the output %q", ranks, want, out)
			}
		}
		if !strings.Contains(errs, "bulk loading 256 vertices and 2048 edges") {
			t.Errorf("%s ranks: no progress on stderr: %q", ranks, errs)
		}
	}
}

// TestGenLoadCheckpoint loads a graph, checkpoints it, and restores it.
func TestGenLoadCheckpoint(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ckpt")
	out, _ := gen(t, "-scale", "7", "-edgefactor", "4", "-format", "load", "-ranks", "2", "-checkpoint", dir, "-quiet")
	if !strings.Contains(out, "checkpoint: "+dir+" written") {
		t.Errorf("no checkpoint in the output %q", out)
	}
	err := local.Run(2, func(c rma.Comm) error {
		db, err := gdirma.Driver{}.CreateDatabase(c, gdirma.Params{Restore: dir})
		if err != nil {
			return err
		}
		ms, err := db.(*gdirma.Database).MemoryStats()
		if err == nil && ms.BlocksInUse < 128 {
			err = fmt.Errorf("%d blocks in use for 128 vertices", ms.BlocksInUse)
		}
		return errors.Join(err, db.Free())
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestGenErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"-bogus"},
		{"-scale", "x"},
		{"-scale", "0"},
		{"-scale", "-3"},
		{"-scale", "49"},
		{"-edgefactor", "0"},
		{"-edgefactor", "99999999999999999999"},
		{"-scale", "40", "-edgefactor", "1000000"},
		{"-seed", "-1"},
		{"-ranks", "0"},
		{"-format", "xml"},
		{"-format", "csv"},
		{"-format", "csv", "-o", "-"},
		{"-o", ""},
		{"-o", file},
		{"-format", "csv", "-o", filepath.Join(file, "sub")},
		{"extra"},
		{"-format", "load", "-o", "dir"},
		{"-checkpoint", "dir"},
		{"-format", "load", "-memory", "-1"},
		{"-format", "load", "-blocksize", "-8"},
		{"-format", "load", "-blocksize", "100"},
		{"-format", "load", "-memory", "1", "-scale", "14"},
	} {
		var out, errs bytes.Buffer
		code := run(append([]string{"gen", "-scale", "4"}, args...), &out, &errs)
		if code == 0 {
			t.Errorf("gdi gen %v exited 0", args)
		}
		if errs.Len() == 0 {
			t.Errorf("gdi gen %v: no message on stderr", args)
		}
	}
}

// TestProgressBar: a bar on a writer that is no terminal writes plain
// lines, no carriage return, at most every plainEvery, and a summary.
func TestProgressBar(t *testing.T) {
	var w bytes.Buffer
	b := newProgressBar(&w, "gen", 1000, 200, "edges")
	b.add(100)
	if w.Len() != 0 {
		t.Errorf("drawn before %v: %q", plainEvery, w.String())
	}
	b.line.last = time.Now().Add(-plainEvery)
	b.add(200)
	if !strings.HasSuffix(w.String(), " 50% 500/1000 edges\n") {
		t.Errorf("bar at 500 of 1000: %q", w.String())
	}
	if strings.Contains(w.String(), "\r") {
		t.Errorf("a carriage return in a log: %q", w.String())
	}
	b.finish(time.Second)
	sc := bufio.NewScanner(&w)
	var last string
	for sc.Scan() {
		last = sc.Text()
	}
	if last != "gen: 1000 edges in 1s (1.0 k/s)" {
		t.Errorf("summary %q", last)
	}
	var nilBar *progressBar
	nilBar.add(5)
	nilBar.finish(time.Second)
}

// TestIsTerminal: a character device counts as a terminal, a file or a
// buffer does not.
func TestIsTerminal(t *testing.T) {
	dev, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer dev.Close()
	file, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	if !isTerminal(dev) || isTerminal(file) || isTerminal(&bytes.Buffer{}) {
		t.Errorf("isTerminal: %s %v, a file %v, a buffer %v", os.DevNull, isTerminal(dev), isTerminal(file), isTerminal(&bytes.Buffer{}))
	}
}
