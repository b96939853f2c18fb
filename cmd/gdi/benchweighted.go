package main

import (
	"fmt"
	"io"
	"math"
	"time"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/generator"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/workload/olap"
)

// weightBits is the resolution of the edge weights of gdi bench olap: a
// weight is a multiple of 2^-weightBits in (0, 1], so that sums of up to
// 2^(53-weightBits) of them (path lengths, the weight sum of BI) are exact
// in any order.
const weightBits = 24

// benchWeight returns the weight of an edge between vertices u and v of a
// generated graph with the seed: a hash of the seed and the two ends (in
// either order for an undirected graph), uniform over the multiples of
// 2^-weightBits in (0, 1]. Parallel edges get the same weight.
func benchWeight(seed uint64, directed bool) func(u, v uint64) float64 {
	key := splitmix(seed ^ 0x7765_6967_6874_7321) // "weights!"
	return func(u, v uint64) float64 {
		if !directed && u > v {
			u, v = v, u
		}
		h := splitmix(key ^ splitmix(u^splitmix(v+0x9e3779b97f4a7c15)))
		return float64(h>>(64-weightBits)+1) / (1 << weightBits)
	}
}

// splitmix is the finalizer of SplitMix64.
func splitmix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// weighGraph creates the Double property type weight and gives every edge
// of the loaded graph g its benchWeight, through transactions on every
// rank for the edges of its local vertices (olap.SetEdgeWeights, the ranks
// in turn), with a progress bar drawn by the rank whose turn it is. The local vertices come from an index that is
// freed before the writes, which explicit indexes slow down on gdirma. It
// is collective and returns the property type and the time it took.
func weighGraph(c rma.Comm, db gdi.Database, m *generator.Metadata, g *generator.Graph, stderr io.Writer) (gdi.PropertyType, time.Duration, error) {
	start := time.Now()
	weight, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "weight", Entity: gdi.SingleEntity, Datatype: gdi.Double, Size: gdi.FixedSize, Count: 1})
	if err != nil {
		return weight, 0, err
	}
	keys, err := localVertexKeys(c, db, m)
	if err != nil {
		return weight, 0, err
	}
	bar, err := turnBar(c, stderr, "weights", len(keys), "vertices")
	if err != nil {
		return weight, 0, err
	}
	w := benchWeight(g.Config().Seed, g.Config().Directed)
	err = olap.SetEdgeWeights(db, c, keys, olap.WeightOptions{
		Weight: weight,
		W: func(a, b []byte) float64 {
			u, errU := olap.ParseID(a)
			v, errV := olap.ParseID(b)
			if errU != nil || errV != nil {
				return math.NaN() // not a generated vertex: cannot happen
			}
			return w(u, v)
		},
		Progress: func(n int) { bar.add(uint64(n)) },
	})
	if err != nil {
		return weight, 0, err
	}
	if c.Rank() == c.Size()-1 {
		bar.finish(time.Since(start))
	}
	return weight, time.Since(start), nil
}

// turnBar returns this rank's progress bar over the work of all ranks when
// they take turns in rank order, mine items being this rank's share: it
// starts where the ranks before it end. It is collective.
func turnBar(c rma.Comm, stderr io.Writer, label string, mine int, unit string) (*progressBar, error) {
	counts := make([]int64, c.Size())
	counts[c.Rank()] = int64(mine)
	if err := c.AllreduceInt64(counts, rma.OpSum); err != nil {
		return nil, err
	}
	var before, total int64
	for r, n := range counts {
		if r < c.Rank() {
			before += n
		}
		total += n
	}
	return newProgressBar(stderr, label, uint64(total), uint64(before), unit), nil
}

// localVertexKeys returns the keys of the local vertices of the graph,
// through an index that it frees. It is collective.
func localVertexKeys(c rma.Comm, db gdi.Database, m *generator.Metadata) ([]olap.VertexKey, error) {
	idx, err := vertexIndex(c, db, m)
	if err != nil {
		return nil, err
	}
	keys, err := olap.LocalVertexKeys(db, idx)
	if err = rma.Agree(c, err); err != nil {
		return nil, err
	}
	return keys, idx.Free()
}

// olapBaseline are the answers of the plain CSR that the database's are
// checked against: BFS levels, SSSP distances, the BI aggregate.
type olapBaseline struct {
	levels []int32
	dist   []float64
	bi     *olap.BIResult
}

// ssspFigures summarise the distances of gdi bench olap -algo sssp.
type ssspFigures struct {
	Root        uint64  `json:"root"`
	Reached     int64   `json:"reached"`      // vertices at a finite distance, the root included
	MaxDistance float64 `json:"max_distance"` // the largest finite distance
}

// biFigures are the parameters and the answer of gdi bench olap -algo bi.
type biFigures struct {
	MinDegree uint64  `json:"min_degree"`
	MinWeight float64 `json:"min_weight"`
	Sources   int64   `json:"sources"`
	Edges     int64   `json:"edges"`
	WeightSum float64 `json:"weight_sum"`
}

// benchWeighted times sssp or bi on the weighted graph; rank 0 fills fig.
func benchWeighted(c rma.Comm, db gdi.Database, idx gdi.Index, weight gdi.PropertyType, algo string, p olap.Params, want *olapBaseline, fig *olapFigures, opts olapRankOptions) error {
	if algo == "sssp" {
		return benchSSSP(c, db, idx, weight, p.Source, want, fig, opts)
	}
	q := olap.BIQuery{Index: idx, Weight: weight, MinDegree: opts.minDegree, MinWeight: opts.minWeight}
	return benchBI(c, db, q, searchesStorage(db, opts), want, fig)
}

// benchSSSP times the extraction with weights and SSSP from root, checks
// the distances against want.dist if there is one, and summarises them.
func benchSSSP(c rma.Comm, db gdi.Database, idx gdi.Index, weight gdi.PropertyType, root uint64, want *olapBaseline, fig *olapFigures, opts olapRankOptions) error {
	start := time.Now()
	og, err := olap.ExtractGraph(db, c, olap.ExtractOptions{Index: idx, Weight: weight, NoScan: opts.noScan})
	if err != nil {
		return err
	}
	extract := time.Since(start)
	csr, err := csrBytes(c, og)
	if err != nil {
		return err
	}
	rounds := timeRounds(c, og)
	dist, err := olap.SSSP(og, root)
	if err == nil {
		err = c.Barrier()
	}
	if err != nil {
		return err
	}
	query := time.Since(start)
	if err := rma.Agree(c, checkSSSP(og, dist, want.dist)); err != nil {
		return err
	}
	sum, err := summariseSSSP(c, dist)
	if err != nil {
		return err
	}
	if c.Rank() == 0 {
		sum.Root = root
		fig.SSSP, fig.Query, fig.Extract, fig.Run, fig.Rounds, fig.CSRBytes = sum, query, extract, query-extract, *rounds, csr
	}
	return nil
}

// checkSSSP compares the distances of the local vertices of og with those
// of the plain CSR, want, if there are any.
func checkSSSP(og *olap.Graph, dist, want []float64) error {
	if want == nil {
		return nil
	}
	for i, d := range dist {
		if w := want[og.ID[i]]; d != w {
			return fmt.Errorf("sssp: vertex %d at distance %v in the database, %v in the plain CSR", og.ID[i], d, w)
		}
	}
	return nil
}

// summariseSSSP counts the reached vertices of all ranks and finds the
// largest finite distance. It is collective.
func summariseSSSP(c rma.Comm, dist []float64) (*ssspFigures, error) {
	reached, far := []int64{0}, []float64{0}
	for _, d := range dist {
		if !math.IsInf(d, 1) {
			reached[0]++
			far[0] = max(far[0], d)
		}
	}
	if err := c.AllreduceInt64(reached, rma.OpSum); err != nil {
		return nil, err
	}
	if err := c.AllreduceFloat64(far, rma.OpMax); err != nil {
		return nil, err
	}
	return &ssspFigures{Reached: reached[0], MaxDistance: far[0]}, nil
}

// benchBI times the BI query q, straight on the storage (olap.BIOnStorage)
// if onStorage, else through holders (olap.BI); both are a collective read
// transaction with no extraction. It checks the answer against want.bi if
// there is one.
func benchBI(c rma.Comm, db gdi.Database, q olap.BIQuery, onStorage bool, want *olapBaseline, fig *olapFigures) error {
	start := time.Now()
	bi := olap.BI
	if onStorage {
		bi = biOnStorage
	}
	res, err := bi(db, c, q)
	if err != nil {
		return err
	}
	query := time.Since(start)
	if w := want.bi; w != nil {
		if res.Sources != w.Sources || res.Edges != w.Edges || math.Abs(res.WeightSum-w.WeightSum) > 1e-9*math.Abs(w.WeightSum) {
			return fmt.Errorf("bi: %+v in the database, %+v in the plain CSR", res, *w)
		}
	}
	if c.Rank() == 0 {
		fig.BI = &biFigures{q.MinDegree, q.MinWeight, res.Sources, res.Edges, res.WeightSum}
		fig.Query, fig.Run = query, query
	}
	return nil
}

// biOnStorage is olap.BIOnStorage in a collective read transaction of
// its own, from its start to its commit.
func biOnStorage(db gdi.Database, c rma.Comm, q olap.BIQuery) (olap.BIResult, error) {
	tx, err := db.StartCollectiveTransaction()
	if err != nil {
		return olap.BIResult{}, err
	}
	res, err := olap.BIOnStorage(tx, c, q)
	if err != nil {
		tx.Abort()
		return res, err
	}
	return res, tx.Commit()
}

// timeRounds times the rounds of og on rank 0, from now on, into the slice
// it returns.
func timeRounds(c rma.Comm, og *olap.Graph) *[]time.Duration {
	rounds, onRound := roundTimer(c)
	og.OnRound = onRound
	return rounds
}

// roundTimer returns the times of the rounds from now on, and the
// function that ends a round: on rank 0; nil on the others.
func roundTimer(c rma.Comm) (*[]time.Duration, func()) {
	rounds := new([]time.Duration)
	if c.Rank() != 0 {
		return rounds, nil
	}
	last := time.Now()
	return rounds, func() {
		now := time.Now()
		*rounds, last = append(*rounds, now.Sub(last)), now
	}
}
