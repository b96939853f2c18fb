package olap

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
)

// A breadth-first search straight on the storage of a backend with
// gdi.KeyedAdjacencyReader: no graph is extracted. One scan lists the
// local vertices (keys and IDs, no edge decoded); then every level reads
// only the vertices it needs, in one of two directions (Beamer's
// direction-optimising BFS):
//
//   - top-down, while the frontier is small: each frontier vertex is read
//     and its out-edges claim their unvisited ends; remote ends go to
//     their home in one Alltoallv, each at most once;
//   - bottom-up, once the frontier is large: every rank gathers the
//     frontier of all ranks as one bitmap over codes, and each unvisited
//     local vertex reads its in-edges only until one comes from the
//     frontier. Most stop after a few edges, so a level costs far less
//     than reading every edge.
//
// A vertex without in-edges, found so in a bottom-up level, is never read
// again: nothing can reach it. Parents are kept as codes and turned into
// global numbers at the end, with one more exchange for remote ones.

// bottomUpShare: a level goes bottom-up when its frontier holds more
// than 1/bottomUpShare of all vertices.
const bottomUpShare = 32

// BFSOnStorage searches from the vertex of application-level ID root
// along out-edges (both ways for undirected edges), over the vertices of
// idx, inside the collective read transaction kr, and stops after
// maxDepth levels. onRound, if not nil, is called at the end of every
// level. Its result numbers the vertices as Extract does by keys, so
// Validate checks it against a graph extracted in the same transaction.
// It is collective.
func BFSOnStorage(kr gdi.KeyedAdjacencyReader, comm rma.Comm, idx gdi.Index, root uint64, maxDepth int64, onRound func()) (*BFSResult, error) {
	return bfsOnStorage(kr, comm, idx, root, maxDepth, onRound, bottomUpShare)
}

// bfsOnStorage is BFSOnStorage going bottom-up when the frontier holds
// more than 1/share of the vertices (share 1: never; a huge share: at
// every level).
func bfsOnStorage(kr gdi.KeyedAdjacencyReader, comm rma.Comm, idx gdi.Index, root uint64, maxDepth int64, onRound func(), share int64) (*BFSResult, error) {
	b, err := newStorageBFS(kr, comm, idx)
	if err = rma.Agree(comm, err); err != nil {
		return nil, err
	}
	if err := b.start(root); err != nil {
		return nil, err
	}
	for depth := int64(0); depth < maxDepth && b.total > 0; depth++ {
		if b.total > b.n/share {
			err = b.bottomUp(depth)
		} else {
			err = b.topDown(depth)
		}
		if err != nil {
			return nil, err
		}
		if onRound != nil {
			onRound()
		}
	}
	return b.result(root)
}

// storageBFS is one rank's state of BFSOnStorage.
type storageBFS struct {
	kr      gdi.KeyedAdjacencyReader
	comm    rma.Comm
	codes   codeSpace
	keys    []uint32 // by local index
	ids     []uint64 // by local index
	localOf []int32  // by key of this rank: the local index, -1 if none
	offsets []int64  // global numbers by rank, as Extract gives them
	n       int64    // vertices of all ranks

	level    []int64
	parent   []uint32 // by local index: the parent's code (valid where reached)
	noIn     []bool   // by local index: known to have no in-edge
	frontier []int32
	next     []int32
	total    int64    // frontier vertices of all ranks
	sent     []uint64 // bitmap over codes: remote ends already claimed

	// The level and the vertex at hand, for claim and lookUp, which go
	// through callbacks made once (claims, looksUp): a closure per vertex
	// read would be an allocation per vertex read.
	depth           int64
	from            uint32   // claim: the code of the vertex read
	send            [][]byte // claim: the claims of remote ends, by home
	at              int32    // lookUp: the local index of the vertex read
	hasIn           bool     // lookUp: it has an in-edge
	inFrontier      []uint64 // lookUp: the frontier of all ranks, over codes
	err             error    // of the edge at hand
	claims, looksUp func(*gdi.KeyedAdjacency) error
}

// newStorageBFS lays out the codes and lists the local vertices of idx.
func newStorageBFS(kr gdi.KeyedAdjacencyReader, comm rma.Comm, idx gdi.Index) (*storageBFS, error) {
	codes, err := newCodeSpace(kr, comm.Size())
	if err != nil {
		return nil, err
	}
	b := &storageBFS{kr: kr, comm: comm, codes: codes}
	claim, lookUp := b.claim, b.lookUp
	b.claims = func(a *gdi.KeyedAdjacency) error { a.Edges(claim); return b.err }
	b.looksUp = func(a *gdi.KeyedAdjacency) error { a.Edges(lookUp); return b.err }
	b.localOf = codes.noLocal(comm.Rank())
	err = kr.ScanLocalKeyed(idx, func(v *gdi.KeyedAdjacency) error {
		id, err := ParseID(v.ID)
		if err != nil {
			return err
		}
		b.localOf[v.Key] = int32(len(b.keys))
		b.keys, b.ids = append(b.keys, uint32(v.Key)), append(b.ids, id)
		return nil
	})
	b.sent = make([]uint64, codes.size()/64)
	return b, err
}

// code is the code of key on this rank.
func (b *storageBFS) code(key uint64) uint32 {
	c, _ := b.codes.code(b.comm.Rank(), key)
	return c
}

// start numbers the ranks' vertices and puts the root in the frontier.
func (b *storageBFS) start(root uint64) error {
	var err error
	if b.offsets, err = rankOffsets(b.comm, len(b.keys)); err != nil {
		return err
	}
	b.n = b.offsets[b.comm.Size()]
	b.level, b.parent = make([]int64, len(b.keys)), make([]uint32, len(b.keys))
	b.noIn = make([]bool, len(b.keys))
	for i := range b.level {
		b.level[i] = Unreached
	}
	if i := slices.Index(b.ids, root); i >= 0 {
		b.level[i], b.parent[i] = 0, b.code(uint64(b.keys[i]))
		b.frontier = append(b.frontier, int32(i))
	}
	if b.total, err = sumOver(b.comm, int64(len(b.frontier))); err != nil {
		return err
	}
	if b.total != 1 {
		return fmt.Errorf("olap: source vertex %d is not in the graph", root)
	}
	return nil
}

// reach gives local vertex i its level and parent and puts it in the
// next frontier, if it is not reached yet.
func (b *storageBFS) reach(i int32, depth int64, parent uint32) {
	if i >= 0 && b.level[i] == Unreached {
		b.level[i], b.parent[i] = depth+1, parent
		b.next = append(b.next, i)
	}
}

// topDown expands the frontier along the out-edges of its vertices.
func (b *storageBFS) topDown(depth int64) error {
	b.depth, b.send = depth, make([][]byte, b.comm.Size())
	var err error
	for _, v := range b.frontier {
		b.from = b.code(uint64(b.keys[v]))
		if err = b.kr.ReadLocalKeyed(uint64(b.keys[v]), b.claims); err != nil {
			break
		}
	}
	if err = rma.Agree(b.comm, err); err != nil {
		return err
	}
	got, err := b.comm.Alltoallv(b.send)
	if err != nil {
		return err
	}
	for _, m := range got {
		for ; len(m) >= 8; m = m[8:] {
			if k := binary.LittleEndian.Uint32(m); int(k) < len(b.localOf) {
				b.reach(b.localOf[k], depth, binary.LittleEndian.Uint32(m[4:]))
			}
		}
	}
	return b.endLevel()
}

// claim is topDown's work on an edge of the vertex read (code b.from):
// it claims the other end, here or by a message to its home.
func (b *storageBFS) claim(e gdi.KeyedEdge) bool {
	c, err := b.codes.edgeEnd(e)
	if b.err = err; err != nil {
		return false
	}
	switch {
	case e.Direction != gdi.Undirected && !e.IsOrigin:
	case e.Home == b.comm.Rank():
		b.reach(b.localOf[e.Key], b.depth, b.from)
	case !has(b.sent, c):
		set(b.sent, c)
		b.send[e.Home] = binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(b.send[e.Home], uint32(e.Key)), b.from)
	}
	return true
}

// bottomUp lets every unvisited local vertex look for a parent in the
// frontier of all ranks among its in-edges.
func (b *storageBFS) bottomUp(depth int64) error {
	var err error
	if b.inFrontier, err = b.frontierBitmap(); err != nil {
		return err
	}
	b.depth = depth
	for i := range b.keys {
		if b.level[i] != Unreached || b.noIn[i] {
			continue
		}
		b.at, b.hasIn = int32(i), false
		if err = b.kr.ReadLocalKeyed(uint64(b.keys[i]), b.looksUp); err != nil {
			break
		}
		b.noIn[i] = !b.hasIn
	}
	if err = rma.Agree(b.comm, err); err != nil {
		return err
	}
	return b.endLevel()
}

// lookUp is bottomUp's work on an edge of vertex b.at: an in-edge from
// the frontier makes its other end the parent, and ends the reading.
func (b *storageBFS) lookUp(e gdi.KeyedEdge) bool {
	c, err := b.codes.edgeEnd(e)
	if b.err = err; err != nil {
		return false
	}
	if e.Direction != gdi.Undirected && !e.IsTarget {
		return true
	}
	b.hasIn = true
	if has(b.inFrontier, c) {
		b.reach(b.at, b.depth, c)
		return false
	}
	return true
}

// frontierBitmap returns the frontier of all ranks as a bitmap over
// codes. It is collective.
func (b *storageBFS) frontierBitmap() ([]uint64, error) {
	mine := make([]uint64, b.codes.keys(b.comm.Rank())/64)
	for _, v := range b.frontier {
		set(mine, b.keys[v])
	}
	return b.codes.gather(b.comm, mine)
}

// endLevel makes the next frontier the frontier and agrees on its size.
func (b *storageBFS) endLevel() error {
	b.frontier, b.next = b.next, b.frontier[:0]
	var err error
	b.total, err = sumOver(b.comm, int64(len(b.frontier)))
	return err
}

// result turns the parents' codes into global numbers: local ones here,
// remote ones asked of their homes in one round trip.
func (b *storageBFS) result(root uint64) (*BFSResult, error) {
	me, p := b.comm.Rank(), b.comm.Size()
	res := &BFSResult{Root: root, Level: b.level, Parent: make([]int64, len(b.keys))}
	send := make([][]byte, p)
	asked := make([][]int32, p) // by home: the local vertices whose parent was asked
	for i, l := range b.level {
		res.Parent[i] = -1
		if l == Unreached {
			continue
		}
		home, key := b.codes.home(b.parent[i])
		if home == me {
			res.Parent[i] = b.offsets[me] + int64(b.localOf[key])
			continue
		}
		send[home] = binary.LittleEndian.AppendUint32(send[home], uint32(key))
		asked[home] = append(asked[home], int32(i))
	}
	got, err := b.comm.Alltoallv(send)
	if err != nil {
		return nil, err
	}
	for r, m := range got {
		send[r] = send[r][:0]
		for ; len(m) >= 4; m = m[4:] {
			send[r] = appendU64(send[r], uint64(b.offsets[me]+int64(b.localOf[binary.LittleEndian.Uint32(m)])))
		}
	}
	if got, err = b.comm.Alltoallv(send); err != nil {
		return nil, err
	}
	for r, m := range got {
		if len(m) != 8*len(asked[r]) {
			return nil, fmt.Errorf("olap: rank %d answered %d bytes for %d parents", r, len(m), len(asked[r]))
		}
		for j, i := range asked[r] {
			res.Parent[i] = int64(u64(m[8*j:]))
		}
	}
	return res, nil
}
