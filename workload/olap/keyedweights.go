package olap

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
)

// Weights by keys (gdi.KeyedEdgePropertyScanner). Every out-entry of the
// keyed scan keeps the code of its edge's holder. Each rank reads the
// weights of the holders it stores in one scan of them, in an array by
// key; an entry whose holder is on another rank asks that rank, in one
// Alltoallv round trip for all of them. No edge holder is read per edge.

// noHolder is the holder code of an edge without a holder: no weight.
const noHolder = math.MaxUint32

// holderCode is the code of the holder of edge e, noHolder if it has
// none or names one outside the ranks' keys (then it has no weight).
func (s *keyedScan) holderCode(e gdi.KeyedEdge) uint32 {
	if c, ok := s.codes.code(e.HolderHome, e.HolderKey); ok && e.HolderKey != 0 {
		return c
	}
	return noHolder
}

// readWeights fills s.weights: the weight of pt of the edge of every
// out-entry, NaN if it has none. It is collective.
func (s *keyedScan) readWeights(es gdi.KeyedEdgePropertyScanner, comm rma.Comm, pt gdi.PropertyType) error {
	me, p := comm.Rank(), comm.Size()
	local, err := localWeights(es, pt, s.codes.keys(me))
	if err := rma.Agree(comm, err); err != nil {
		return err
	}
	s.weights = make([]float64, len(s.holder))
	send, asked := make([][]byte, p), make([][]int32, p) // by home: keys asked, and for which entries
	for j, h := range s.holder {
		s.weights[j] = math.NaN()
		if h == noHolder {
			continue
		}
		if home, k := s.codes.home(h); home == me {
			s.weights[j] = local[k]
		} else {
			send[home] = binary.LittleEndian.AppendUint32(send[home], uint32(k))
			asked[home] = append(asked[home], int32(j))
		}
	}
	return s.askWeights(comm, send, asked, local)
}

// askWeights sends every home the holder keys asked of it and puts the
// weights it answers (from local, its weights by key) in the entries
// asked. It is collective.
func (s *keyedScan) askWeights(comm rma.Comm, send [][]byte, asked [][]int32, local []float64) error {
	got, err := comm.Alltoallv(send)
	if err != nil {
		return err
	}
	if got, err = comm.Alltoallv(answerWeights(got, local)); err != nil {
		return err
	}
	for r, m := range got {
		if len(m) != 8*len(asked[r]) {
			return fmt.Errorf("olap: rank %d answered %d bytes for %d weights", r, len(m), len(asked[r]))
		}
		for i, j := range asked[r] {
			s.weights[j] = math.Float64frombits(u64(m[8*i:]))
		}
	}
	return nil
}

// localWeights reads the weight of pt of every edge holder of this rank,
// of keys below n, into an array by key (NaN: none).
func localWeights(es gdi.KeyedEdgePropertyScanner, pt gdi.PropertyType, n uint64) ([]float64, error) {
	local := make([]float64, n)
	for k := range local {
		local[k] = math.NaN()
	}
	err := es.ScanLocalEdgeProperty(pt, func(key uint64, vals []gdi.Value) error {
		if key >= n {
			return fmt.Errorf("olap: edge holder key %d past the limit %d", key, n)
		}
		w, err := weightOf(vals)
		if errors.Is(err, errNoWeight) {
			return nil
		}
		local[key] = w
		return err
	})
	return local, err
}

// answerWeights answers the holder keys that every rank asked (asked, by
// rank) with their weights in local (NaN past it).
func answerWeights(asked [][]byte, local []float64) [][]byte {
	answers := make([][]byte, len(asked))
	for r, m := range asked {
		for ; len(m) >= 4; m = m[4:] {
			w := math.NaN()
			if k := binary.LittleEndian.Uint32(m); int(k) < len(local) {
				w = local[k]
			}
			answers[r] = appendU64(answers[r], math.Float64bits(w))
		}
	}
	return answers
}

// missingWeight returns the error of the first out-edge of g without a
// weight, if any.
func missingWeight(g *Graph) error {
	for i := range g.NumLocal {
		for j := g.OutOff[i]; j < g.OutOff[i+1]; j++ {
			if math.IsNaN(g.OutW[j]) {
				return fmt.Errorf("olap: edge %d -> %d has no weight", g.ID[i], g.ID[g.Out[j]])
			}
		}
	}
	return nil
}
