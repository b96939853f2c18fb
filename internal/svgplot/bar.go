package svgplot

import (
	"errors"
	"io"
	"math"
	"strconv"
)

// maxBarLabels is the most bars a bar chart labels with their numbers.
const maxBarLabels = 20

// BarChart draws one series of values as bars, numbered from First, on a
// linear y axis that includes 0.
type BarChart struct {
	Title          string
	XLabel, YLabel string
	First          int
	Values         []float64
}

// WriteTo writes the chart to w as an SVG document. It fails, writing
// nothing, if there is no value or one is not finite.
func (ch *BarChart) WriteTo(w io.Writer) (int64, error) {
	if len(ch.Values) == 0 {
		return 0, errors.New("svgplot: no bars to draw")
	}
	y, err := Axis{Label: ch.YLabel}.fit(append([]float64{0}, ch.Values...))
	if err != nil {
		return 0, err
	}
	x := ch.xAxis()
	l := newLayout(ch.Title, x, y, nil)
	c := newCanvas(l.width, l.height)
	drawXAxis(c, x, l.plot)
	drawYAxis(c, y, l.plot)
	slot := l.plot.w / float64(len(ch.Values))
	c.open("g", at("class", "data"))
	for i, v := range ch.Values {
		top, zero := l.plot.bottom()-y.frac(v)*l.plot.h, l.plot.bottom()-y.frac(0)*l.plot.h
		c.empty("rect", at("class", "bar"), px("x", l.plot.x+(float64(i)+0.1)*slot), px("y", min(top, zero)),
			px("width", 0.8*slot), px("height", math.Abs(zero-top)), at("fill", colours[0]))
	}
	c.close("g")
	drawFrame(c, ch.Title, l.width, l.plot)
	return c.writeTo(w)
}

// xAxis returns the axis of the bars' numbers: a slot of width 1 around
// each, and a labelled tick at the numbers that are multiples of the
// least step of 1, 2 or 5 × 10^k that labels at most maxBarLabels bars.
func (ch *BarChart) xAxis() *axis {
	n := len(ch.Values)
	step := 1
	for m := 0; n/step > maxBarLabels; m++ {
		step = []int{2, 5, 10}[m%3] * int(math.Pow10(m/3))
	}
	a := &axis{label: ch.XLabel, lo: float64(ch.First) - 0.5, hi: float64(ch.First+n) - 0.5}
	for b := ch.First; b < ch.First+n; b++ {
		if b%step == 0 {
			a.ticks = append(a.ticks, tick{float64(b), strconv.Itoa(b), true})
		}
	}
	return a
}
