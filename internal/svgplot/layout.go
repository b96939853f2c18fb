package svgplot

import "unicode/utf8"

// Sizes in pixels.
const (
	minWidth, minHeight = 900.0, 520.0
	minPlotWidth        = 400.0
	fontSize            = 13.0
	titleSize           = 16.0
	pad                 = 12.0 // room at the edges and between parts
	tickLength          = 5.0
	lineWidth           = 2.0
)

// rect is a rectangle: its top left corner, its width and its height.
type rect struct{ x, y, w, h float64 }

// right and bottom return the x of the right edge and the y of the
// bottom edge of r.
func (r rect) right() float64  { return r.x + r.w }
func (r rect) bottom() float64 { return r.y + r.h }

// textWidth estimates the width of s written at size: the glyphs of a
// sans-serif font average less than 0.6 of its size.
func textWidth(s string, size float64) float64 {
	return float64(utf8.RuneCountInString(s)) * 0.6 * size
}

// labelsWidth returns the width of the widest tick label of ticks.
func labelsWidth(ticks []tick) float64 {
	w := 0.0
	for _, t := range ticks {
		w = max(w, textWidth(t.label, fontSize))
	}
	return w
}

// layout is where the parts of a picture go.
type layout struct {
	width, height float64
	plot          rect // the data area
	legend        rect // the legend, to the right of plot; zero if none
}

// newLayout lays out a picture with a title (none if ""), axes x and y,
// and a legend of names (none if empty). The picture grows beyond
// minWidth by minHeight where the labels or the legend need it.
func newLayout(title string, x, y *axis, names []string) layout {
	top := pad
	if title != "" {
		top += titleSize + pad
	}
	left := pad + fontSize + pad + labelsWidth(y.ticks) + tickLength + pad/2
	bottom := tickLength + pad/2 + fontSize + pad + fontSize + pad
	right := pad + textWidth(x.ticks[len(x.ticks)-1].label, fontSize)/2
	var legend rect
	if len(names) > 0 {
		legend.w, legend.h = legendSize(names)
		right = legendGap + legend.w + pad
	}
	width := max(minWidth, left+minPlotWidth+right)
	height := max(minHeight, top+legend.h+bottom)
	plot := rect{left, top, width - left - right, height - top - bottom}
	if len(names) > 0 {
		legend.x, legend.y = plot.right()+legendGap, plot.y
	}
	return layout{width, height, plot, legend}
}
