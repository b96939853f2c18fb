package main

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/workload/olap"
)

// graph500Figures are the BFS figures the Graph500 specification asks
// for (3.0.0, "Output"), of gdi bench olap -roots N: N searches from
// random roots of degree > 0 on one extracted graph. Construction is the
// extraction (kernel 1: the graph the searches run on, built from the
// database); each search is timed from its first visit to its result on
// every rank, and validated, untimed, with the five Graph500 rules when
// -validate is given.
type graph500Figures struct {
	NBFS         int           `json:"nbfs"`
	Construction time.Duration `json:"construction_ns"`
	Validated    bool          `json:"validated"`
	Time         quartiles     `json:"bfs_time_s"`
	NEdge        quartiles     `json:"bfs_nedge"`
	TEPS         quartiles     `json:"bfs_teps"`
	// HarmonicMeanTEPS and HarmonicStddevTEPS summarise TEPS, a rate.
	HarmonicMeanTEPS   float64 `json:"bfs_harmonic_mean_teps"`
	HarmonicStddevTEPS float64 `json:"bfs_harmonic_stddev_teps"`
}

// quartiles are the minimum, quartiles and maximum of a sample.
type quartiles struct {
	Min, First, Median, Third, Max float64
}

// quartilesOf returns the quartiles of xs, interpolated between the two
// nearest values where a quartile falls between them.
func quartilesOf(xs []float64) quartiles {
	s := slices.Sorted(slices.Values(xs))
	at := func(p float64) float64 {
		if len(s) == 0 {
			return 0
		}
		x := p * float64(len(s)-1)
		i := int(x)
		if i+1 >= len(s) {
			return s[len(s)-1]
		}
		return s[i] + (x-float64(i))*(s[i+1]-s[i])
	}
	return quartiles{at(0), at(0.25), at(0.5), at(0.75), at(1)}
}

// harmonic returns the harmonic mean of xs and its standard deviation as
// the Graph500 reference code computes it.
func harmonic(xs []float64) (mean, stddev float64) {
	n := float64(len(xs))
	var sum float64
	for _, x := range xs {
		sum += 1 / x
	}
	mean = n / sum
	if len(xs) < 2 {
		return mean, 0
	}
	var dev float64
	for _, x := range xs {
		d := 1/x - 1/mean
		dev += d * d
	}
	return mean, math.Sqrt(dev/(n-1)) * mean * mean / math.Sqrt(n)
}

// graph500 runs the searches on g (collective) and returns the figures on
// every rank.
func graph500(c rma.Comm, g *olap.Graph, nroots int, seed uint64, validate bool, construction time.Duration) (*graph500Figures, error) {
	roots, err := pickRoots(c, g, nroots, seed)
	if err != nil {
		return nil, err
	}
	f := &graph500Figures{NBFS: len(roots), Construction: construction, Validated: validate}
	var times, nedges, teps []float64
	for _, root := range roots {
		if err := c.Barrier(); err != nil {
			return nil, err
		}
		start := time.Now()
		res, err := olap.BFS(g, root)
		if err == nil {
			err = c.Barrier()
		}
		if err != nil {
			return nil, err
		}
		t := time.Since(start).Seconds()
		if validate {
			if err := olap.Validate(g, res); err != nil {
				return nil, fmt.Errorf("bfs from %d: %w", root, err)
			}
		}
		m, err := traversedEdges(c, g, res)
		if err != nil {
			return nil, err
		}
		times, nedges, teps = append(times, t), append(nedges, m), append(teps, m/t)
	}
	f.Time, f.NEdge, f.TEPS = quartilesOf(times), quartilesOf(nedges), quartilesOf(teps)
	f.HarmonicMeanTEPS, f.HarmonicStddevTEPS = harmonic(teps)
	return f, nil
}

// pickRoots draws up to n distinct roots, uniformly among the vertices of
// degree > 0 of all ranks, the same on every rank (collective).
func pickRoots(c rma.Comm, g *olap.Graph, n int, seed uint64) ([]uint64, error) {
	var mine []uint64 // the IDs of the local vertices of degree > 0
	for i := range g.NumLocal {
		if g.OutDegree(i)+g.InDegree(i) > 0 {
			mine = append(mine, g.ID[i])
		}
	}
	var b []byte
	for _, id := range mine {
		b = binary.LittleEndian.AppendUint64(b, id)
	}
	all, err := c.Allgatherv(b)
	if err != nil {
		return nil, err
	}
	var ids []uint64
	for _, x := range all {
		for ; len(x) >= 8; x = x[8:] {
			ids = append(ids, binary.LittleEndian.Uint64(x))
		}
	}
	rng := rand.New(rand.NewPCG(seed, 500))
	rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	return ids[:min(n, len(ids))], nil
}

// traversedEdges is the m of TEPS: the edges within the component
// searched, a loop counting once and any other edge tuple half (each is
// an arc at both ends, or an out- and an in-arc when directed), over all
// ranks (collective).
func traversedEdges(c rma.Comm, g *olap.Graph, res *olap.BFSResult) (float64, error) {
	var arcs, loops int64
	for i, l := range res.Level {
		if l == olap.Unreached {
			continue
		}
		for _, s := range g.Out[g.OutOff[i]:g.OutOff[i+1]] {
			if int(s) == i {
				loops++
			} else {
				arcs++
			}
		}
		if g.Directed {
			arcs += int64(g.InDegree(i))
		}
	}
	sums := []int64{arcs, loops}
	if err := c.AllreduceInt64(sums, rma.OpSum); err != nil {
		return 0, err
	}
	return float64(sums[0])/2 + float64(sums[1]), nil
}

// printGraph500 writes the figures in the Graph500 output's terms.
func printGraph500(w io.Writer, f *graph500Figures) {
	fmt.Fprintf(w, "NBFS: %d\nconstruction_time: %.6f\n", f.NBFS, f.Construction.Seconds())
	for _, q := range []struct {
		name string
		q    quartiles
	}{{"time", f.Time}, {"nedge", f.NEdge}, {"TEPS", f.TEPS}} {
		for _, x := range []struct {
			which string
			v     float64
		}{{"min", q.q.Min}, {"firstquartile", q.q.First}, {"median", q.q.Median}, {"thirdquartile", q.q.Third}, {"max", q.q.Max}} {
			fmt.Fprintf(w, "bfs_%s_%s: %.6g\n", x.which, q.name, x.v)
		}
	}
	fmt.Fprintf(w, "bfs_harmonic_mean_TEPS: %.6g\nbfs_harmonic_stddev_TEPS: %.6g\nvalidated: %v\n", f.HarmonicMeanTEPS, f.HarmonicStddevTEPS, f.Validated)
}
