package svgplot

import "math"

// labelGap is the least room between two tick labels, in pixels.
const labelGap = 6

// placed is a tick at its position along the axis, in pixels.
type placed struct {
	tick
	pos float64
}

// dropCrowdedLabels clears the labels that would overlap others: it keeps
// the labels of every k-th major tick, k the least stride at which they
// do not overlap, then the labels of the minor ticks that overlap none
// kept before, in order along the axis. extent gives the length of a
// label along the axis.
func dropCrowdedLabels(ps []placed, extent func(label string) float64) {
	var majors []int // the indexes of the labelled major ticks
	for i, p := range ps {
		if p.major && p.label != "" {
			majors = append(majors, i)
		}
	}
	k := majorStride(ps, majors, extent)
	var kept []placed
	for j, i := range majors {
		if j%k == 0 {
			kept = append(kept, ps[i])
		} else {
			ps[i].label = ""
		}
	}
	for i := range ps {
		if p := &ps[i]; !p.major && p.label != "" {
			if crowds(*p, kept, extent) {
				p.label = ""
			} else {
				kept = append(kept, *p)
			}
		}
	}
}

// majorStride returns the least k such that the labels of every k-th of
// the ticks ps[majors[j]] do not overlap.
func majorStride(ps []placed, majors []int, extent func(string) float64) int {
	for k := 1; ; k++ {
		var kept []placed
		for j := 0; j < len(majors) && !crowds(ps[majors[j]], kept, extent); j += k {
			kept = append(kept, ps[majors[j]])
		}
		if len(kept) == (len(majors)+k-1)/k {
			return k
		}
	}
}

// crowds reports whether the label of p overlaps a label of kept.
func crowds(p placed, kept []placed, extent func(string) float64) bool {
	for _, k := range kept {
		if math.Abs(p.pos-k.pos) < (extent(p.label)+extent(k.label))/2+labelGap {
			return true
		}
	}
	return false
}
