package olap

import (
	"fmt"
	"slices"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
)

// numberByUID finds the global number and ID of every remote end of the
// local edges through a directory keyed by UID, makes the ghosts, and
// returns the slot of every edge's other end (-1: outside the index).
//
// Every end of a local edge gets a number of its own, found once (tmpOf):
// a local vertex its index, a remote one NumLocal+k in the order first
// seen; ends[j] is that of edge j, and becomes its slot once the ghosts
// are known.
func numberByUID(g *Graph, comm rma.Comm, part *localPart) ([]int32, error) {
	p, me := comm.Size(), comm.Rank()
	// Round 1: register (uid -> gid, id) with the directory ranks.
	reg := make([][]byte, p)
	for i, u := range part.uids {
		d := dirRank(u, p)
		reg[d] = appendU64(reg[d], uint64(u), uint64(g.Offsets[me]+int64(i)), part.ids[i])
	}
	got, err := comm.Alltoallv(reg)
	if err != nil {
		return nil, err
	}
	dir := map[gdi.VertexUID]dirEntry{}
	for _, b := range got {
		for len(b) >= 24 {
			dir[gdi.VertexUID(u64(b))] = dirEntry{int64(u64(b[8:])), u64(b[16:])}
			b = b[24:]
		}
	}

	// Round 2: ask the directory about every remote neighbour. Every end
	// of a local edge gets a number of its own, found once (tmpOf): a
	// local vertex its index, a remote one NumLocal+k in the order first
	// seen; ends[j] is that of edge j. Slots are given to those numbers
	// once the ghosts are known.
	tmpOf := make(map[gdi.VertexUID]int32, len(part.uids))
	for i, u := range part.uids {
		tmpOf[u] = int32(i)
	}
	queries := make([][]gdi.VertexUID, p)
	ends := make([]int32, len(part.edges))
	var remote []gdi.VertexUID
	for j, e := range part.edges {
		t, ok := tmpOf[e.other]
		if !ok {
			t = int32(len(part.uids) + len(remote))
			tmpOf[e.other] = t
			remote = append(remote, e.other)
			d := dirRank(e.other, p)
			queries[d] = append(queries[d], e.other)
		}
		ends[j] = t
	}
	send := make([][]byte, p)
	for r, q := range queries {
		for _, u := range q {
			send[r] = appendU64(send[r], uint64(u))
		}
	}
	if got, err = comm.Alltoallv(send); err != nil {
		return nil, err
	}
	// Round 3: answer (gid, id), gid -1 for a vertex outside the index.
	for r, b := range got {
		send[r] = send[r][:0]
		for ; len(b) >= 8; b = b[8:] {
			e, ok := dir[gdi.VertexUID(u64(b))]
			if !ok {
				e.gid = -1
			}
			send[r] = appendU64(send[r], uint64(e.gid), e.id)
		}
	}
	if got, err = comm.Alltoallv(send); err != nil {
		return nil, err
	}
	slotOf, err := uidGhosts(g, part, queries, got, tmpOf, len(remote))
	if err != nil {
		return nil, err
	}
	for j, t := range ends {
		ends[j] = slotOf[t]
	}
	return ends, nil
}

// uidGhosts makes the ghosts from the directory's answers got to queries
// (the remote neighbours inside the index, sorted by global number), and
// returns the slot of every number tmpOf gave an end (-1 outside the
// index); remote is how many of those numbers are remote.
func uidGhosts(g *Graph, part *localPart, queries [][]gdi.VertexUID, got [][]byte, tmpOf map[gdi.VertexUID]int32, remote int) ([]int32, error) {
	p, me := len(queries), g.comm.Rank()
	type ghost struct {
		dirEntry
		uid gdi.VertexUID
	}
	var ghosts []ghost
	for r, q := range queries {
		b := got[r]
		if len(b) != 16*len(q) {
			return nil, fmt.Errorf("olap: directory rank %d answered %d bytes for %d queries", r, len(b), len(q))
		}
		for _, u := range q {
			if e := (dirEntry{int64(u64(b)), u64(b[8:])}); e.gid >= 0 {
				ghosts = append(ghosts, ghost{e, u})
			}
			b = b[16:]
		}
	}
	slices.SortFunc(ghosts, func(a, b ghost) int { return cmpI64(a.gid, b.gid) })
	g.ID = append(slices.Clone(part.ids), make([]uint64, len(ghosts))...)
	g.GID = make([]int64, g.NumLocal+len(ghosts))
	for i := range g.NumLocal {
		g.GID[i] = g.Offsets[me] + int64(i)
	}
	g.ghostOff = make([]int, p+1)
	slotOf := make([]int32, len(part.uids)+remote) // by number of an end; -1 outside the index
	for i := range part.uids {
		slotOf[i] = int32(i)
	}
	for k := range remote {
		slotOf[len(part.uids)+k] = -1
	}
	for k, e := range ghosts {
		s := g.NumLocal + k
		g.ID[s], g.GID[s] = e.id, e.gid
		slotOf[tmpOf[e.uid]] = int32(s)
		r, _ := g.Owner(e.gid)
		g.ghostOff[r+1]++
	}
	for r := 0; r < p; r++ {
		g.ghostOff[r+1] += g.ghostOff[r]
	}

	return slotOf, nil
}

// dirEntry is what the directory knows of a vertex: its global number
// (-1 outside the index) and its ID.
type dirEntry struct {
	gid int64
	id  uint64
}
