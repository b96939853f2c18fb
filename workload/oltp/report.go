package oltp

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/count"
)

// Report holds the figures of a run, summed over all ranks.
type Report struct {
	Workload string `json:"workload"`
	// Params are those of the run, so that a result file says how to
	// reproduce it.
	Params     RunParams     `json:"params"`
	Ranks      int           `json:"ranks"`
	Goroutines int           `json:"goroutines_per_rank"`
	Elapsed    time.Duration `json:"elapsed_ns"` // of the slowest rank
	Committed  int64         `json:"committed"`
	NotFound   int64         `json:"not_found"`
	Failed     int64         `json:"failed"`
	// Throughput is committed operations per second.
	Throughput float64 `json:"throughput"`
	// FailedPercent is failed operations in percent of all operations.
	FailedPercent float64    `json:"failed_percent"`
	Ops           []OpReport `json:"ops"`
	// Calls are the one-sided calls per operation of all types, with
	// Config.Calls; nil without.
	Calls *CallsPerOp `json:"calls_per_op,omitempty"`

	hists [NumOps]*hdrhistogram.Histogram
}

// RunParams are the parameters of a run: the graph's, the run's, and what
// the caller knows of the database and the program (Backend, Version).
type RunParams struct {
	Scale      int           `json:"scale"`
	EdgeFactor int           `json:"edge_factor"`
	Seed       uint64        `json:"seed"`
	Count      int           `json:"count_per_rank,omitempty"`
	Duration   time.Duration `json:"duration_ns,omitempty"`
	Zipf       bool          `json:"zipf"`
	Prefetch   bool          `json:"prefetch"`
	Backend    string        `json:"backend,omitempty"`
	Version    string        `json:"version,omitempty"`
	// Flags are those of the command that ran it, given or defaulted.
	Flags map[string]any `json:"flags,omitempty"`
}

// OpReport holds the figures of one operation type. Latencies are of
// committed operations.
type OpReport struct {
	Op        string        `json:"op"`
	Committed int64         `json:"committed"`
	NotFound  int64         `json:"not_found"`
	Failed    int64         `json:"failed"`
	Mean      time.Duration `json:"mean_ns"`
	P50       time.Duration `json:"p50_ns"`
	P90       time.Duration `json:"p90_ns"`
	P99       time.Duration `json:"p99_ns"`
	P999      time.Duration `json:"p999_ns"`
	Max       time.Duration `json:"max_ns"`
	// Calls are its one-sided calls per operation (all outcomes), with
	// Config.Calls.
	Calls *CallsPerOp `json:"calls_per_op,omitempty"`
}

// CallsPerOp are one-sided calls per operation, summed over all ranks
// and divided by the operations of all ranks.
type CallsPerOp struct {
	Gets    float64 `json:"gets"`
	Puts    float64 `json:"puts"`
	Atomics float64 `json:"atomics"`
	Flushes float64 `json:"flushes"`
	Calls   float64 `json:"calls"` // the four above
	Bytes   float64 `json:"bytes"`
	// MPI is the MPI calls rma/mpi makes for them across machines, as a
	// PMPI interposer counts (count.Counts.MPI).
	MPI float64 `json:"mpi_calls"`
}

// perOp divides the counts c of ops operations.
func perOp(c count.Counts, ops int64) *CallsPerOp {
	if ops == 0 {
		return &CallsPerOp{}
	}
	n := float64(ops)
	return &CallsPerOp{float64(c.Gets) / n, float64(c.Puts) / n, float64(c.Atomics) / n, float64(c.Flushes) / n, float64(c.Calls()) / n, float64(c.Bytes) / n, float64(c.MPI) / n}
}

// gatherCalls sums the calls of every operation type over the workers and
// all ranks and puts them per operation in r. It is collective.
func gatherCalls(c rma.Comm, r *Report, workers []*worker) error {
	const fields = 6
	sums := make([]int64, 0, fields*NumOps)
	for op := range NumOps {
		var t count.Counts
		for _, w := range workers {
			t = t.Add(w.stats[op].calls)
		}
		sums = append(sums, int64(t.Gets), int64(t.Puts), int64(t.Atomics), int64(t.Flushes), int64(t.Bytes), int64(t.MPI))
	}
	if err := c.AllreduceInt64(sums, rma.OpSum); err != nil {
		return err
	}
	var all count.Counts
	for op := range r.Ops {
		x := sums[fields*op : fields*op+fields]
		t := count.Counts{Gets: uint64(x[0]), Puts: uint64(x[1]), Atomics: uint64(x[2]), Flushes: uint64(x[3]), Bytes: uint64(x[4]), MPI: uint64(x[5])}
		o := &r.Ops[op]
		o.Calls, all = perOp(t, o.Committed+o.NotFound+o.Failed), all.Add(t)
	}
	r.Calls = perOp(all, r.Committed+r.NotFound+r.Failed)
	return nil
}

// Histogram returns the merged latency histogram of op, in nanoseconds.
func (r *Report) Histogram(op Op) *hdrhistogram.Histogram { return r.hists[op] }

// gather merges the workers' figures on this rank, then sums them over all
// ranks: the counts with one Allreduce, the histograms by summing their
// bucket counts (all histograms share one geometry).
func gather(c rma.Comm, cfg Config, workers []*worker, elapsed time.Duration) (*Report, error) {
	gc := cfg.Graph.Config()
	r := &Report{Workload: cfg.Mix.Name, Ranks: c.Size(), Goroutines: len(workers), Params: RunParams{
		Scale: gc.Scale, EdgeFactor: gc.EdgeFactor, Seed: cfg.Seed, Count: cfg.Count, Zipf: cfg.Zipf, Prefetch: !cfg.NoPrefetch,
	}}
	if cfg.Count == 0 {
		r.Params.Duration = cfg.Duration
	}
	counts := make([]int64, 0, NumOps*3+1)
	for op := range NumOps {
		h := hdrhistogram.New(histLow, histHigh, histDigits)
		var n [3]int64
		for _, w := range workers {
			h.Merge(w.stats[op].hist)
			for o := range n {
				n[o] += w.stats[op].count[o]
			}
		}
		r.hists[op] = h
		counts = append(counts, n[:]...)
	}
	if err := c.AllreduceInt64(counts, rma.OpSum); err != nil {
		return nil, err
	}
	slowest := []int64{int64(elapsed)}
	if err := c.AllreduceInt64(slowest, rma.OpMax); err != nil {
		return nil, err
	}
	r.Elapsed = time.Duration(slowest[0])
	for op := range NumOps {
		snap := r.hists[op].Export()
		if err := c.AllreduceInt64(snap.Counts, rma.OpSum); err != nil {
			return nil, err
		}
		h := hdrhistogram.Import(snap)
		r.hists[op] = h
		n := counts[op*3 : op*3+3]
		r.Ops = append(r.Ops, OpReport{
			Op: Op(op).String(), Committed: n[committed], NotFound: n[notFound], Failed: n[failed],
			Mean: time.Duration(h.Mean()),
			P50:  time.Duration(h.ValueAtQuantile(50)), P90: time.Duration(h.ValueAtQuantile(90)),
			P99: time.Duration(h.ValueAtQuantile(99)), P999: time.Duration(h.ValueAtQuantile(99.9)),
			Max: time.Duration(h.Max()),
		})
		r.Committed += n[committed]
		r.NotFound += n[notFound]
		r.Failed += n[failed]
	}
	if r.Elapsed > 0 {
		r.Throughput = float64(r.Committed) / r.Elapsed.Seconds()
	}
	if total := r.Committed + r.NotFound + r.Failed; total > 0 {
		r.FailedPercent = 100 * float64(r.Failed) / float64(total)
	}
	if cfg.Calls != nil {
		return r, gatherCalls(c, r, workers)
	}
	return r, nil
}

// NotFoundWarning is the share of operations above which a run warns that
// most of what it measured found no vertex (NotFoundShare).
const NotFoundWarning = 0.2

// NotFoundShare is the share of all operations whose target was not found.
func (r *Report) NotFoundShare() float64 {
	total := r.Committed + r.NotFound + r.Failed
	if total == 0 {
		return 0
	}
	return float64(r.NotFound) / float64(total)
}

// WriteTable prints the report as a table for people.
func (r *Report) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "workload %s: %d ranks x %d goroutines, %v\n", r.Workload, r.Ranks, r.Goroutines, r.Elapsed.Round(time.Millisecond))
	fmt.Fprintf(w, "throughput %.0f committed ops/s; %d committed, %d not found, %d failed (%.2f%%)\n\n",
		r.Throughput, r.Committed, r.NotFound, r.Failed, r.FailedPercent)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "operation\tcommitted\tnot found\tfailed\tmean µs\tp50 µs\tp90 µs\tp99 µs\tp99.9 µs\tmax µs\t")
	us := func(d time.Duration) string { return fmt.Sprintf("%.2f", float64(d)/float64(time.Microsecond)) }
	for _, o := range r.Ops {
		if o.Committed+o.NotFound+o.Failed == 0 {
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t\n", o.Op, o.Committed, o.NotFound, o.Failed,
			us(o.Mean), us(o.P50), us(o.P90), us(o.P99), us(o.P999), us(o.Max))
	}
	if err := tw.Flush(); err != nil || r.Calls == nil {
		return err
	}
	return r.writeCalls(w)
}

// writeCalls prints the one-sided calls per operation as a table.
func (r *Report) writeCalls(w io.Writer) error {
	fmt.Fprintln(w, "\none-sided calls per operation (all outcomes, every rank's calls, its own part of a window included)")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "operation\tgets\tputs\tatomics\tflushes\tcalls\tbytes\tMPI calls\t")
	row := func(name string, c *CallsPerOp) {
		fmt.Fprintf(tw, "%s\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.0f\t%.2f\t\n", name, c.Gets, c.Puts, c.Atomics, c.Flushes, c.Calls, c.Bytes, c.MPI)
	}
	for _, o := range r.Ops {
		if o.Committed+o.NotFound+o.Failed > 0 {
			row(o.Op, o.Calls)
		}
	}
	row("all", r.Calls)
	return tw.Flush()
}

// WriteJSON prints the report as JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
