package olap

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
)

// The BI aggregation straight on the storage of a backend with
// gdi.KeyedAdjacencyReader and gdi.KeyedEdgePropertyScanner, with no
// holder read per vertex or edge:
//
//  1. a scan of the local vertices of the index, which decodes no edge,
//     marks those of degree MinDegree or more in a bitmap over codes,
//     gathered from all ranks in one Allgatherv;
//  2. a scan of the local edge holders reads every weight into an array
//     by key;
//  3. every marked local vertex a is read again by key and its out-edges
//     (undirected edges either way) matched: the far end b must be
//     marked, and the weight, here or asked of the rank that holds the
//     edge's holder in one Alltoallv round trip, must exceed MinWeight.
//
// The far end b ranges over the vertices of q.Index: q.Vertex is not
// read, the index stands for it (the index over Vertex, or an index over
// every vertex with q.Vertex LabelNull).

// BIOnStorage answers q inside the collective read transaction tx, whose
// backend must have gdi.KeyedAdjacencyReader and
// gdi.KeyedEdgePropertyScanner (ErrArgument otherwise). It is collective.
func BIOnStorage(tx gdi.Transaction, comm rma.Comm, q BIQuery) (BIResult, error) {
	b, err := newStorageBI(tx, comm, q)
	if err = rma.Agree(comm, err); err != nil {
		return BIResult{}, err
	}
	if b.marked, err = b.codes.gather(comm, b.mine); err != nil {
		return BIResult{}, err
	}
	if err = rma.Agree(comm, b.match()); err != nil {
		return BIResult{}, err
	}
	if err := b.askWeights(); err != nil {
		return BIResult{}, err
	}
	for _, hit := range b.hit {
		if hit {
			b.res.Sources++
		}
	}
	return sumBI(comm, b.res)
}

// storageBI is one rank's state of BIOnStorage.
type storageBI struct {
	kr      gdi.KeyedAdjacencyReader
	comm    rma.Comm
	q       BIQuery
	codes   codeSpace
	sources []uint32  // keys of the local vertices of degree MinDegree or more
	mine    []uint64  // bitmap over this rank's keys: those vertices
	marked  []uint64  // bitmap over all codes: such vertices of every rank
	weights []float64 // by edge holder key of this rank, NaN: none
	hit     []bool    // by source: it has a matching edge
	res     BIResult  // this rank's edges and weight sum

	// The source at hand and what match asks of other ranks, for edge,
	// which goes through a callback made once (reads).
	src     int32
	err     error
	ask     [][]byte  // by home: the holder keys whose weights are asked
	askedBy [][]int32 // by home: the source asking each
	reads   func(*gdi.KeyedAdjacency) error
}

// newStorageBI lists the local sources and reads the local weights
// (steps 1 and 2 but the gathering).
func newStorageBI(tx gdi.Transaction, comm rma.Comm, q BIQuery) (*storageBI, error) {
	kr, ok1 := tx.(gdi.KeyedAdjacencyReader)
	es, ok2 := tx.(gdi.KeyedEdgePropertyScanner)
	if !ok1 || !ok2 {
		return nil, gdi.Errorf(gdi.ErrArgument, "olap: BIOnStorage needs gdi.KeyedAdjacencyReader and gdi.KeyedEdgePropertyScanner")
	}
	codes, err := newCodeSpace(kr, comm.Size())
	if err != nil {
		return nil, err
	}
	me := comm.Rank()
	b := &storageBI{kr: kr, comm: comm, q: q, codes: codes, mine: make([]uint64, codes.keys(me)/64)}
	edge := b.edge
	b.reads = func(a *gdi.KeyedAdjacency) error { a.Edges(edge); return b.err }
	err = kr.ScanLocalKeyed(q.Index, func(v *gdi.KeyedAdjacency) error {
		if v.Degree >= q.MinDegree {
			b.sources = append(b.sources, uint32(v.Key))
			set(b.mine, uint32(v.Key))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	b.hit = make([]bool, len(b.sources))
	b.weights, err = localWeights(es, q.Weight, codes.keys(me))
	return b, err
}

// match reads every source and weighs its edges to marked vertices whose
// weights are here; those whose weights are elsewhere go to b.ask.
func (b *storageBI) match() error {
	p := b.comm.Size()
	b.ask, b.askedBy = make([][]byte, p), make([][]int32, p)
	for i, key := range b.sources {
		b.src = int32(i)
		if err := b.kr.ReadLocalKeyed(uint64(key), b.reads); err != nil {
			return err
		}
	}
	return nil
}

// edge is match's work on an edge of the source at hand.
func (b *storageBI) edge(e gdi.KeyedEdge) bool {
	c, err := b.codes.edgeEnd(e)
	if b.err = err; err != nil {
		return false
	}
	_, hasHolder := b.codes.code(e.HolderHome, e.HolderKey)
	switch {
	case e.Direction != gdi.Undirected && !e.IsOrigin, !has(b.marked, c), !hasHolder || e.HolderKey == 0:
		// not an out-edge, b not of the degree, or no weight
	case e.HolderHome == b.comm.Rank():
		b.weigh(b.src, b.weights[e.HolderKey])
	default:
		b.ask[e.HolderHome] = binary.LittleEndian.AppendUint32(b.ask[e.HolderHome], uint32(e.HolderKey))
		b.askedBy[e.HolderHome] = append(b.askedBy[e.HolderHome], b.src)
	}
	return true
}

// weigh counts an edge of source src of weight w if w exceeds MinWeight
// (NaN, no weight, does not).
func (b *storageBI) weigh(src int32, w float64) {
	if w > b.q.MinWeight {
		b.res.Edges++
		b.res.WeightSum += w
		b.hit[src] = true
	}
}

// askWeights asks every rank the weights of b.ask, answers what others
// ask of this rank, and weighs the edges asked for. It is collective.
func (b *storageBI) askWeights() error {
	got, err := b.comm.Alltoallv(b.ask)
	if err != nil {
		return err
	}
	if got, err = b.comm.Alltoallv(answerWeights(got, b.weights)); err != nil {
		return err
	}
	for r, m := range got {
		if len(m) != 8*len(b.askedBy[r]) {
			return fmt.Errorf("olap: rank %d answered %d bytes for %d weights", r, len(m), len(b.askedBy[r]))
		}
		for i, src := range b.askedBy[r] {
			b.weigh(src, math.Float64frombits(u64(m[8*i:])))
		}
	}
	return nil
}
