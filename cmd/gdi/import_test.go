package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImport imports what gdi gen -format csv writes, with a checkpoint
// that gdi check then opens, and reports a malformed file by name and
// line.
func TestImport(t *testing.T) {
	dir, ck := t.TempDir(), filepath.Join(t.TempDir(), "ckpt")
	gen(t, "-scale", "7", "-edgefactor", "4", "-format", "csv", "-o", dir, "-quiet")
	var out, errs bytes.Buffer
	if code := run([]string{"import", "-ranks", "3", "-checkpoint", ck, dir}, &out, &errs); code != 0 {
		t.Fatalf("gdi import exited %d: %s", code, errs.String())
	}
	for _, want := range []string{"imported 128 vertices and 512 edges from 20 files on 3 ranks", "M edges/s", "checkpoint: " + ck} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in the output %q", want, out.String())
		}
	}
	if !strings.Contains(errs.String(), "import: 128 vertices read") {
		t.Errorf("no progress on stderr: %q", errs.String())
	}
	out.Reset()
	if code := run([]string{"check", ck}, &out, &errs); code != 0 {
		t.Fatalf("gdi check of the import's checkpoint exited %d: %s", code, errs.String())
	}
	person := filepath.Join(dir, "vertex_Person.csv")
	b, err := os.ReadFile(person)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	lines[3] = "x,y\n"
	if err := os.WriteFile(person, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	errs.Reset()
	if code := run([]string{"import", "-quiet", dir}, &out, &errs); code != 1 || !strings.Contains(errs.String(), "vertex_Person.csv:4: 2 fields, the header has 5") {
		t.Errorf("gdi import of a malformed file exited %d: %q", code, errs.String())
	}
}
