package svgplot

import (
	"math"
	"slices"
	"strconv"
	"testing"
)

func inf() float64 { return math.Inf(1) }
func nan() float64 { return math.NaN() }

// labels returns the labels of the ticks that have one.
func labels(ticks []tick) []string {
	var l []string
	for _, t := range ticks {
		if t.label != "" {
			l = append(l, t.label)
		}
	}
	return l
}

// TestLinearTicks: at least five ticks, 1, 2 or 5 × 10^k apart, from
// below the data to above it, labelled with their values.
func TestLinearTicks(t *testing.T) {
	for _, r := range [][2]float64{{0, 1}, {0, 3100}, {3, 4}, {-7, 7}, {0.013, 0.018}, {5, 5}, {0, 0}, {1e6, 1e6 + 3}, {0, 97}} {
		lo, hi, ticks := linearTicks(r[0], r[1])
		if len(ticks) < 5 || len(ticks) > 15 {
			t.Errorf("%v: %d ticks", r, len(ticks))
			continue
		}
		step := ticks[1].at - ticks[0].at
		m := step / math.Pow10(int(math.Floor(math.Log10(step)+1e-9)))
		if !slices.ContainsFunc([]float64{1, 2, 5}, func(w float64) bool { return math.Abs(m-w) < 1e-6 }) {
			t.Errorf("%v: step %v", r, step)
		}
		if lo != ticks[0].at || hi != ticks[len(ticks)-1].at || lo > r[0]+step*1e-9 || hi < r[1]-step*1e-9 || lo == hi {
			t.Errorf("%v: domain [%v, %v], ticks %v", r, lo, hi, ticks)
		}
		for _, tk := range ticks {
			if v, err := strconv.ParseFloat(tk.label, 64); err != nil || math.Abs(v-tk.at) > step/100 {
				t.Errorf("%v: tick at %v labelled %q", r, tk.at, tk.label)
			}
		}
	}
}

// TestLogTicks: every power of ten in range labelled; the multiples
// between them labelled only over a single decade.
func TestLogTicks(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		want   []string
	}{
		{3, 2000, []string{"1", "10", "100", "1000", "10000"}},
		{0.02, 0.5, []string{"0.01", "0.1", "1"}},
		{0.02, 0.05, []string{"0.01", "0.02", "0.03", "0.04", "0.05", "0.06", "0.07", "0.08", "0.09", "0.1"}},
		{10, 10, []string{"10", "20", "30", "40", "50", "60", "70", "80", "90", "100"}},
		{2, 80, []string{"1", "10", "100"}},
	} {
		lo, hi, ticks := logTicks(c.lo, c.hi)
		if got := labels(ticks); !slices.Equal(got, c.want) {
			t.Errorf("[%v, %v]: labels %q, want %q", c.lo, c.hi, got, c.want)
		}
		if lo > c.lo || hi < c.hi || len(ticks) != ticksIn(lo, hi) {
			t.Errorf("[%v, %v]: domain [%v, %v], %d ticks", c.lo, c.hi, lo, hi, len(ticks))
		}
	}
}

// ticksIn is the number of ticks of a log axis over the decades [lo, hi]:
// 9 a decade and the last power.
func ticksIn(lo, hi float64) int {
	return 9*int(math.Round(math.Log10(hi/lo))) + 1
}

func TestNinesLabel(t *testing.T) {
	for n, want := range []string{"p0", "p90", "p99", "p99.9", "p99.99", "p99.999"} {
		if got := ninesLabel(n); got != want {
			t.Errorf("ninesLabel(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestCrowdedLabels: labels that would overlap are dropped, the majors'
// at an even stride, and the survivors do not overlap.
func TestCrowdedLabels(t *testing.T) {
	var ps []placed
	for i := range 16 { // majors at every third, minors between
		ps = append(ps, placed{tick{float64(i), ninesLabel(i), i%3 == 0}, float64(i) * 25})
	}
	extent := func(s string) float64 { return textWidth(s, fontSize) }
	dropCrowdedLabels(ps, extent)
	var kept []placed
	var majors []int
	for i, p := range ps {
		if p.label == "" {
			continue
		}
		if crowds(p, kept, extent) {
			t.Errorf("label %q at %v overlaps one before", p.label, p.pos)
		}
		kept = append(kept, p)
		if p.major {
			majors = append(majors, i)
		}
	}
	if len(majors) < 3 || majors[0] != 0 {
		t.Fatalf("kept %v", kept)
	}
	for j := range majors {
		if majors[j] != j*majors[1] {
			t.Errorf("major labels kept at %v, not at an even stride", majors)
		}
	}
}
