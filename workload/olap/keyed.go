package olap

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
)

// Extraction by keys (gdi.KeyedAdjacencyScanner). Where the backend
// numbers each rank's vertices densely, every end of an edge is a (home,
// key) pair: a local end finds its slot in an array indexed by key, and
// the remote ends are marked in a bitmap per home, sent to their home as
// key lists in one Alltoallv and answered (global number, ID) from the
// home's array. No UID is hashed and no directory is kept.

// keyedPart is the local part read by keys: the edges (rawEdge.other
// unused) with the home and key of their other ends beside them.
type keyedPart struct {
	ids     []uint64
	edges   []rawEdge
	home    []int32
	key     []uint32
	limits  []uint64 // KeyLimit of every rank
	localOf []int32  // by key of this rank: the local index, -1 if none
}

// readKeyed scans the local part by keys and puts the vertices in ID
// order and their edges with them (scanOrder).
func readKeyed(ks gdi.KeyedAdjacencyScanner, comm rma.Comm, opts ExtractOptions) (*keyedPart, bool, error) {
	p := &keyedPart{limits: make([]uint64, comm.Size())}
	for r := range p.limits {
		l, err := ks.KeyLimit(r)
		if err != nil {
			return nil, false, err
		}
		if l > 1<<32 {
			return nil, false, fmt.Errorf("olap: rank %d has keys up to %d, past 32 bits", r, l)
		}
		p.limits[r] = l
	}
	type end struct {
		home int32
		key  uint32
		out  bool
		in   bool
	}
	var s scanOrder[end]
	var keys []uint32 // by scan index
	directed := false
	err := ks.ScanLocalKeyed(opts.Index, func(v *gdi.KeyedAdjacency) error {
		if v.ID == nil {
			return fmt.Errorf("olap: vertex of key %d has no application-level ID", v.Key)
		}
		if _, err := s.vertex(v.ID, len(v.Edges)); err != nil {
			return err
		}
		keys = append(keys, uint32(v.Key))
		for _, x := range v.Edges {
			e := end{home: int32(x.Home), key: uint32(x.Key), out: true, in: true}
			if x.Direction != gdi.Undirected {
				directed = true
				e.out, e.in = x.IsOrigin, x.IsTarget
			}
			s.edge(e)
		}
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	m := s.edgeCount()
	p.edges, p.home, p.key = make([]rawEdge, m), make([]int32, m), make([]uint32, m)
	scanned, err := s.place(func(i int32, j int, e end) {
		p.edges[j] = rawEdge{local: i, out: e.out, in: e.in}
		p.home[j], p.key[j] = e.home, e.key
	})
	if err != nil {
		return nil, false, err
	}
	n := len(scanned)
	p.ids = make([]uint64, n)
	p.localOf = make([]int32, p.limits[comm.Rank()])
	for k := range p.localOf {
		p.localOf[k] = -1
	}
	for i, k := range scanned {
		p.ids[i], p.localOf[keys[k]] = s.ids[k], int32(i)
	}
	return p, directed, nil
}

// numberByKey finds the global number and ID of every remote end of the
// local edges from its home, makes the ghosts, and returns the slot of
// every edge's other end (-1: outside the index).
func numberByKey(g *Graph, comm rma.Comm, part *keyedPart) ([]int32, error) {
	p, me := comm.Size(), comm.Rank()
	// The remote ends, a bitmap per home, and their keys in order.
	need := make([][]uint64, p)
	for r := range p {
		if r != me {
			need[r] = make([]uint64, (part.limits[r]+63)/64)
		}
	}
	for j, h := range part.home {
		if int(h) != me {
			k := part.key[j]
			need[h][k/64] |= 1 << (k % 64)
		}
	}
	send := make([][]byte, p)
	before := make([][]int32, p) // per home, per bitmap word: marked keys before it
	for r, words := range need {
		before[r] = make([]int32, len(words)+1)
		for w, x := range words {
			before[r][w+1] = before[r][w] + int32(bits.OnesCount64(x))
			for ; x != 0; x &= x - 1 {
				send[r] = binary.LittleEndian.AppendUint32(send[r], uint32(w*64+bits.TrailingZeros64(x)))
			}
		}
	}
	got, err := comm.Alltoallv(send)
	if err != nil {
		return nil, err
	}
	for r, b := range got { // answer (global number, ID), -1 outside the index
		send[r] = send[r][:0]
		for ; len(b) >= 4; b = b[4:] {
			k := binary.LittleEndian.Uint32(b)
			gid, id := int64(-1), uint64(0)
			if int(k) < len(part.localOf) && part.localOf[k] >= 0 {
				i := part.localOf[k]
				gid, id = g.Offsets[me]+int64(i), part.ids[i]
			}
			send[r] = appendU64(send[r], uint64(gid), id)
		}
	}
	if got, err = comm.Alltoallv(send); err != nil {
		return nil, err
	}
	slotOf, err := keyedGhosts(g, part, need, before, got)
	if err != nil {
		return nil, err
	}
	slots := make([]int32, len(part.home))
	for j, h := range part.home {
		k := part.key[j]
		switch {
		case int(h) == me && int(k) < len(part.localOf):
			slots[j] = part.localOf[k]
		case int(h) == me:
			slots[j] = -1
		default:
			w := k / 64
			slots[j] = slotOf[h][before[h][w]+int32(bits.OnesCount64(need[h][w]&(1<<(k%64)-1)))]
		}
	}
	return slots, nil
}

// keyedGhosts makes the ghosts from the answers got (by home, in the
// order of the marked keys), sorted by global number, and returns, per
// home and per marked key, the ghost's slot (-1 outside the index).
func keyedGhosts(g *Graph, part *keyedPart, need [][]uint64, before [][]int32, got [][]byte) ([][]int32, error) {
	type ghost struct {
		gid    int64
		id     uint64
		home   int32
		marked int32
	}
	var ghosts []ghost
	slotOf := make([][]int32, len(need))
	for r, b := range got {
		n := 0
		if len(before[r]) > 0 {
			n = int(before[r][len(before[r])-1])
		}
		if len(b) != 16*n {
			return nil, fmt.Errorf("olap: rank %d answered %d bytes for %d keys", r, len(b), n)
		}
		slotOf[r] = make([]int32, n)
		for i := range n {
			slotOf[r][i] = -1
			if gid := int64(u64(b[16*i:])); gid >= 0 {
				ghosts = append(ghosts, ghost{gid, u64(b[16*i+8:]), int32(r), int32(i)})
			}
		}
	}
	slices.SortFunc(ghosts, func(a, b ghost) int { return cmpI64(a.gid, b.gid) })
	me, nl := g.comm.Rank(), g.NumLocal
	g.ID = append(slices.Clone(part.ids), make([]uint64, len(ghosts))...)
	g.GID = make([]int64, nl+len(ghosts))
	for i := range nl {
		g.GID[i] = g.Offsets[me] + int64(i)
	}
	g.ghostOff = make([]int, len(need)+1)
	for k, e := range ghosts {
		g.ID[nl+k], g.GID[nl+k] = e.id, e.gid
		slotOf[e.home][e.marked] = int32(nl + k)
		g.ghostOff[e.home+1]++
	}
	for r := range need {
		g.ghostOff[r+1] += g.ghostOff[r]
	}
	return slotOf, nil
}
