package graphalytics

import (
	"bufio"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Edge is an edge of a data set. W is its weight (0 without a weight
// column).
type Edge struct {
	Src, Dst uint64
	W        float64
}

// Dataset is a Graphalytics graph with its parameters.
type Dataset struct {
	Name     string
	Directed bool
	// Vertices are the vertex ids, ascending and distinct.
	Vertices []uint64
	// Edges in file order. Undirected edges are listed once.
	Edges []Edge
	// Weighted tells whether the edge file has a weight column.
	Weighted bool
	// Props are the properties of NAME.properties with the prefix
	// "graph.NAME." removed.
	Props map[string]string
	// VertexFile and EdgeFile are the paths of the files read, empty for a
	// data set built in memory.
	VertexFile, EdgeFile string
}

// Prop returns the property key (without "graph.NAME.") or def.
func (d *Dataset) Prop(key, def string) string {
	if v, ok := d.Props[key]; ok {
		return v
	}
	return def
}

// PropUint returns the property key as an unsigned integer, def if absent.
func (d *Dataset) PropUint(key string, def uint64) (uint64, error) {
	v, ok := d.Props[key]
	if !ok {
		return def, nil
	}
	x, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("graphalytics: %s: property %s = %q is not an unsigned integer", d.Name, key, v)
	}
	return x, nil
}

// PropFloat returns the property key as a real, def if absent.
func (d *Dataset) PropFloat(key string, def float64) (float64, error) {
	v, ok := d.Props[key]
	if !ok {
		return def, nil
	}
	x, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("graphalytics: %s: property %s = %q is not a real", d.Name, key, v)
	}
	return x, nil
}

// Split splits PATH/NAME into the directory and the graph name.
func Split(graph string) (dir, name string) {
	return filepath.Dir(graph), filepath.Base(graph)
}

// ReadDataset reads dir/name.properties, dir/name.v and dir/name.e. The
// vertex-file and edge-file properties are ignored, as the Graphalytics
// harness derives the file names from the graph name: the official
// test-sssp-undirected.properties names the .v file as its edge file.
func ReadDataset(dir, name string) (*Dataset, error) {
	d := &Dataset{Name: name}
	props, err := readProperties(filepath.Join(dir, name+".properties"))
	if err != nil {
		return nil, err
	}
	prefix := "graph." + name + "."
	d.Props = map[string]string{}
	for k, v := range props {
		if strings.HasPrefix(k, prefix) {
			d.Props[strings.TrimPrefix(k, prefix)] = v
		}
	}
	switch dir := d.Prop("directed", ""); dir {
	case "true":
		d.Directed = true
	case "false":
	default:
		return nil, fmt.Errorf("graphalytics: %s.properties: graph.%s.directed is %q, want true or false", filepath.Join(dir, name), name, dir)
	}
	d.VertexFile = filepath.Join(dir, name+".v")
	d.EdgeFile = filepath.Join(dir, name+".e")
	if d.Vertices, err = readVertices(d.VertexFile); err != nil {
		return nil, err
	}
	if d.Edges, d.Weighted, err = readEdges(d.EdgeFile); err != nil {
		return nil, err
	}
	return d, d.Check()
}

// Check verifies that the ids are ascending and distinct and that every
// edge joins known vertices.
func (d *Dataset) Check() error {
	for i := 1; i < len(d.Vertices); i++ {
		if d.Vertices[i] <= d.Vertices[i-1] {
			return fmt.Errorf("graphalytics: %s: vertex ids not ascending and distinct at %d (%d after %d)", d.Name, i, d.Vertices[i], d.Vertices[i-1])
		}
	}
	for i, e := range d.Edges {
		for _, v := range []uint64{e.Src, e.Dst} {
			if _, ok := slices.BinarySearch(d.Vertices, v); !ok {
				return fmt.Errorf("graphalytics: %s: edge %d (%d %d) names unknown vertex %d", d.Name, i+1, e.Src, e.Dst, v)
			}
		}
		if e.W < 0 || math.IsNaN(e.W) {
			return fmt.Errorf("graphalytics: %s: edge %d (%d %d) has negative or NaN weight %v", d.Name, i+1, e.Src, e.Dst, e.W)
		}
	}
	return nil
}

func readProperties(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("graphalytics: %w", err)
	}
	defer f.Close()
	props := map[string]string{}
	sc := bufio.NewScanner(f)
	for no := 1; sc.Scan(); no++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == '!' {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			k, v, ok = strings.Cut(line, ":")
		}
		if !ok {
			return nil, fmt.Errorf("graphalytics: %s:%d: no '=' in %q", path, no, line)
		}
		props[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("graphalytics: %s: %w", path, err)
	}
	return props, nil
}

// lines calls fn for every non-empty line of path with its number.
func lines(path string, fn func(no int, line string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("graphalytics: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for no := 1; sc.Scan(); no++ {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if line == "" {
			continue
		}
		if err := fn(no, line); err != nil {
			return fmt.Errorf("graphalytics: %s:%d: %w", path, no, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("graphalytics: %s: %w", path, err)
	}
	return nil
}

// parseID parses a vertex id: a decimal number without sign or leading
// zeros, so that every id has one spelling (the one the output uses).
func parseID(s string) (uint64, error) {
	x, err := strconv.ParseUint(s, 10, 64)
	if err != nil || (len(s) > 1 && s[0] == '0') {
		return 0, fmt.Errorf("%q is not a vertex id", s)
	}
	return x, nil
}

func readVertices(path string) ([]uint64, error) {
	var vs []uint64
	err := lines(path, func(_ int, line string) error {
		x, err := parseID(line)
		vs = append(vs, x)
		return err
	})
	return vs, err
}

func readEdges(path string) ([]Edge, bool, error) {
	var es []Edge
	cols := 0
	err := lines(path, func(_ int, line string) error {
		f := strings.Split(line, " ")
		if cols == 0 {
			cols = len(f)
		}
		if len(f) != cols || cols < 2 || cols > 3 {
			return fmt.Errorf("%d fields in %q, want %d (src dst[ weight])", len(f), line, max(min(cols, 3), 2))
		}
		var e Edge
		var err error
		if e.Src, err = parseID(f[0]); err != nil {
			return err
		}
		if e.Dst, err = parseID(f[1]); err != nil {
			return err
		}
		if cols == 3 {
			if e.W, err = strconv.ParseFloat(f[2], 64); err != nil || strings.HasPrefix(f[2], "+") {
				return fmt.Errorf("weight %q is not a real", f[2])
			}
		}
		es = append(es, e)
		return nil
	})
	return es, cols == 3, err
}

// ReadExpected reads an output file (expected or produced): "id value"
// lines. It returns the values by vertex id.
func ReadExpected(path string) (map[uint64]string, error) {
	out := map[uint64]string{}
	err := lines(path, func(_ int, line string) error {
		id, v, ok := strings.Cut(strings.TrimSpace(line), " ")
		if !ok {
			return fmt.Errorf("no value in %q", line)
		}
		x, err := parseID(id)
		if err != nil {
			return err
		}
		if _, dup := out[x]; dup {
			return fmt.Errorf("vertex %d listed twice", x)
		}
		out[x] = strings.TrimSpace(v)
		return nil
	})
	return out, err
}

// Algorithms whose expected outputs a data set directory may hold.
var Algorithms = []string{"BFS", "CDLP", "LCC", "PR", "SSSP", "WCC"}

// Validate compares actual with expected under the rules of algorithm alg
// (BFS, CDLP, WCC, PR, LCC or SSSP; case does not matter).
func Validate(alg string, expected, actual map[uint64]string) error {
	if len(expected) != len(actual) {
		return fmt.Errorf("graphalytics: %d vertices, want %d", len(actual), len(expected))
	}
	for v := range expected {
		if _, ok := actual[v]; !ok {
			return fmt.Errorf("graphalytics: vertex %d missing", v)
		}
	}
	ids := make([]uint64, 0, len(expected))
	for v := range expected {
		ids = append(ids, v)
	}
	slices.Sort(ids)
	var bad []string
	report := func(v uint64, why string) {
		if len(bad) < 5 {
			bad = append(bad, fmt.Sprintf("vertex %d: got %s, want %s%s", v, actual[v], expected[v], why))
		}
	}
	switch strings.ToUpper(alg) {
	case "BFS", "CDLP", "KHOP":
		for _, v := range ids {
			a, err1 := strconv.ParseInt(actual[v], 10, 64)
			e, err2 := strconv.ParseInt(expected[v], 10, 64)
			if err1 != nil || err2 != nil || a != e {
				report(v, "")
			}
		}
	case "WCC":
		fwd, back := map[string]string{}, map[string]string{}
		for _, v := range ids {
			a, e := actual[v], expected[v]
			if m, ok := fwd[e]; ok && m != a {
				report(v, fmt.Sprintf(" (component of label %s is labelled %s elsewhere)", e, m))
			}
			if m, ok := back[a]; ok && m != e {
				report(v, fmt.Sprintf(" (label %s also names component %s)", a, m))
			}
			fwd[e], back[a] = a, e
		}
	case "PR", "LCC", "SSSP":
		for _, v := range ids {
			a, err1 := parseReal(actual[v])
			e, err2 := parseReal(expected[v])
			switch {
			case err1 != nil || err2 != nil:
				report(v, " (not a real)")
			case math.IsInf(e, 0) || math.IsInf(a, 0):
				if a != e {
					report(v, "")
				}
			case math.Abs(e-a) > 1e-4*math.Abs(e):
				report(v, " (beyond 1e-4 relative)")
			}
		}
	default:
		return fmt.Errorf("graphalytics: no validation rule for algorithm %q", alg)
	}
	if len(bad) > 0 {
		return errors.New("graphalytics: " + alg + " output differs: " + strings.Join(bad, "; "))
	}
	return nil
}

// parseReal parses a real as Graphalytics writes it, infinity included.
func parseReal(s string) (float64, error) {
	switch strings.ToLower(s) {
	case "infinity", "inf", "+infinity":
		return math.Inf(1), nil
	}
	x, err := strconv.ParseFloat(s, 64)
	if err == nil && math.IsNaN(x) {
		err = errors.New("NaN")
	}
	return x, err
}
