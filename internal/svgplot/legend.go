package svgplot

// Sizes of the legend, in pixels.
const (
	legendGap    = 16.0 // between the plot area and the legend
	legendRow    = 20.0 // the height of an entry
	legendSample = 28.0 // the length of an entry's sample line
)

// legendSize returns the width and height of the legend of names.
func legendSize(names []string) (w, h float64) {
	for _, n := range names {
		w = max(w, textWidth(n, fontSize))
	}
	return pad + legendSample + pad/2 + w + pad, pad/2 + float64(len(names))*legendRow + pad/2
}

// drawLegend draws the legend of names in r: for each series, a sample of
// its line and its name.
func drawLegend(c *canvas, r rect, names []string) {
	c.open("g", at("class", "legend"))
	c.empty("rect", at("class", "legend-box"), px("x", r.x), px("y", r.y), px("width", r.w), px("height", r.h),
		at("fill", "white"), at("stroke", "#cccccc"))
	for i, name := range names {
		y := r.y + pad/2 + (float64(i)+0.5)*legendRow
		line := []attr{px("x1", r.x+pad), px("y1", y), px("x2", r.x+pad+legendSample), px("y2", y)}
		c.empty("line", append(line, styleOf(i).attrs()...)...)
		c.text(name, px("x", r.x+pad+legendSample+pad/2), px("y", y+0.35*fontSize))
	}
	c.close("g")
}
