package main

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// TestBenchOLAPRoots: -roots runs that many validated searches and
// reports Graph500's figures: ordered quartiles, TEPS = nedge / time, a
// harmonic mean within the TEPS range, the construction time.
func TestBenchOLAPRoots(t *testing.T) {
	var out, errs bytes.Buffer
	args := []string{"bench", "olap", "-algo", "bfs", "-scale", "8", "-edgefactor", "8", "-ranks", "2", "-roots", "8", "-validate", "-json"}
	if code := run(args, &out, &errs); code != 0 {
		t.Fatalf("gdi %v exited %d: %s", args, code, errs.String())
	}
	var f olapFigures
	if err := json.Unmarshal(out.Bytes(), &f); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out.String())
	}
	g := f.Graph500
	if g == nil || g.NBFS != 8 || !g.Validated || g.Construction <= 0 {
		t.Fatalf("graph500 figures %+v", g)
	}
	for name, q := range map[string]quartiles{"time": g.Time, "nedge": g.NEdge, "TEPS": g.TEPS} {
		if !(q.Min > 0 && q.Min <= q.First && q.First <= q.Median && q.Median <= q.Third && q.Third <= q.Max) {
			t.Errorf("%s quartiles out of order: %+v", name, q)
		}
	}
	if g.HarmonicMeanTEPS < g.TEPS.Min || g.HarmonicMeanTEPS > g.TEPS.Max {
		t.Errorf("harmonic mean %g outside the TEPS range %+v", g.HarmonicMeanTEPS, g.TEPS)
	}
	if g.NEdge.Max > float64(1<<8*8) {
		t.Errorf("a search traversed %g edges of a graph of %d", g.NEdge.Max, 1<<8*8)
	}

	for _, bad := range [][]string{
		{"bench", "olap", "-algo", "pr", "-roots", "4"},
		{"bench", "olap", "-algo", "bfs", "-validate"},
		{"bench", "olap", "-algo", "bfs", "-roots", "-1"},
	} {
		var o, e bytes.Buffer
		if code := run(bad, &o, &e); code == 0 || !strings.Contains(e.String(), "-roots") && !strings.Contains(e.String(), "-validate") {
			t.Errorf("gdi %v: exit %d, %q; want a usage error naming the flag", bad, code, e.String())
		}
	}
}

// TestGraph500Statistics: quartiles interpolate between the nearest
// values, and the harmonic mean and deviation are the reference code's.
func TestGraph500Statistics(t *testing.T) {
	q := quartilesOf([]float64{4, 1, 3, 2, 5})
	if q != (quartiles{1, 2, 3, 4, 5}) {
		t.Errorf("quartiles of 1..5: %+v", q)
	}
	if q := quartilesOf([]float64{1, 2}); q.First != 1.25 || q.Median != 1.5 {
		t.Errorf("quartiles of 1, 2: %+v; want 1.25, 1.5", q)
	}
	mean, dev := harmonic([]float64{1, 2, 4})
	if want := 3 / (1 + 0.5 + 0.25); math.Abs(mean-want) > 1e-12 {
		t.Errorf("harmonic mean %g, want %g", mean, want)
	}
	// The reference: sqrt(sum((1/x - 1/mean)^2)/(n-1)) * mean^2 / sqrt(n).
	var s float64
	for _, x := range []float64{1, 2, 4} {
		s += (1/x - 1/mean) * (1/x - 1/mean)
	}
	if want := math.Sqrt(s/2) * mean * mean / math.Sqrt(3); math.Abs(dev-want) > 1e-12 {
		t.Errorf("harmonic deviation %g, want %g", dev, want)
	}
}
