package svgplot

import (
	"math"
	"strconv"
	"strings"
)

// minLinearTicks is the fewest labelled ticks of a linear axis.
const minLinearTicks = 5

// linearTicks returns the domain of a linear axis over [lo, hi] and its
// ticks: the domain is widened to multiples of the step, the largest of
// 1, 2 or 5 × 10^k that gives at least minLinearTicks ticks.
func linearTicks(lo, hi float64) (float64, float64, []tick) {
	if lo == hi { // one value: put it in the middle
		d := math.Max(math.Abs(lo)/2, 1)
		lo, hi = lo-d, hi+d
	}
	for e := math.Ceil(math.Log10(hi - lo)); ; e-- {
		for _, m := range []float64{5, 2, 1} {
			step := m * math.Pow(10, e)
			first, last := math.Floor(lo/step+1e-9), math.Ceil(hi/step-1e-9)
			if last-first+1 < minLinearTicks {
				continue
			}
			decimals := max(0, int(-math.Floor(math.Log10(step)+1e-9)))
			var ticks []tick
			for k := range int(last-first) + 1 {
				v := (first + float64(k)) * step
				ticks = append(ticks, tick{v, strconv.FormatFloat(v, 'f', decimals, 64), true})
			}
			return first * step, last * step, ticks
		}
	}
}

// logTicks returns the domain of a log10 axis over [lo, hi], widened to
// powers of ten, and its ticks: every power of ten, labelled, and 2 to 9
// times each but the last, labelled only if there are fewer than three
// powers.
func logTicks(lo, hi float64) (float64, float64, []tick) {
	e0, e1 := int(math.Floor(math.Log10(lo))), int(math.Ceil(math.Log10(hi)))
	if e0 == e1 {
		e1++
	}
	labelMinor := e1-e0+1 < 3
	var ticks []tick
	for e := e0; e <= e1; e++ {
		ticks = append(ticks, tick{math.Pow10(e), logLabel(1, e), true})
		for m := 2; m <= 9 && e < e1; m++ {
			t := tick{at: float64(m) * math.Pow10(e)}
			if labelMinor {
				t.label = logLabel(m, e)
			}
			ticks = append(ticks, t)
		}
	}
	return math.Pow10(e0), math.Pow10(e1), ticks
}

// logLabel writes m × 10^e in plain decimals.
func logLabel(m, e int) string {
	return strconv.FormatFloat(float64(m)*math.Pow10(e), 'f', max(0, -e), 64)
}

// ninesTicks returns the domain of a nines axis over [lo, hi], widened to
// integers, and its ticks: every integer, labelled as a percentile.
func ninesTicks(lo, hi float64) (float64, float64, []tick) {
	first, last := math.Floor(lo), math.Ceil(hi)
	if first == last {
		last++
	}
	var ticks []tick
	for n := int(first); n <= int(last); n++ {
		ticks = append(ticks, tick{float64(n), ninesLabel(n), true})
	}
	return first, last, ticks
}

// ninesLabel names the percentile of n nines: p0, p90, p99, p99.9, ...
func ninesLabel(n int) string {
	switch n {
	case 0:
		return "p0"
	case 1:
		return "p90"
	}
	return "p99" + strings.TrimSuffix("."+strings.Repeat("9", n-2), ".")
}
