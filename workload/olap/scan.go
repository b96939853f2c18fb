package olap

import (
	"fmt"

	"github.com/gdi-go/gdi/gdi"
)

// scanChunk is how many edges a scan keeps in one piece (scanOrder).
const scanChunk = 1 << 16

// readScanned is readLocal through the backend's AdjacencyScanner: one
// pass over the rank's storage, no holder per vertex or edge, the
// vertices and edges put in ID order afterwards (scanOrder).
func readScanned(sc gdi.AdjacencyScanner, opts ExtractOptions) (*localPart, bool, error) {
	var s scanOrder[rawEdge]
	var uids []gdi.VertexUID // by scan index
	directed := false
	err := sc.ScanLocalAdjacency(opts.Index, func(v *gdi.LocalAdjacency) error {
		if v.ID == nil {
			return fmt.Errorf("olap: vertex %v has no application-level ID", v.UID)
		}
		if _, err := s.vertex(v.ID, len(v.Edges)); err != nil {
			return err
		}
		uids = append(uids, v.UID)
		for _, x := range v.Edges {
			re := rawEdge{other: x.Other, out: true, in: true}
			if x.Direction != gdi.Undirected {
				directed = true
				re.out, re.in = x.IsOrigin, x.IsTarget
			}
			s.edge(re)
		}
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	p := &localPart{edges: make([]rawEdge, s.edgeCount())}
	scanned, err := s.place(func(i int32, j int, e rawEdge) {
		e.local = i
		p.edges[j] = e
	})
	if err != nil {
		return nil, false, err
	}
	p.uids, p.ids = make([]gdi.VertexUID, len(scanned)), make([]uint64, len(scanned))
	for i, k := range scanned {
		p.uids[i], p.ids[i] = uids[k], s.ids[k]
	}
	return p, directed, nil
}
