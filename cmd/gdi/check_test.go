package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheck runs gdi check on the log directory of a short OLTP run with
// a synced log, then on copies with a byte of a log record flipped and
// with the manifest removed: the first passes, the others exit 1 naming
// the damaged file.
func TestCheck(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "log")
	var out, errs bytes.Buffer
	if code := run([]string{"bench", "oltp", "-scale", "8", "-count", "300", "-log", "sync", "-logdir", dir}, &out, &errs); code != 0 {
		t.Fatalf("gdi bench exited %d: %s", code, errs.String())
	}
	out.Reset()
	errs.Reset()
	if code := run([]string{"check", dir}, &out, &errs); code != 0 {
		t.Fatalf("gdi check of an intact directory exited %d: %s%s", code, out.String(), errs.String())
	}
	for _, want := range []string{"checkpoint: generation", "rank-1.log:", "records after the checkpoint", "consistent"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("gdi check output lacks %q:\n%s", want, out.String())
		}
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "gen-*", "rank-0.log"))
	if len(logs) != 1 {
		t.Fatalf("logs %v, want one rank-0.log", logs)
	}
	b, err := os.ReadFile(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0x20
	if err := os.WriteFile(logs[0], b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		spoil func() error
		file  string
	}{
		{"flipped", func() error { return nil }, "rank-0.log"},
		{"no-manifest", func() error { return os.Remove(filepath.Join(dir, "manifest.json")) }, "manifest.json"},
	} {
		if err := c.spoil(); err != nil {
			t.Fatal(err)
		}
		out.Reset()
		errs.Reset()
		if code := run([]string{"check", dir}, &out, &errs); code != 1 || !strings.Contains(errs.String(), c.file) {
			t.Errorf("%s: gdi check exited %d, want 1 with an error naming %s: %s", c.name, code, c.file, errs.String())
		}
	}
}
