package olap

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
)

// Extraction by keys (gdi.KeyedAdjacencyScanner). The backend numbers
// each rank's vertices densely and hands them out in ascending key order,
// so the local vertices keep that order and their adjacency is written as
// the scan goes, with no edge list kept beside it. Until the ghosts are
// known an end of an edge is written as its code: its key plus its home's
// base, the key ranges of all ranks laid end to end. Every code written is
// marked in one bitmap over all codes; the remote ones are sent to their
// home as key lists in one Alltoallv and answered (global number, ID).
// Then every code is replaced in place by its slot, found by its rank
// among the marked codes. No UID is hashed, nothing is sorted, and what
// extraction keeps beside the CSR is the bitmap and its index: a few bits
// per block of storage.

// keyedScan is the local part read by keys.
type keyedScan struct {
	codes   codeSpace
	ids     []uint64 // by local index: the application-level ID
	localOf []int32  // by key of this rank: the local index, -1 if none
	marked  []uint64 // bitmap over codes: the ends written in out and in
	outOff  []int32
	out     []int32 // codes (as uint32), slots once translated
	inOff   []int32 // nil while no directed edge has been seen
	in      []int32
	// holder, if weights are read, is the code of the holder of the edge
	// of every entry of out (noHolder: none); weights the weight of each
	// (keyedweights.go), compacted with out.
	holder  []uint32
	weights []float64
	err     error                    // of the edge at hand (yield)
	yields  func(gdi.KeyedEdge) bool // s.yield, made once
}

// readKeyed scans the local part by keys: once for the degrees, which
// decodes no edge, to make the lists as long as they will be (growing
// them would copy them and leave the old ones behind), then with the
// edges.
func readKeyed(ks gdi.KeyedAdjacencyScanner, comm rma.Comm, opts ExtractOptions) (*keyedScan, error) {
	s, err := newKeyedScan(ks, comm)
	if err != nil {
		return nil, err
	}
	var vertices, ends uint64 // ends: at least the entries of either list, a loop counting twice
	err = ks.ScanLocalKeyed(opts.Index, func(v *gdi.KeyedAdjacency) error {
		vertices, ends = vertices+1, ends+v.Degree
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.ids, s.outOff = make([]uint64, 0, vertices), append(make([]int32, 0, vertices+1), 0)
	s.out = make([]int32, 0, min(ends, math.MaxInt32))
	if opts.Weight != gdi.PropertyTypeNull {
		s.holder = make([]uint32, 0, cap(s.out))
	}
	last := int64(-1)
	err = ks.ScanLocalKeyed(opts.Index, func(v *gdi.KeyedAdjacency) error {
		if v.ID == nil {
			return fmt.Errorf("olap: vertex of key %d has no application-level ID", v.Key)
		}
		id, err := ParseID(v.ID)
		if err != nil {
			return err
		}
		if int64(v.Key) <= last || v.Key >= uint64(len(s.localOf)) {
			return fmt.Errorf("olap: vertex key %d out of order or past the limit", v.Key)
		}
		last = int64(v.Key)
		s.localOf[v.Key] = int32(len(s.ids))
		s.ids = append(s.ids, id)
		if v.Edges(s.yields); s.err != nil {
			return s.err
		}
		return s.endVertex()
	})
	return s, err
}

// newKeyedScan lays out the codes of all ranks and makes the empty part.
func newKeyedScan(ks gdi.KeyedAdjacencyScanner, comm rma.Comm) (*keyedScan, error) {
	codes, err := newCodeSpace(ks, comm.Size())
	if err != nil {
		return nil, err
	}
	s := &keyedScan{codes: codes}
	s.yields = s.yield
	s.localOf = codes.noLocal(comm.Rank())
	s.marked = make([]uint64, codes.size()/64)
	return s, nil
}

// yield is edge for gdi.KeyedAdjacency.Edges, its error in s.err; its
// method value is made once (s.yields), where a loop body over Edges would
// be a closure made per vertex.
func (s *keyedScan) yield(e gdi.KeyedEdge) bool {
	s.err = s.edge(e)
	return s.err == nil
}

// edge writes an edge of the vertex being scanned.
func (s *keyedScan) edge(e gdi.KeyedEdge) error {
	c, err := s.codes.edgeEnd(e)
	if err != nil {
		return err
	}
	set(s.marked, c)
	out, in := true, true
	if e.Direction != gdi.Undirected {
		out, in = e.IsOrigin, e.IsTarget
		if s.inOff == nil { // the first directed edge: the in-lists so far are the out-lists
			s.inOff, s.in = slices.Clone(s.outOff), append(make([]int32, 0, cap(s.out)), s.out...)
		}
	}
	if out {
		s.out = append(s.out, int32(c))
		if s.holder != nil {
			s.holder = append(s.holder, s.holderCode(e))
		}
	}
	if in && s.inOff != nil {
		s.in = append(s.in, int32(c))
	}
	return nil
}

// endVertex closes the lists of the vertex being scanned.
func (s *keyedScan) endVertex() error {
	if len(s.out) >= math.MaxInt32 || len(s.in) >= math.MaxInt32 {
		return fmt.Errorf("olap: more than 2^31 edge ends on one rank")
	}
	s.outOff = append(s.outOff, int32(len(s.out)))
	if s.inOff != nil {
		s.inOff = append(s.inOff, int32(len(s.in)))
	}
	return nil
}

// numberByKey gives every marked code its slot, making the ghosts from
// the answers of their homes, and translates the adjacency into g.
func numberByKey(g *Graph, comm rma.Comm, s *keyedScan) error {
	p, me := comm.Size(), comm.Rank()
	send := make([][]byte, p)
	for r := range p {
		if r != me {
			s.eachMarked(s.codes.base[r], s.codes.base[r+1], func(c uint64) {
				send[r] = binary.LittleEndian.AppendUint32(send[r], uint32(c-s.codes.base[r]))
			})
		}
	}
	got, err := comm.Alltoallv(send)
	if err != nil {
		return err
	}
	for r, b := range got { // answer (global number, ID), -1 outside the index
		send[r] = send[r][:0]
		for ; len(b) >= 4; b = b[4:] {
			k := binary.LittleEndian.Uint32(b)
			gid, id := int64(-1), uint64(0)
			if int(k) < len(s.localOf) && s.localOf[k] >= 0 {
				i := s.localOf[k]
				gid, id = g.Offsets[me]+int64(i), s.ids[i]
			}
			send[r] = appendU64(send[r], uint64(gid), id)
		}
	}
	if got, err = comm.Alltoallv(send); err != nil {
		return err
	}
	slots, err := s.slots(g, me, got)
	if err == nil {
		s.translate(g, slots)
	}
	return err
}

// eachMarked calls f for every marked code in [lo, hi), in order.
func (s *keyedScan) eachMarked(lo, hi uint64, f func(c uint64)) {
	for w := lo / 64; w*64 < hi; w++ {
		x := s.marked[w]
		for ; x != 0; x &= x - 1 {
			if c := w*64 + uint64(bits.TrailingZeros64(x)); c >= lo && c < hi {
				f(c)
			}
		}
	}
}

// slots returns the slot of every marked code, in code order (-1 outside
// the index), and makes g's ghosts from got, the answers of each home in
// the order of its marked keys. A home numbers its vertices in key order,
// so the ghosts come sorted by global number.
func (s *keyedScan) slots(g *Graph, me int, got [][]byte) ([]int32, error) {
	nl := len(s.ids)
	g.ID, g.GID = s.ids, make([]int64, nl)
	for i := range nl {
		g.GID[i] = g.Offsets[me] + int64(i)
	}
	g.ghostOff = make([]int, len(got)+1)
	var slots []int32
	for r := range len(got) {
		g.ghostOff[r+1] = g.ghostOff[r]
		if r == me {
			s.eachMarked(s.codes.base[r], s.codes.base[r+1], func(c uint64) {
				slots = append(slots, s.localOf[c-s.codes.base[r]])
			})
			continue
		}
		b := got[r]
		for ; len(b) >= 16; b = b[16:] {
			slot := int32(-1)
			if gid := int64(u64(b)); gid >= 0 {
				slot = int32(len(g.ID))
				g.ID, g.GID = append(g.ID, u64(b[8:])), append(g.GID, gid)
				g.ghostOff[r+1]++
			}
			slots = append(slots, slot)
		}
		if len(b) != 0 {
			return nil, fmt.Errorf("olap: rank %d answered a torn list", r)
		}
	}
	if len(g.ID) >= 1<<31 {
		return nil, fmt.Errorf("olap: %d slots on rank %d, past 31 bits", len(g.ID), me)
	}
	return slots, nil
}

// translate replaces every code of the adjacency by its slot, leaves out
// the ends outside the index, and hands the lists to g.
func (s *keyedScan) translate(g *Graph, slots []int32) {
	before := make([]int32, len(s.marked)) // per bitmap word: marked codes before it
	for w := 1; w < len(s.marked); w++ {
		before[w] = before[w-1] + int32(bits.OnesCount64(s.marked[w-1]))
	}
	slotOf := func(c uint32) int32 {
		w := c / 64
		return slots[before[w]+int32(bits.OnesCount64(s.marked[w]&(1<<(c%64)-1)))]
	}
	g.OutOff, g.Out = s.outOff, translateList(s.outOff, s.out, s.weights, slotOf)
	if s.weights != nil {
		g.OutW = s.weights[:len(g.Out)]
	}
	g.InOff, g.In = g.OutOff, g.Out
	if s.inOff != nil {
		g.InOff, g.In = s.inOff, translateList(s.inOff, s.in, nil, slotOf)
	}
}

// translateList replaces the codes of the lists off/list by their slots
// in place, leaving out those of slot -1 (then moving the offsets and
// the weights w beside list, if any), and returns the lists.
func translateList(off, list []int32, w []float64, slotOf func(uint32) int32) []int32 {
	at, start := int32(0), int32(0)
	for i := 1; i < len(off); i++ {
		end := off[i]
		for j := start; j < end; j++ {
			if sl := slotOf(uint32(list[j])); sl >= 0 {
				list[at] = sl
				if w != nil {
					w[at] = w[j]
				}
				at++
			}
		}
		start, off[i] = end, at
	}
	return list[:at]
}
