package olap

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
)

// Graph is one rank's part of a graph extracted from a gdi database: its
// local vertices numbered densely, their edges in CSR form, and the ghost
// vertices (remote neighbours) with the halo-exchange plan.
//
// Slots. Local vertex i (0 <= i < NumLocal) is slot i; ghost k is slot
// NumLocal+k. Adjacency lists hold slots, so an algorithm indexes one
// array of length NumSlots() for local and remote values alike, and
// Exchange fills the ghost part from the owners.
//
// Global numbers. Rank r owns the contiguous global numbers
// [Offsets[r], Offsets[r+1]); local vertex i of rank r is Offsets[r]+i.
// Local vertices are in the order extraction met them: the backend's
// storage order where it scans by keys, application-ID order otherwise.
type Graph struct {
	comm rma.Comm
	// Directed tells whether the graph had directed edges. In an
	// undirected graph every edge {u,v} is an out- and an in-edge of both
	// ends.
	Directed bool
	// N is the number of vertices of all ranks; M the number of edges
	// (undirected edges counted once).
	N, M int64
	// Offsets has Size()+1 entries: the global numbers of each rank.
	Offsets []int64
	// NumLocal is the number of local vertices.
	NumLocal int
	// ID holds the application-level ID (Graphalytics vertex id) of every
	// slot; GID its global number.
	ID  []uint64
	GID []int64
	// OutOff/Out and InOff/In are the out- and in-adjacency of the local
	// vertices in CSR form: the neighbours of i are Out[OutOff[i]:OutOff[i+1]].
	OutOff, InOff []int32
	Out, In       []int32
	// OutW are the weights of Out, nil without a weight property.
	OutW []float64
	// OnRound, if not nil, is called on this rank at the end of every
	// synchronous round (iteration, BFS level) of an algorithm, once the
	// ranks have agreed on how to go on: to time rounds, or show progress.
	OnRound func()

	// ghostOff[r]..ghostOff[r+1] are the ghosts owned by rank r (ghost
	// numbers, not slots): ghosts are sorted by global number.
	ghostOff []int
	// sendIdx[r] are the local vertices that rank r holds as ghosts, in
	// the order of its ghost segment.
	sendIdx [][]int32
}

// endRound reports the end of a round to OnRound.
func (g *Graph) endRound() {
	if g.OnRound != nil {
		g.OnRound()
	}
}

// Comm returns the communicator of the graph.
func (g *Graph) Comm() rma.Comm { return g.comm }

// Bytes is the size of g's arrays: the memory an extraction builds.
func (g *Graph) Bytes() int64 {
	n := 8*len(g.ID) + 8*len(g.GID) + 8*len(g.Offsets) + 4*(len(g.OutOff)+len(g.Out)) + 8*len(g.OutW)
	if len(g.InOff) > 0 && &g.InOff[0] != &g.OutOff[0] { // not shared with the out-lists
		n += 4 * (len(g.InOff) + len(g.In))
	}
	for _, idx := range g.sendIdx {
		n += 4 * len(idx)
	}
	return int64(n + 8*len(g.ghostOff))
}

// NumSlots is NumLocal plus the number of ghosts.
func (g *Graph) NumSlots() int { return len(g.ID) }

// OutDegree and InDegree of local vertex i.
func (g *Graph) OutDegree(i int) int { return int(g.OutOff[i+1] - g.OutOff[i]) }

// InDegree of local vertex i.
func (g *Graph) InDegree(i int) int { return int(g.InOff[i+1] - g.InOff[i]) }

// Owner returns the rank owning global number gid and its local index
// there.
func (g *Graph) Owner(gid int64) (rank, idx int) {
	r, found := slices.BinarySearch(g.Offsets, gid)
	if !found {
		r--
	}
	for r+1 < len(g.Offsets)-1 && g.Offsets[r+1] == gid { // skip empty ranks
		r++
	}
	return r, int(gid - g.Offsets[r])
}

// LocalOf returns the local index of the vertex with application ID id, or
// -1 if it is not local. It looks at every local vertex: it is for the
// few roots of a query, not for every vertex.
func (g *Graph) LocalOf(id uint64) int {
	return slices.Index(g.ID[:g.NumLocal], id)
}

// ExtractOptions says what Extract reads.
type ExtractOptions struct {
	// Index holds the vertices to extract (for example an index over the
	// vertex label); each rank starts from LocalVerticesOfIndex.
	Index gdi.Index
	// Weight, if not PropertyTypeNull, is a numeric single-value edge
	// property read into OutW (a missing weight is an error).
	Weight gdi.PropertyType
	// NoScan reads vertex by vertex even where the backend could scan
	// its storage (gdi.AdjacencyScanner): to compare the two. NoKeys
	// scans by UID even where the backend has keys
	// (gdi.KeyedAdjacencyScanner).
	NoScan, NoKeys bool
}

// ParseID turns an application-level ID, decimal text as the Graphalytics
// loader writes it, into a number.
func ParseID(b []byte) (uint64, error) {
	x, err := strconv.ParseUint(string(b), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("olap: application-level ID %q is not a decimal vertex id", b)
	}
	return x, nil
}

// rawEdge is an edge of a local vertex as read from gdi.
type rawEdge struct {
	other gdi.VertexUID
	local int32 // local index of the vertex
	out   bool  // local -> other (also for undirected)
	in    bool  // other -> local (also for undirected)
}

// Extract reads the local vertices of opts.Index and their edges inside the
// collective read transaction tx into a Graph. It is collective: every
// rank calls it in the same transaction. Only local reads are issued
// through gdi (the vertices and their edges); everything about remote
// vertices comes from the owners through three Alltoallv rounds, see the
// package documentation.
func Extract(tx gdi.Transaction, comm rma.Comm, opts ExtractOptions) (*Graph, error) {
	g, local := extractLocal(tx, comm, opts)
	return g, rma.Agree(comm, local)
}

type localPart struct {
	uids  []gdi.VertexUID
	ids   []uint64
	edges []rawEdge
	// weights, if the graph is weighted, are those of edges (NaN: none).
	weights []float64
}

func readLocal(tx gdi.Transaction, opts ExtractOptions) (*localPart, bool, error) {
	if sc, ok := tx.(gdi.AdjacencyScanner); ok && opts.Weight == gdi.PropertyTypeNull && !opts.NoScan {
		return readScanned(sc, opts)
	}
	uids, err := tx.LocalVerticesOfIndex(opts.Index, nil)
	if err != nil {
		return nil, false, fmt.Errorf("olap: local vertices: %w", err)
	}
	type vtx struct {
		uid gdi.VertexUID
		id  uint64
		h   gdi.VertexHolder
	}
	vs := make([]vtx, len(uids))
	var degrees uint64 // the edges to expect, if the backend tells
	for i, u := range uids {
		h, err := tx.AssociateVertex(u)
		if err != nil {
			return nil, false, err
		}
		degrees += degreeOf(h)
		idv, err := h.Properties(gdi.PropertyTypeID)
		if err != nil {
			return nil, false, err
		}
		if len(idv) != 1 {
			return nil, false, fmt.Errorf("olap: vertex %v has no application-level ID", u)
		}
		id, err := ParseID(idv[0].Raw())
		if err != nil {
			return nil, false, err
		}
		vs[i] = vtx{u, id, h}
	}
	slices.SortFunc(vs, func(a, b vtx) int { return cmpU64(a.id, b.id) })
	p := &localPart{
		uids:  make([]gdi.VertexUID, 0, len(vs)),
		ids:   make([]uint64, 0, len(vs)),
		edges: make([]rawEdge, 0, min(degrees, 1<<32)),
	}
	directed := false
	for i, v := range vs {
		if i > 0 && v.id == vs[i-1].id {
			return nil, false, fmt.Errorf("olap: application-level ID %d used twice", v.id)
		}
		p.uids = append(p.uids, v.uid)
		p.ids = append(p.ids, v.id)
		if ie, ok := v.h.(gdi.IncidentEdger); ok && opts.Weight == gdi.PropertyTypeNull {
			// The backend lists the edges with their ends: no holder
			// per edge.
			es, err := ie.IncidentEdges(gdi.EdgeAll, nil)
			if err != nil {
				return nil, false, err
			}
			for _, x := range es {
				re := rawEdge{local: int32(i), other: x.Other}
				switch {
				case x.Direction == gdi.Undirected:
					re.out, re.in = true, true
				default:
					directed = true
					re.out, re.in = x.IsOrigin, x.IsTarget
				}
				p.edges = append(p.edges, re)
			}
			continue
		}
		es, err := v.h.Edges(gdi.EdgeAll, nil)
		if err != nil {
			return nil, false, err
		}
		for _, eu := range es {
			eh, err := tx.AssociateEdge(eu)
			if err != nil {
				return nil, false, err
			}
			o, t, err := eh.Vertices()
			if err != nil {
				return nil, false, err
			}
			d, err := eh.Direction()
			if err != nil {
				return nil, false, err
			}
			re := rawEdge{local: int32(i)}
			switch {
			case d == gdi.Undirected:
				re.out, re.in = true, true
				re.other = t
				if t == v.uid {
					re.other = o
				}
			case o == v.uid && t == v.uid: // a directed loop
				directed = true
				re.out, re.in, re.other = true, true, o
			case o == v.uid:
				directed = true
				re.out, re.other = true, t
			default:
				directed = true
				re.in, re.other = true, o
			}
			if opts.Weight != gdi.PropertyTypeNull {
				// An edge without weight is an error only if it stays
				// in the graph, which the far end decides: NaN for now.
				w := math.NaN()
				if re.out {
					if w, err = weight(eh, opts.Weight); errors.Is(err, errNoWeight) {
						w = math.NaN()
					} else if err != nil {
						return nil, false, fmt.Errorf("olap: edge of vertex %d: %w", v.id, err)
					}
				}
				p.weights = append(p.weights, w)
			}
			p.edges = append(p.edges, re)
		}
	}
	return p, directed, nil
}

// degreeOf returns the degree of vertex h, or 0 if it cannot be read: a
// hint for the room to make for its edges.
func degreeOf(h gdi.VertexHolder) uint64 {
	d, err := h.Properties(gdi.PropertyTypeDegree)
	if err != nil || len(d) != 1 {
		return 0
	}
	x, err := d[0].Uint64Slice()
	if err != nil || len(x) != 1 {
		return 0
	}
	return x[0]
}

var errNoWeight = errors.New("edge has no weight")

func weight(eh gdi.EdgeHolder, p gdi.PropertyType) (float64, error) {
	vals, err := eh.Properties(p)
	if err != nil {
		return 0, err
	}
	return weightOf(vals)
}

// weightOf is the weight that the values vals of an edge's weight
// property give: errNoWeight if there are none.
func weightOf(vals []gdi.Value) (float64, error) {
	if len(vals) == 0 {
		return 0, errNoWeight
	}
	if len(vals) != 1 || vals[0].Len() != 1 {
		return 0, fmt.Errorf("edge has %d weights, want 1", len(vals))
	}
	v := vals[0]
	if f, err := v.Float64Slice(); err == nil {
		return f[0], nil
	}
	if x, err := v.Int64Slice(); err == nil {
		return float64(x[0]), nil
	}
	if x, err := v.Uint64Slice(); err == nil {
		return float64(x[0]), nil
	}
	return 0, fmt.Errorf("weight of datatype %v is not numeric", v.Datatype())
}

func cmpU64(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// dirRank is the directory rank of a UID: a hash, so that directory load
// is even whatever bits the backend puts into UIDs. Every rank must
// compute the same rank, so a fixed function is used (maphash seeds differ
// between processes).
func dirRank(u gdi.VertexUID, p int) int {
	x := uint64(u)
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return int(x % uint64(p))
}

func cmpI64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func appendU64(b []byte, xs ...uint64) []byte {
	for _, x := range xs {
		b = binary.LittleEndian.AppendUint64(b, x)
	}
	return b
}

func u64(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }

func allgatherInt64(comm rma.Comm, xs []int64) ([]int64, error) {
	send := appendU64(nil, toU64(xs)...)
	recv := make([]byte, len(send)*comm.Size())
	if err := comm.Allgather(send, recv); err != nil {
		return nil, err
	}
	out := make([]int64, len(recv)/8)
	for i := range out {
		out[i] = int64(u64(recv[8*i:]))
	}
	return out, nil
}

func toU64(xs []int64) []uint64 {
	out := make([]uint64, len(xs))
	for i, x := range xs {
		out[i] = uint64(x)
	}
	return out
}
