package main

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// svgElements checks that file is one well-formed XML document and
// returns the attributes of its elements of the class.
func svgElements(t *testing.T, file, class string) []map[string]string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var found []map[string]string
	d := xml.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return found
		}
		if err != nil {
			t.Fatalf("%s is not well-formed XML: %v", file, err)
		}
		if e, ok := tok.(xml.StartElement); ok {
			attrs := map[string]string{}
			for _, a := range e.Attr {
				attrs[a.Name.Local] = a.Value
			}
			if attrs["class"] == class {
				found = append(found, attrs)
			}
		}
	}
}

// TestPlotFileChecked: a -plot file that cannot be written fails the
// command before the run starts (no load, nothing on stdout, one line on
// stderr that names the path and says why), and writes nothing.
func TestPlotFileChecked(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "sub.svg"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ file, why string }{
		{"/nonexistent/dir/x.svg", "cannot create a file in /nonexistent/dir: no such file or directory"},
		{filepath.Join(dir, "lat.png"), "the file must end in .svg (an SVG opens in every web browser)"},
		{filepath.Join(dir, "sub.svg"), "is a directory"},
	} {
		for _, cmd := range [][]string{
			{"bench", "oltp", "-scale", "5", "-ranks", "1", "-count", "300"},
			{"bench", "olap", "-algo", "pr", "-scale", "5", "-ranks", "1"},
		} {
			args := append(cmd, "-plot", c.file)
			var out, errs bytes.Buffer
			// Every error of a command exits 1; only a missing or unknown
			// command exits 2.
			code := run(args, &out, &errs)
			if code != 1 || out.Len() > 0 || strings.Count(errs.String(), "\n") != 1 ||
				!strings.Contains(errs.String(), "-plot "+c.file+": "+c.why) {
				t.Errorf("gdi %v exited %d, stdout %q, stderr %q; want 1, nothing, and the path and %q", args, code, out.String(), errs.String(), c.why)
			}
		}
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*")); len(files) != 1 {
		t.Errorf("files left: %q", files)
	}
}
