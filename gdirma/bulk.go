package gdirma

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/gdirma/internal/store"
	"github.com/gdi-go/gdi/internal/agree"
)

// Bulk loading. BulkLoad builds a whole graph in an empty part of the
// store without transactions: no locks, no caches, no read-modify-write of
// holders. It relies on three things:
//
//   - the database is quiet: no rank has an open transaction, and no one
//     touches the graph until BulkLoad returns (it is collective);
//   - every rank passes the same gdi.BulkSource: the same number of vertices,
//     direction and edge labels, and Vertex gives the same vertex for the
//     same number wherever it is asked (only its owner asks);
//   - Edges on each rank emits that rank's share of the edges, the shares
//     being disjoint (for a generated graph, its RankSlice: see
//     generator.Graph.BulkSource).
//
// Vertex x of [0, Vertices) is owned by the rank of the contiguous range
// that holds it (an even split). The steps are:
//
//  1. each rank takes a primary block for each vertex it owns (on its own
//     memory while it has free blocks, as for all blocks it takes), registers the vertex's ID in the implicit index (DHT) under
//     each of its labels, and encodes its labels and properties; the ranks
//     then exchange the numbers (primary-block DPtrs) of all vertices with
//     one Allgatherv (8 bytes per vertex);
//  2. each rank routes the edges it emits to the owner of their origin
//     (Alltoallv); that owner numbers each edge after the origin and a
//     fresh slot, as a transaction does (or, once all 65535 slots of the
//     origin are used, gives it a holder of its own), keeps the origin's
//     reference and sends the target's reference to the target's owner
//     (a second Alltoallv). This goes in rounds of up to 2^20 edges per
//     rank, so that the exchange buffers stay small and are reused. A
//     heavyweight edge (of FullEdges: several labels, or properties) is
//     written into a holder of its own by the rank that emits it, on its
//     own memory, and routed as its holder's number;
//  3. each rank puts together the complete image of each of its vertices —
//     labels, properties, all incident edge references in ascending edge
//     numbers, exactly what encodeRecord writes — and writes it with Put
//     into its primary block and as many fresh continuation blocks as it
//     needs.
//
// The result is the database that transactions creating the same vertices
// and edges would build (up to the choice of slots and blocks, i.e. of
// UIDs). All ranks agree after each step, so all return an error if one
// fails; a graph that failed to load is left half loaded (free the
// database).

var _ gdi.BulkLoader = (*Database)(nil)

// BulkLoad adds the graph of src to the database (collective, on a quiet
// database; see above and gdi.BulkLoader). Invalid input — an unknown label or property type,
// a value its type does not admit, two values of a single-entity type, an
// end out of range, a duplicate ID — is an error on every rank.
func (db *Database) BulkLoad(src gdi.BulkSource) error {
	if db.IsFreed() {
		return errFreedDB()
	}
	defer db.pauseAuto()()
	call := fmt.Sprintf("BulkLoad(%d vertices, direction %v, %d edge labels, %d per round)", src.Vertices, src.Direction, len(src.EdgeLabels), src.RoundEdges)
	local := db.quietCheck("BulkLoad")
	b := &bulk{db: db, st: db.st, src: src, rank: db.rank, size: db.comm.Size()}
	if local == nil {
		local = b.check()
	}
	if err := db.Agree(call, local); err != nil {
		return err
	}
	if err := b.run(); err != nil {
		return err
	}
	return db.logCheckpoint(db.rebuildIndexes())
}

type bulk struct {
	db         *Database
	st         *graph
	src        gdi.BulkSource
	rank, size int
	edgeLabels []uint32 // numbers of src.EdgeLabels, 0 for LabelNone
	lo, hi     uint64   // the vertices this rank owns
	version    store.Version

	nums   []layout.Number                // number (primary block) of every vertex
	heads  []byte                         // labels and properties of the rank's vertices, encoded
	headAt []int                          // start of each vertex's part of heads, and the end
	refs   [][]bulkRef                    // references of the origins, by round
	slots  []uint16                       // slots used by each vertex of the rank
	heavy  map[uint32]bool                // vertices of the rank with edges numbered by a holder
	trefs  [][]bulkRef                    // references of the targets, by round
	ptypes map[gdi.PropertyType]bulkPtype // the property types met so far

	full      bool // no free block left on this rank
	highWater int  // highest block number taken on this rank
}

// bulkRef is a reference to edge num to be written into the holder of
// local vertex v&^refTarget; other is the number of the other end, the
// origin if v has the refTarget bit, else the target.
type bulkRef struct {
	num, other layout.Number
	v, label   uint32
}

const refTarget = 1 << 31

// bulkPtype is a property type as the store knows it.
type bulkPtype struct {
	num  uint32
	info gdi.PropertyTypeInfo
}

func (b *bulk) check() error {
	s := &b.src
	switch {
	case s.Vertex == nil || (s.Edges == nil) == (s.FullEdges == nil):
		return gdi.Errorf(gdi.ErrArgument, "BulkLoad: Vertex must be set, and one of Edges and FullEdges")
	case s.Vertices > uint64(b.size)<<31:
		return gdi.Errorf(gdi.ErrArgument, "BulkLoad: %d vertices is too many", s.Vertices)
	case !s.Direction.Valid():
		return gdi.Errorf(gdi.ErrArgument, "BulkLoad: direction %v", s.Direction)
	case s.Vertices > uint64(b.st.Pool().Blocks())*uint64(b.size):
		return gdi.Errorf(gdi.ErrNoMemory, "BulkLoad: %d vertices need more blocks than the %d ranks have (%d each)", s.Vertices, b.size, b.st.Pool().Blocks())
	}
	for _, l := range s.EdgeLabels {
		n := uint32(0)
		if l != gdi.LabelNone {
			var err error
			if n, err = b.db.LabelNum(l, false); err != nil {
				return err
			}
		}
		b.edgeLabels = append(b.edgeLabels, n)
	}
	return nil
}

// split returns the first vertex of rank r.
func (b *bulk) first(r int) uint64 {
	n, size := b.src.Vertices, uint64(b.size)
	q, m := n/size, n%size
	return uint64(r)*q + min(uint64(r), m)
}

// owner returns the rank that owns vertex x.
func (b *bulk) owner(x uint64) int {
	n, size := b.src.Vertices, uint64(b.size)
	q, m := n/size, n%size
	if x < m*(q+1) {
		return int(x / (q + 1))
	}
	return int(m + (x-m*(q+1))/q)
}

// agree tells every rank whether a step failed anywhere: it returns the
// rank's own error, or the class and message of the first rank that
// failed (agree.Errors).
func (b *bulk) agree(err error) error { return agree.Errors(b.db.comm, err) }

func (b *bulk) run() error {
	b.lo, b.hi = b.first(b.rank), b.first(b.rank+1)
	var err error
	b.version, err = b.st.NextVersion()
	err = errors.Join(err, b.vertices())
	// The blocks taken must be visible to scans whatever happens.
	defer b.raise()
	if err = b.agree(err); err != nil {
		return err
	}
	if err := b.agree(b.exchangeNumbers()); err != nil {
		return err
	}
	if err := b.agree(b.edges()); err != nil {
		return err
	}
	err = b.writeHolders()
	return b.agree(errors.Join(err, b.raise()))
}

// vertices takes the primary blocks of the rank's vertices, indexes their
// IDs and encodes their labels and properties.
func (b *bulk) vertices() error {
	n := b.hi - b.lo
	b.nums = make([]layout.Number, b.src.Vertices)
	b.headAt = make([]int, 0, n+1)
	var bv gdi.BulkVertex
	var labels []uint32
	var seen []layout.Property
	for x := b.lo; x < b.hi; x++ {
		bv.ID, bv.Labels, bv.Properties = nil, bv.Labels[:0], bv.Properties[:0]
		if err := b.src.Vertex(x, &bv); err != nil {
			return err
		}
		var err error
		if labels, err = b.labelNums(bv.Labels, labels[:0]); err != nil {
			return fmt.Errorf("BulkLoad: vertex %d: %w", x, err)
		}
		seen = seen[:0]
		if len(bv.ID) > 0 {
			seen = append(seen, layout.Property{Ptype: uint32(gdi.PropertyTypeID), Value: gdi.Bytes(bv.ID)})
		}
		if seen, err = b.props(bv.Properties, seen); err != nil {
			return fmt.Errorf("BulkLoad: vertex %d: %w", x, err)
		}
		num, err := b.block()
		if err != nil {
			return err
		}
		b.nums[x] = layout.NumberOf(num)
		if len(bv.ID) > 0 {
			if err := b.addKeys(labels, string(bv.ID), b.nums[x]); err != nil {
				return fmt.Errorf("BulkLoad: vertex %d: %w", x, err)
			}
		}
		if done := x - b.lo; done == 256 {
			// Size the buffer from the first vertices, rather than
			// copying it as it grows.
			b.heads = slices.Grow(b.heads, int(uint64(len(b.heads))*(n-done)/done*9/8))
		}
		b.headAt = append(b.headAt, len(b.heads))
		b.heads = binary.AppendUvarint(b.heads, uint64(len(labels)))
		for _, l := range labels {
			b.heads = binary.AppendUvarint(b.heads, uint64(l))
		}
		b.heads = binary.AppendUvarint(b.heads, uint64(len(seen)))
		for _, p := range seen {
			b.heads = binary.AppendUvarint(b.heads, uint64(p.Ptype))
			b.heads = append(b.heads, byte(p.Value.Datatype()))
			raw := p.Value.Raw()
			b.heads = binary.AppendUvarint(b.heads, uint64(len(raw)))
			b.heads = append(b.heads, raw...)
		}
	}
	b.headAt = append(b.headAt, len(b.heads))
	return nil
}

// addKeys enters the keys of the implicit index of a vertex with labels
// and ID id, numbered n.
func (b *bulk) addKeys(labels []uint32, id string, n layout.Number) error {
	if len(labels) == 0 {
		return b.st.addKey(vertexKind, idKey{uint32(gdi.LabelNone), id}, n)
	}
	for _, l := range labels {
		if err := b.st.addKey(vertexKind, idKey{l, id}, n); err != nil {
			return err
		}
	}
	return nil
}

// labelNums appends the numbers of labels ls to out, each once; LabelNone
// is no label.
func (b *bulk) labelNums(ls []gdi.Label, out []uint32) ([]uint32, error) {
	for _, l := range ls {
		if l == gdi.LabelNone {
			continue
		}
		ln, err := b.db.LabelNum(l, false)
		if err != nil {
			return out, err
		}
		if !slices.Contains(out, ln) {
			out = append(out, ln)
		}
	}
	return out, nil
}

// props checks properties ps and appends them to seen, each value once.
// The ID and the read-only types cannot be given; a single-entity type
// takes one value.
func (b *bulk) props(ps []gdi.BulkProperty, seen []layout.Property) ([]layout.Property, error) {
	for _, p := range ps {
		pt, ok := b.ptypes[p.Type]
		if !ok {
			if p.Type == gdi.PropertyTypeID || p.Type.IsReadOnly() {
				return seen, gdi.Errorf(gdi.ErrArgument, "property type %v cannot be given (a vertex's ID goes in BulkVertex.ID)", p.Type)
			}
			num, info, err := b.db.PtypeNum(p.Type)
			if err != nil {
				return seen, err
			}
			pt = bulkPtype{num, info}
			if b.ptypes == nil {
				b.ptypes = map[gdi.PropertyType]bulkPtype{}
			}
			b.ptypes[p.Type] = pt
		}
		if err := pt.info.CheckValue(p.Value); err != nil {
			return seen, err
		}
		pr := layout.Property{Ptype: pt.num, Value: p.Value}
		if slices.Contains(seen, pr) {
			continue
		}
		if pt.info.Entity == gdi.SingleEntity && slices.ContainsFunc(seen, func(q layout.Property) bool { return q.Ptype == pt.num }) {
			return seen, gdi.Errorf(gdi.ErrPropertyTypeExists, "two values of single-entity type %q", pt.info.Name)
		}
		seen = append(seen, pr)
	}
	return seen, nil
}

// exchangeNumbers gives every rank the numbers of all vertices.
func (b *bulk) exchangeNumbers() error {
	mine := make([]byte, 0, 8*(b.hi-b.lo))
	for _, n := range b.nums[b.lo:b.hi] {
		mine = binary.LittleEndian.AppendUint64(mine, uint64(n))
	}
	all, err := b.db.comm.Allgatherv(mine)
	if err != nil {
		return gdi.Errorf(gdi.ErrIntern, "gdirma: BulkLoad: %v", err)
	}
	for r, buf := range all {
		x := b.first(r)
		if uint64(len(buf)) != 8*(b.first(r+1)-x) {
			return gdi.Errorf(gdi.ErrIntern, "gdirma: BulkLoad: rank %d sent %d bytes of numbers", r, len(buf))
		}
		for i := 0; i < len(buf); i += 8 {
			b.nums[x] = layout.Number(binary.LittleEndian.Uint64(buf[i:]))
			x++
		}
	}
	return nil
}
