package svgplot

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// Point is a point of a series, in data units.
type Point struct{ X, Y float64 }

// Series is a named line through points, drawn in their order.
type Series struct {
	Name   string
	Points []Point
}

// LineChart draws series as lines over shared axes, each in its own
// colour or dash pattern, named in a legend.
type LineChart struct {
	Title  string
	X, Y   Axis
	Series []Series
}

// WriteTo writes the chart to w as an SVG document. It fails, writing
// nothing, if there is no series, a series has no point, or a value
// cannot go on its axis.
func (ch *LineChart) WriteTo(w io.Writer) (int64, error) {
	x, y, err := ch.axes()
	if err != nil {
		return 0, err
	}
	var names []string
	for _, s := range ch.Series {
		names = append(names, s.Name)
	}
	l := newLayout(ch.Title, x, y, names)
	c := newCanvas(l.width, l.height)
	drawXAxis(c, x, l.plot)
	drawYAxis(c, y, l.plot)
	c.open("g", at("class", "data"))
	for i, s := range ch.Series {
		pts := make([]string, len(s.Points))
		for j, p := range s.Points {
			pts[j] = num(l.plot.x+x.frac(p.X)*l.plot.w) + "," + num(l.plot.bottom()-y.frac(p.Y)*l.plot.h)
		}
		attrs := []attr{at("class", "series"), at("data-name", s.Name), at("points", strings.Join(pts, " ")), at("stroke-linejoin", "round")}
		c.empty("polyline", append(attrs, styleOf(i).attrs()...)...)
	}
	c.close("g")
	drawFrame(c, ch.Title, l.width, l.plot)
	drawLegend(c, l.legend, names)
	return c.writeTo(w)
}

// axes fits the axes of ch to its points.
func (ch *LineChart) axes() (x, y *axis, err error) {
	if len(ch.Series) == 0 {
		return nil, nil, errors.New("svgplot: no series to draw")
	}
	var xs, ys []float64
	for _, s := range ch.Series {
		if len(s.Points) == 0 {
			return nil, nil, fmt.Errorf("svgplot: series %q has no points", s.Name)
		}
		for _, p := range s.Points {
			xs, ys = append(xs, p.X), append(ys, p.Y)
		}
	}
	if x, err = ch.X.fit(xs); err != nil {
		return nil, nil, err
	}
	y, err = ch.Y.fit(ys)
	return x, y, err
}
