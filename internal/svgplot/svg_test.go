package svgplot

import (
	"bytes"
	"encoding/xml"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// node is an element of a parsed SVG document.
type node struct {
	XMLName xml.Name
	Attrs   []xml.Attr `xml:",any,attr"`
	Text    string     `xml:",chardata"`
	Nodes   []*node    `xml:",any"`
}

// attr returns the value of the attribute name of n, "" if none.
func (n *node) attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// number returns the attribute name of n as a number.
func (n *node) number(t *testing.T, name string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(n.attr(name), 64)
	if err != nil {
		t.Fatalf("<%s %s=%q>: %v", n.XMLName.Local, name, n.attr(name), err)
	}
	return v
}

// find returns the elements under n, n included, of the class.
func (n *node) find(class string) []*node {
	var found []*node
	if slices.Contains(strings.Fields(n.attr("class")), class) {
		found = append(found, n)
	}
	for _, c := range n.Nodes {
		found = append(found, c.find(class)...)
	}
	return found
}

// one returns the only element under n of the class.
func (n *node) one(t *testing.T, class string) *node {
	t.Helper()
	found := n.find(class)
	if len(found) != 1 {
		t.Fatalf("%d elements of class %q, want 1", len(found), class)
	}
	return found[0]
}

// parse checks that data is one well-formed XML document and returns its
// root element.
func parse(t *testing.T, data []byte) *node {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(data))
	for {
		if _, err := d.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, data)
		}
	}
	var root node
	if err := xml.Unmarshal(data, &root); err != nil {
		t.Fatal(err)
	}
	return &root
}

// draw writes ch and parses what it wrote.
func draw(t *testing.T, ch io.WriterTo) (*node, []byte) {
	t.Helper()
	var b bytes.Buffer
	n, err := ch.WriteTo(&b)
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(b.Len()) {
		t.Errorf("WriteTo says %d bytes, wrote %d", n, b.Len())
	}
	return parse(t, b.Bytes()), b.Bytes()
}

// lineChart returns a chart of n series over the nines 0 to 4, on a log
// y axis.
func lineChart(n int) *LineChart {
	ch := &LineChart{Title: "latency", X: Axis{"percentile", Nines}, Y: Axis{"latency (µs)", Log10}}
	for i := range n {
		var pts []Point
		for x := 0.0; x <= 4; x += 0.25 {
			pts = append(pts, Point{x, float64(10+i) * (1 + x*x*x)})
		}
		ch.Series = append(ch.Series, Series{Name: "op " + strconv.Itoa(i), Points: pts})
	}
	return ch
}

// tickLabels returns the tick labels of the axis of the class.
func tickLabels(t *testing.T, root *node, class string) []string {
	t.Helper()
	var labels []string
	for _, l := range root.one(t, class).find("tick-label") {
		labels = append(labels, l.Text)
	}
	return labels
}

// TestDocument: the charts are SVG 1.1 documents, sized, on a white
// background, in a sans-serif font.
func TestDocument(t *testing.T) {
	for _, ch := range []io.WriterTo{lineChart(3), &BarChart{Values: []float64{1, 2}}} {
		root, data := draw(t, ch)
		if !bytes.HasPrefix(data, []byte(`<?xml version="1.0" encoding="UTF-8"?>`)) {
			t.Errorf("no XML declaration: %.60s", data)
		}
		w, h := root.attr("width"), root.attr("height")
		if root.XMLName.Local != "svg" || root.XMLName.Space != "http://www.w3.org/2000/svg" || root.attr("version") != "1.1" ||
			root.attr("viewBox") != "0 0 "+w+" "+h || w == "" || root.attr("font-family") != "sans-serif" {
			t.Errorf("root %v %v", root.XMLName, root.Attrs)
		}
		bg := root.Nodes[0]
		if bg.XMLName.Local != "rect" || bg.attr("fill") != "white" || bg.attr("width") != w || bg.attr("height") != h {
			t.Errorf("first element <%s %v>, want a white background", bg.XMLName.Local, bg.Attrs)
		}
	}
}

// TestNinesLabels: an axis over the nines 0 to 4 labels each integer
// with its percentile.
func TestNinesLabels(t *testing.T) {
	root, _ := draw(t, lineChart(1))
	want := []string{"p0", "p90", "p99", "p99.9", "p99.99"}
	if got := tickLabels(t, root, "x-axis"); !slices.Equal(got, want) {
		t.Errorf("x tick labels %q, want %q", got, want)
	}
}

// TestSeriesStyles: every series, up to 40, has its own colour and dash
// pattern, and its legend sample line looks the same.
func TestSeriesStyles(t *testing.T) {
	root, _ := draw(t, lineChart(40))
	lines := root.find("series")
	if len(lines) != 40 {
		t.Fatalf("%d series drawn, want 40", len(lines))
	}
	samples := root.one(t, "legend").Nodes[1:] // after the box: a line and a name per series
	seen := map[[2]string]string{}
	for i, l := range lines {
		s := [2]string{l.attr("stroke"), l.attr("stroke-dasharray")}
		if other, ok := seen[s]; ok {
			t.Errorf("%s and %s both drawn in %q", other, l.attr("data-name"), s)
		}
		seen[s] = l.attr("data-name")
		if sample := samples[2*i]; sample.attr("stroke") != s[0] || sample.attr("stroke-dasharray") != s[1] {
			t.Errorf("%s: legend sample %v, line %q", l.attr("data-name"), sample.Attrs, s)
		}
	}
}

// TestLegendOutside: the legend lies right of the plot area, inside the
// picture, however many series there are.
func TestLegendOutside(t *testing.T) {
	for _, n := range []int{1, 7, 40} {
		root, _ := draw(t, lineChart(n))
		area, box := root.one(t, "plot-area"), root.one(t, "legend-box")
		if box.number(t, "x") < area.number(t, "x")+area.number(t, "width") {
			t.Errorf("%d series: legend %v overlaps the plot area %v", n, box.Attrs, area.Attrs)
		}
		if box.number(t, "x")+box.number(t, "width") > root.number(t, "width") ||
			box.number(t, "y")+box.number(t, "height") > root.number(t, "height") {
			t.Errorf("%d series: legend %v out of the picture %v", n, box.Attrs, root.Attrs)
		}
	}
}

// TestEscaping: names and titles may hold the characters XML reserves.
func TestEscaping(t *testing.T) {
	const name = `<&> "q"`
	ch := lineChart(1)
	ch.Series[0].Name, ch.Title, ch.Y.Label = name, name, name
	root, data := draw(t, ch)
	if !bytes.Contains(data, []byte("&lt;&amp;&gt;")) {
		t.Errorf("no escaped name in\n%s", data)
	}
	legend := root.one(t, "legend").Nodes
	if got := root.one(t, "series").attr("data-name"); got != name {
		t.Errorf("data-name %q, want %q", got, name)
	}
	if got := legend[len(legend)-1].Text; got != name {
		t.Errorf("legend says %q, want %q", got, name)
	}
	if got := root.one(t, "title").Text; got != name {
		t.Errorf("title %q, want %q", got, name)
	}
}

// TestBadData: a chart with nothing to draw, or a value its axis cannot
// show, fails and writes nothing.
func TestBadData(t *testing.T) {
	empty := lineChart(2)
	empty.Series[1].Points = nil
	zero := lineChart(1)
	zero.Series[0].Points[3].Y = 0
	negative := lineChart(1)
	negative.Series[0].Points[0].X = -1
	for name, ch := range map[string]io.WriterTo{
		"no series":              &LineChart{},
		"no points":              empty,
		"0 on a log axis":        zero,
		"negative nines":         negative,
		"no bars":                &BarChart{},
		"an infinite bar":        &BarChart{Values: []float64{1, inf()}},
		"not a number on linear": &LineChart{Series: []Series{{Points: []Point{{0, nan()}}}}},
	} {
		var b bytes.Buffer
		if n, err := ch.WriteTo(&b); err == nil || n != 0 || b.Len() != 0 {
			t.Errorf("%s: wrote %d bytes, error %v", name, b.Len(), err)
		}
	}
}

// TestBars: a bar per value, as high as the value, and at most
// maxBarLabels of them numbered.
func TestBars(t *testing.T) {
	values := make([]float64, 95)
	for i := range values {
		values[i] = float64(i + 1)
	}
	root, _ := draw(t, &BarChart{Title: "rounds", First: 1, Values: values})
	bars := root.find("bar")
	if len(bars) != len(values) {
		t.Fatalf("%d bars, want %d", len(bars), len(values))
	}
	unit := bars[len(bars)-1].number(t, "height") / values[len(values)-1]
	for i, b := range bars {
		if h := b.number(t, "height"); math.Abs(h-unit*values[i]) > 0.15 {
			t.Errorf("bar %d is %v high, want %v", i+1, h, unit*values[i])
		}
	}
	labels := tickLabels(t, root, "x-axis")
	if want := []string{"5", "10", "15"}; len(labels) > maxBarLabels || !slices.Equal(labels[:3], want) {
		t.Errorf("bar labels %q, want at most %d starting with %q", labels, maxBarLabels, want)
	}
}
