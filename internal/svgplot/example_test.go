package svgplot_test

import (
	"bufio"
	"fmt"
	"log"
	"strings"

	"github.com/gdi-go/gdi/internal/svgplot"
)

// A latency chart: percentiles counted in nines on x, microseconds on a
// log scale on y.
func ExampleLineChart() {
	ch := &svgplot.LineChart{
		Title: "latency by percentile",
		X:     svgplot.Axis{Label: "percentile", Scale: svgplot.Nines},
		Y:     svgplot.Axis{Label: "latency (µs)", Scale: svgplot.Log10},
		Series: []svgplot.Series{
			{Name: "get vertex", Points: []svgplot.Point{{X: 0, Y: 3}, {X: 1, Y: 9}, {X: 2, Y: 40}, {X: 3, Y: 310}}},
			{Name: "add edge", Points: []svgplot.Point{{X: 0, Y: 5}, {X: 1, Y: 14}, {X: 2, Y: 95}, {X: 3.5, Y: 2200}}},
		},
	}
	var svg strings.Builder
	if _, err := ch.WriteTo(&svg); err != nil {
		log.Fatal(err)
	}
	lines := bufio.NewScanner(strings.NewReader(svg.String()))
	for range 2 {
		lines.Scan()
		fmt.Println(lines.Text())
	}
	// Output:
	// <?xml version="1.0" encoding="UTF-8"?>
	// <svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="900" height="520" viewBox="0 0 900 520" font-family="sans-serif" font-size="13">
}
