package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/gdi-go/gdi/internal/svgplot"
	"github.com/gdi-go/gdi/workload/oltp"
)

// checkPlotFile checks, before a run that may take minutes, that -plot
// names an SVG file that can be created: its extension, and that a file
// can be made in its directory.
func checkPlotFile(file string) error {
	if strings.ToLower(filepath.Ext(file)) != ".svg" {
		return fmt.Errorf("-plot %s: the file must end in .svg (an SVG opens in every web browser)", file)
	}
	if info, err := os.Stat(file); err == nil && info.IsDir() {
		return fmt.Errorf("-plot %s: is a directory", file)
	}
	dir := filepath.Dir(file)
	probe, err := os.CreateTemp(dir, ".gdi-plot-*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("-plot %s: cannot create a file in %s: %w", file, dir, err)
	}
	probe.Close()
	return os.Remove(probe.Name())
}

// writePlot writes chart to file and says on w where, with the absolute
// path.
func writePlot(chart io.WriterTo, file string, w io.Writer) error {
	var svg bytes.Buffer
	if _, err := chart.WriteTo(&svg); err != nil {
		return fmt.Errorf("-plot: %w", err)
	}
	if err := os.WriteFile(file, svg.Bytes(), 0o644); err != nil {
		return err
	}
	if abs, err := filepath.Abs(file); err == nil {
		file = abs
	}
	fmt.Fprintf(w, "plot: wrote %s\n", file)
	return nil
}

// plotLatencies draws the latency percentiles of every operation type of r
// that committed operations into the SVG file, HDR style: the x axis
// counts nines (1 is p90, 2 is p99, 3 is p99.9), the y axis is the
// latency in microseconds on a log scale. It says on w where it wrote.
func plotLatencies(r *oltp.Report, file string, w io.Writer) error {
	ch := &svgplot.LineChart{
		Title: fmt.Sprintf("%s on %d ranks: latency by percentile", r.Workload, r.Ranks),
		X:     svgplot.Axis{Label: "percentile (log scale: each step adds a nine)", Scale: svgplot.Nines},
		Y:     svgplot.Axis{Label: "latency (µs)", Scale: svgplot.Log10},
	}
	for op := range oltp.NumOps {
		h := r.Histogram(op)
		if h == nil || h.TotalCount() == 0 {
			continue
		}
		var pts []svgplot.Point
		for _, b := range h.CumulativeDistributionWithTicks(5) {
			if b.Quantile >= 100 || b.ValueAt <= 0 {
				continue
			}
			pts = append(pts, svgplot.Point{X: -math.Log10(1 - b.Quantile/100), Y: float64(b.ValueAt) / 1e3})
		}
		if len(pts) > 0 {
			ch.Series = append(ch.Series, svgplot.Series{Name: op.String(), Points: pts})
		}
	}
	if len(ch.Series) == 0 {
		return errors.New("-plot: no committed operation to draw")
	}
	return writePlot(ch, file, w)
}

// plotRounds draws the time of each round of an OLAP run as bars into the
// SVG file, and says on w where it wrote.
func plotRounds(f *olapFigures, file string, w io.Writer) error {
	if len(f.Rounds) == 0 {
		return errors.New("-plot: the algorithm reported no rounds")
	}
	ch := &svgplot.BarChart{
		Title:  fmt.Sprintf("%s on %d ranks, scale %d: time per round", f.Algo, f.Ranks, f.Scale),
		XLabel: "round (iteration or BFS level)",
		YLabel: "time (µs)",
		First:  1,
	}
	for _, d := range f.Rounds {
		ch.Values = append(ch.Values, float64(d)/1e3)
	}
	return writePlot(ch, file, w)
}
