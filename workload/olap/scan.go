package olap

import (
	"fmt"
	"slices"

	"github.com/gdi-go/gdi/gdi"
)

// scanChunk is how many edges readScanned keeps in one piece: the edges
// are gathered in pieces that never move, then placed once.
const scanChunk = 1 << 16

// readScanned is readLocal through the backend's AdjacencyScanner: one
// pass over the rank's storage, no holder per vertex or edge. The
// vertices come in the backend's order; their edges are kept in pieces as
// they come, and placed once, by a counting sort, in the ID order of the
// vertices.
func readScanned(sc gdi.AdjacencyScanner, opts ExtractOptions) (*localPart, bool, error) {
	type vtx struct {
		uid     gdi.VertexUID
		id      uint64
		scanned int32 // its index in the order of the scan
		degree  int32
	}
	var vs []vtx
	var pieces [][]rawEdge // rawEdge.local is the scan index until placed
	cur := make([]rawEdge, 0, scanChunk)
	directed := false
	err := sc.ScanLocalAdjacency(opts.Index, func(v *gdi.LocalAdjacency) error {
		if v.ID == nil {
			return fmt.Errorf("olap: vertex %v has no application-level ID", v.UID)
		}
		id, err := ParseID(v.ID)
		if err != nil {
			return err
		}
		if len(cur)+len(v.Edges) > cap(cur) {
			pieces = append(pieces, cur)
			cur = make([]rawEdge, 0, max(scanChunk, len(v.Edges)))
		}
		for _, x := range v.Edges {
			re := rawEdge{local: int32(len(vs)), other: x.Other}
			if x.Direction == gdi.Undirected {
				re.out, re.in = true, true
			} else {
				directed = true
				re.out, re.in = x.IsOrigin, x.IsTarget
			}
			cur = append(cur, re)
		}
		vs = append(vs, vtx{v.UID, id, int32(len(vs)), int32(len(v.Edges))})
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	pieces = append(pieces, cur)
	slices.SortFunc(vs, func(a, b vtx) int { return cmpU64(a.id, b.id) })
	p := &localPart{uids: make([]gdi.VertexUID, len(vs)), ids: make([]uint64, len(vs))}
	placed := make([]int32, len(vs)) // by scan index: its ID-order index
	at := make([]int, len(vs)+1)     // by ID-order index: where its edges go
	for i, v := range vs {
		if i > 0 && v.id == vs[i-1].id {
			return nil, false, fmt.Errorf("olap: application-level ID %d used twice", v.id)
		}
		p.uids[i], p.ids[i] = v.uid, v.id
		placed[v.scanned] = int32(i)
		at[i+1] = at[i] + int(v.degree)
	}
	p.edges = make([]rawEdge, at[len(vs)])
	for _, piece := range pieces {
		for _, e := range piece {
			i := placed[e.local]
			e.local = i
			p.edges[at[i]] = e
			at[i]++
		}
	}
	return p, directed, nil
}
