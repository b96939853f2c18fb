package svgplot

// Colours of the frame.
const (
	axisColour      = "#333333"
	gridColour      = "#d9d9d9"
	minorGridColour = "#f0f0f0"
)

// place returns the ticks of a at their positions, pos mapping a value
// to pixels.
func place(a *axis, pos func(float64) float64) []placed {
	ps := make([]placed, len(a.ticks))
	for i, t := range a.ticks {
		ps[i] = placed{t, pos(a.frac(t.at))}
	}
	return ps
}

// tickEnd returns how far a tick reaches out of the plot area.
func tickEnd(t placed) float64 {
	if t.major {
		return tickLength
	}
	return tickLength / 2
}

// gridLine draws the grid line of t from (x1, y1) to (x2, y2).
func gridLine(c *canvas, t placed, x1, y1, x2, y2 float64) {
	colour := gridColour
	if !t.major {
		colour = minorGridColour
	}
	c.empty("line", px("x1", x1), px("y1", y1), px("x2", x2), px("y2", y2), at("stroke", colour))
}

// drawXAxis draws a under the plot area p: its ticks, its grid lines
// across p, the tick labels that do not crowd each other, and its label.
func drawXAxis(c *canvas, a *axis, p rect) {
	ps := place(a, func(f float64) float64 { return p.x + f*p.w })
	dropCrowdedLabels(ps, func(s string) float64 { return textWidth(s, fontSize) })
	c.open("g", at("class", "x-axis"))
	for _, t := range ps {
		if a.grid {
			gridLine(c, t, t.pos, p.y, t.pos, p.bottom())
		}
		c.empty("line", px("x1", t.pos), px("y1", p.bottom()), px("x2", t.pos), px("y2", p.bottom()+tickEnd(t)), at("stroke", axisColour))
		if t.label != "" {
			c.text(t.label, at("class", "tick-label"), px("x", t.pos), px("y", p.bottom()+tickLength+pad/2+fontSize), at("text-anchor", "middle"))
		}
	}
	y := p.bottom() + tickLength + pad/2 + fontSize + pad + fontSize
	c.text(a.label, at("class", "axis-label"), px("x", p.x+p.w/2), px("y", y), at("text-anchor", "middle"))
	c.close("g")
}

// drawYAxis draws a left of the plot area p: its ticks, its grid lines
// across p, the tick labels that do not crowd each other, and its label
// written upwards.
func drawYAxis(c *canvas, a *axis, p rect) {
	ps := place(a, func(f float64) float64 { return p.bottom() - f*p.h })
	dropCrowdedLabels(ps, func(string) float64 { return fontSize })
	c.open("g", at("class", "y-axis"))
	for _, t := range ps {
		if a.grid {
			gridLine(c, t, p.x, t.pos, p.right(), t.pos)
		}
		c.empty("line", px("x1", p.x-tickEnd(t)), px("y1", t.pos), px("x2", p.x), px("y2", t.pos), at("stroke", axisColour))
		if t.label != "" {
			c.text(t.label, at("class", "tick-label"), px("x", p.x-tickLength-pad/2), px("y", t.pos+0.35*fontSize), at("text-anchor", "end"))
		}
	}
	x, y := pad+fontSize, p.y+p.h/2
	c.text(a.label, at("class", "axis-label"), px("x", x), px("y", y), at("text-anchor", "middle"),
		at("transform", "rotate(-90 "+num(x)+" "+num(y)+")"))
	c.close("g")
}

// drawFrame draws the picture's title and the border of the plot area p.
func drawFrame(c *canvas, title string, width float64, p rect) {
	if title != "" {
		c.text(title, at("class", "title"), px("x", width/2), px("y", pad+titleSize), at("text-anchor", "middle"),
			px("font-size", titleSize), at("font-weight", "bold"))
	}
	c.empty("rect", at("class", "plot-area"), px("x", p.x), px("y", p.y), px("width", p.w), px("height", p.h),
		at("fill", "none"), at("stroke", axisColour))
}
