package graphalytics

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// nonBlank returns the lines of s that hold more than white space, trimmed.
func nonBlank(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// FuzzReadDataset feeds ReadDataset arbitrary .properties, .v and .e files,
// as gdi olap reads them. It must not panic, and a data set it accepts has
// one vertex per non-blank line of the .v file, each written there, and one
// edge per non-blank line of the .e file.
func FuzzReadDataset(f *testing.F) {
	props := "graph.g.directed = true\ngraph.g.bfs.source-vertex = 1\n"
	f.Add(props, "1\n2\n3\n", "1 2\n2 3 0.5\n")
	f.Add(props, "1\n2\n", "1 2 x\n")
	f.Add("graph.g.directed = maybe\n", "1\n", "")
	f.Add("graph.g.directed = false\n", "3\n1\n", "1 3\n1 3\n")
	f.Add(props, "18446744073709551615\n-1\n", "1 2 3 4\n\x00\n")
	f.Fuzz(func(t *testing.T, properties, vertices, edges string) {
		dir := t.TempDir()
		for name, data := range map[string]string{"g.properties": properties, "g.v": vertices, "g.e": edges} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		d, err := ReadDataset(dir, "g")
		if err != nil {
			return
		}
		vlines, elines := nonBlank(vertices), nonBlank(edges)
		if len(d.Vertices) != len(vlines) || len(d.Edges) != len(elines) {
			t.Fatalf("accepted %d vertices from %d lines and %d edges from %d lines", len(d.Vertices), len(vlines), len(d.Edges), len(elines))
		}
		for i, v := range d.Vertices {
			if !slices.Contains(vlines, strconv.FormatUint(v, 10)) {
				t.Fatalf("vertex %d (number %d) is not a line of the file %q", v, i, vertices)
			}
		}
	})
}
