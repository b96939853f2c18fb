package main

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/gdi-go/gdi/workload/oltp"
)

// checkPlotFile checks that file names a picture format plot can write.
func checkPlotFile(file string) error {
	switch strings.ToLower(filepath.Ext(file)) {
	case ".svg", ".png", ".pdf":
		return nil
	}
	return fmt.Errorf("-plot %s: the file must end in .svg, .png or .pdf", file)
}

// plotLatencies draws the latency percentiles of every operation type of r,
// HDR style: the x axis counts nines (1 is p90, 2 is p99, 3 is p99.9), the y
// axis is the latency in microseconds on a log scale. The file's extension
// (.svg or .png, also .pdf) picks the format.
func plotLatencies(r *oltp.Report, file string) error {
	if err := checkPlotFile(file); err != nil {
		return err
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s on %d ranks: latency by percentile", r.Workload, r.Ranks)
	p.X.Label.Text = "percentile (nines: 1 = p90, 2 = p99, 3 = p99.9)"
	p.Y.Label.Text = "latency (µs)"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	var lines []any
	for op := range oltp.NumOps {
		h := r.Histogram(op)
		if h == nil || h.TotalCount() == 0 {
			continue
		}
		var pts plotter.XYs
		for _, b := range h.CumulativeDistribution() {
			if b.Quantile >= 100 || b.ValueAt <= 0 {
				continue
			}
			pts = append(pts, plotter.XY{X: -math.Log10(1 - b.Quantile/100), Y: float64(b.ValueAt) / 1e3})
		}
		if len(pts) > 0 {
			lines = append(lines, op.String(), pts)
		}
	}
	if len(lines) == 0 {
		return errors.New("-plot: no committed operation to draw")
	}
	if err := plotutil.AddLines(p, lines...); err != nil {
		return err
	}
	p.Legend.Top = true
	p.Legend.Left = true
	return p.Save(8*vg.Inch, 5*vg.Inch, file)
}

// plotRounds draws the time of each round of an OLAP run as bars.
func plotRounds(f *olapFigures, file string) error {
	if len(f.Rounds) == 0 {
		return errors.New("-plot: the algorithm reported no rounds")
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s on %d ranks, scale %d: time per round", f.Algo, f.Ranks, f.Scale)
	p.X.Label.Text = "round (iteration or BFS level)"
	p.Y.Label.Text = "time (µs)"
	vals := make(plotter.Values, len(f.Rounds))
	for i, d := range f.Rounds {
		vals[i] = float64(d) / 1e3
	}
	bars, err := plotter.NewBarChart(vals, vg.Points(8))
	if err != nil {
		return err
	}
	p.Add(bars)
	return p.Save(8*vg.Inch, 5*vg.Inch, file)
}
