package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// buildGDI builds the command into a temporary directory, for tests that
// run it as a user would.
func buildGDI(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "gdi")
	out, err := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestCLIConventions runs the built command: help of every kind exits 0
// with prose usage, an argument that is no flag is an error (exit 1,
// named), no command at all exits 2, and gdi version prints the module's
// version.
func TestCLIConventions(t *testing.T) {
	bin := buildGDI(t)
	gdi := func(args ...string) (string, int) {
		out, err := exec.Command(bin, args...).CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), code
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-h"}, "gdi help <command>"},
		{[]string{"help"}, "bench oltp"},
		{[]string{"help", "demo"}, "usage: gdi demo"},
		{[]string{"demo", "-h"}, "Exercises the foundation layer"},
		{[]string{"bench", "-h"}, "gdi bench olap"},
		{[]string{"bench", "oltp", "-h"}, "runs the OLTP mix"},
		{[]string{"bench", "olap", "-h"}, "collective read transaction"},
		{[]string{"gen", "-h"}, "usage: gdi gen"},
		{[]string{"olap", "-h"}, "Graphalytics"},
		{[]string{"check", "-h"}, "usage: gdi check"},
		{[]string{"import", "-h"}, "neo4j-admin import"},
		{[]string{"version"}, "gdi "},
	} {
		out, code := gdi(c.args...)
		if code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("gdi %v exited %d, want 0 with %q:\n%s", c.args, code, c.want, out)
		}
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "usage: gdi <command>"},
		{[]string{"bench", "oltp", "-scale", "6", "extra"}, 1, `unexpected arguments ["extra"]`},
		{[]string{"bench", "olap", "extra"}, 1, `unexpected arguments ["extra"]`},
		{[]string{"demo", "extra"}, 1, `unexpected arguments ["extra"]`},
		{[]string{"version", "extra"}, 1, `unexpected arguments ["extra"]`},
		{[]string{"bench"}, 1, "want oltp or olap"},
		{[]string{"nosuch"}, 2, `unknown command "nosuch"`},
		// One bound per flag, in every command that has it.
		{[]string{"bench", "oltp", "-scale", "41"}, 1, "-scale must be in [1, 40], not 41"},
		{[]string{"gen", "-scale", "41"}, 1, "-scale must be in [1, 40], not 41"},
		{[]string{"bench", "olap", "-scale", "0"}, 1, "-scale must be in [1, 40], not 0"},
		{[]string{"bench", "olap", "-scale", "33"}, 1, "numbers the vertices of the extracted graph in 32 bits"},
		{[]string{"bench", "oltp", "-goroutines", "0"}, 1, "-goroutines must be in [1, 1024], not 0"},
		{[]string{"bench", "oltp", "-duration", "-1s"}, 1, "-duration must be in [0s, 168h0m0s], not -1s"},
		{[]string{"olap", "-graph", "x", "-k", "-1"}, 1, "-k must be in [0, 1024], not -1"},
		{[]string{"import", "-memory", "-1", "."}, 1, "-memory must be in [0, 1073741824], not -1"},
		{[]string{"demo", "-ranks", "5000"}, 1, "-ranks must be in [1, 4096], not 5000"},
		{[]string{"bench", "olap", "-minweight", "NaN"}, 1, "-minweight must be in [0, 1], not NaN"},
	} {
		out, code := gdi(c.args...)
		if code != c.code || !strings.Contains(out, c.want) {
			t.Errorf("gdi %v exited %d, want %d with %q:\n%s", c.args, code, c.code, c.want, out)
		}
	}
}

// TestMemoryCheck: a graph or a number of ranks whose blocks cannot fit
// in the machine's memory is refused before anything is allocated, with
// the sizes in binary units.
func TestMemoryCheck(t *testing.T) {
	if machineMemory() == 0 {
		t.Skip("the size of this machine's memory is not known")
	}
	for _, args := range [][]string{
		{"bench", "oltp", "-scale", "40", "-count", "10"},
		{"bench", "oltp", "-ranks", "4096", "-count", "10"},
		{"bench", "olap", "-scale", "30"},
		{"gen", "-scale", "40", "-format", "load"},
	} {
		var out, errs bytes.Buffer
		if code := run(args, &out, &errs); code != 1 || !strings.Contains(errs.String(), "iB of block memory") || !strings.Contains(errs.String(), "of this machine") {
			t.Errorf("gdi %v exited %d: %q", args, code, errs.String())
		}
	}
	for n, want := range map[uint64]string{100: "100 B", 1536: "1.5 KiB", 40 << 20: "40.0 MiB", 3 << 50: "3.0 PiB"} {
		if got := sizeString(n); got != want {
			t.Errorf("sizeString(%d) = %q, want %q", n, got, want)
		}
	}
}
