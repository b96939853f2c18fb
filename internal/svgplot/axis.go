package svgplot

import (
	"fmt"
	"math"
	"slices"
)

// Scale is the way an axis spreads its values.
type Scale int

const (
	// Linear spaces equal differences equally. Its ticks are 1, 2 or
	// 5 × 10^k apart, at least five of them labelled.
	Linear Scale = iota
	// Log10 spaces equal ratios equally. It labels every power of ten,
	// and the multiples 2 to 9 between them as well if it spans one
	// decade only.
	Log10
	// Nines counts nines: the value n stands for the percentile
	// 100 (1 - 10^-n), so 0 is p0, 1 is p90, 2 is p99 and 3 is p99.9. It
	// has a tick at every integer, labelled with its percentile. Its
	// values must not be negative.
	Nines
)

// Axis is the label and the scale of an axis.
type Axis struct {
	Label string
	Scale Scale
}

// axis is an Axis fitted to data: its domain and its ticks.
type axis struct {
	label  string
	lo, hi float64 // the domain, in data units
	log    bool
	grid   bool // draw a grid line across the plot area at every tick
	ticks  []tick
}

// tick is a mark on an axis, at a value in data units; minor ticks are
// shorter, with a fainter grid line. The label is "" where there is none.
type tick struct {
	at    float64
	label string
	major bool
}

// fit returns the axis of a for values, which are not empty.
func (a Axis) fit(values []float64) (*axis, error) {
	for _, v := range values {
		switch {
		case math.IsNaN(v) || math.IsInf(v, 0):
			return nil, fmt.Errorf("svgplot: axis %q: cannot draw %v", a.Label, v)
		case a.Scale == Log10 && v <= 0:
			return nil, fmt.Errorf("svgplot: axis %q: %v is not positive, and the axis is logarithmic", a.Label, v)
		case a.Scale == Nines && v < 0:
			return nil, fmt.Errorf("svgplot: axis %q: %v is negative, and the axis counts nines", a.Label, v)
		}
	}
	lo, hi := slices.Min(values), slices.Max(values)
	ax := &axis{label: a.Label, grid: true}
	switch a.Scale {
	case Log10:
		ax.log = true
		ax.lo, ax.hi, ax.ticks = logTicks(lo, hi)
	case Nines:
		ax.lo, ax.hi, ax.ticks = ninesTicks(lo, hi)
	default:
		ax.lo, ax.hi, ax.ticks = linearTicks(lo, hi)
	}
	return ax, nil
}

// frac returns where v lies in the domain: 0 at lo, 1 at hi.
func (a *axis) frac(v float64) float64 {
	if a.log {
		return (math.Log10(v) - math.Log10(a.lo)) / (math.Log10(a.hi) - math.Log10(a.lo))
	}
	return (v - a.lo) / (a.hi - a.lo)
}
