package olap

import (
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
)

// extractLocal is Extract's work on one rank, in steps: read the local
// part, give every rank a range of global numbers, give every end of a
// local edge its slot (numberByUID), build the CSR, and agree on the edge
// count and the halo plan (finish).
func extractLocal(tx gdi.Transaction, comm rma.Comm, opts ExtractOptions) (*Graph, error) {
	if ks, ok := keyedScanner(tx, opts); ok {
		return extractKeyed(ks, comm, opts)
	}
	part, directed, local := readLocal(tx, opts)
	if err := rma.Agree(comm, local); err != nil {
		return nil, err
	}
	g := &Graph{comm: comm, NumLocal: len(part.ids)}
	if err := numberRanges(g, comm); err != nil {
		return nil, err
	}
	slots, err := numberByUID(g, comm, part)
	if err != nil {
		return nil, err
	}
	missing := buildCSR(g, part.edges, part.weights, slots, opts.Weight != gdi.PropertyTypeNull, directed) // reported after the last collective
	if err := finish(g, comm, directed); err != nil {
		return nil, err
	}
	return g, missing
}

// keyedScanner returns tx as a gdi.KeyedAdjacencyScanner if Extract
// reads by keys: the backend has it, and gdi.KeyedEdgePropertyScanner too
// if a weight is asked for, and opts do not ask otherwise.
func keyedScanner(tx gdi.Transaction, opts ExtractOptions) (gdi.KeyedAdjacencyScanner, bool) {
	ks, ok := tx.(gdi.KeyedAdjacencyScanner)
	if !ok || opts.NoScan || opts.NoKeys {
		return nil, false
	}
	if _, ok := tx.(gdi.KeyedEdgePropertyScanner); !ok && opts.Weight != gdi.PropertyTypeNull {
		return nil, false
	}
	return ks, true
}

// extractKeyed is extractLocal by keys (keyed.go, keyedweights.go): the
// local vertices in the backend's order, their lists written as the scan
// goes, and the weights read in one scan of the edge holders.
func extractKeyed(ks gdi.KeyedAdjacencyScanner, comm rma.Comm, opts ExtractOptions) (*Graph, error) {
	s, err := readKeyed(ks, comm, opts)
	if err := rma.Agree(comm, err); err != nil {
		return nil, err
	}
	if opts.Weight != gdi.PropertyTypeNull {
		if err := s.readWeights(ks.(gdi.KeyedEdgePropertyScanner), comm, opts.Weight); err != nil {
			return nil, err
		}
	}
	g := &Graph{comm: comm, NumLocal: len(s.ids)}
	if err := numberRanges(g, comm); err != nil {
		return nil, err
	}
	if err := rma.Agree(comm, numberByKey(g, comm, s)); err != nil {
		return nil, err
	}
	if err := finish(g, comm, s.inOff != nil); err != nil {
		return nil, err
	}
	if g.OutW != nil {
		return g, missingWeight(g) // reported after the last collective
	}
	return g, nil
}

// numberRanges gives every rank a contiguous range of global numbers, in
// rank order (g.Offsets, g.N).
func numberRanges(g *Graph, comm rma.Comm) (err error) {
	if g.Offsets, err = rankOffsets(comm, g.NumLocal); err == nil {
		g.N = g.Offsets[comm.Size()]
	}
	return err
}

// rankOffsets returns the first global number of every rank, and their
// number in all at the end, for n local vertices on this rank. It is
// collective.
func rankOffsets(comm rma.Comm, n int) ([]int64, error) {
	all, err := allgatherInt64(comm, []int64{int64(n)})
	if err != nil {
		return nil, err
	}
	offsets := make([]int64, len(all)+1)
	for r, c := range all {
		offsets[r+1] = offsets[r] + c
	}
	return offsets, nil
}

// finish agrees on the edge count and kind over all ranks, and tells
// every owner which of its vertices this rank holds as ghosts (the halo
// plan, g.sendIdx).
func finish(g *Graph, comm rma.Comm, directed bool) error {
	p := comm.Size()
	flags := []int64{0, int64(len(g.Out))}
	if directed {
		flags[0] = 1
	}
	if err := comm.AllreduceInt64(flags, rma.OpSum); err != nil {
		return err
	}
	g.Directed = flags[0] > 0 || g.N == 0
	g.M = flags[1]
	if !g.Directed {
		g.M /= 2
	}
	// Halo plan: tell every owner which of its vertices we hold as ghosts.
	send := make([][]byte, p)
	for r := 0; r < p; r++ {
		for k := g.ghostOff[r]; k < g.ghostOff[r+1]; k++ {
			_, idx := g.Owner(g.GID[g.NumLocal+k])
			send[r] = appendU64(send[r], uint64(idx))
		}
	}
	got, err := comm.Alltoallv(send)
	if err != nil {
		return err
	}
	g.sendIdx = make([][]int32, p)
	for r, b := range got {
		for ; len(b) >= 8; b = b[8:] {
			g.sendIdx[r] = append(g.sendIdx[r], int32(u64(b)))
		}
	}
	return nil
}
