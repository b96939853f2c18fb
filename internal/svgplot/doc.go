// Package svgplot draws line and bar charts as SVG 1.1 documents, with
// the standard library only.
//
// A chart is a value that holds its data and says how to draw its axes:
// a LineChart has named series of (x, y) points, a BarChart one series of
// values. Its WriteTo fits each axis to the data (the domain and its
// ticks: 1, 2 or 5 × 10^k apart on a linear axis, every power of ten on a
// log axis, every integer on an axis that counts nines, labelled as the
// percentile it stands for), lays the picture out (the title on top, the
// plot area, the axes' labels, the legend to the right of the plot area,
// where it covers no data), and writes the elements.
//
// The elements carry classes, for tests and style sheets: "title",
// "plot-area" (the data area's border), "x-axis" and "y-axis" (groups of
// the ticks, their "tick-label"s and the "axis-label"), "series" (a
// polyline per series, its name in data-name), "bar", "legend" (a group)
// and "legend-box" (its border).
package svgplot
