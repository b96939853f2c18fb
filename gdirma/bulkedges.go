package gdirma

import (
	"encoding/binary"
	"fmt"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/rma"
)

// The messages of the edge rounds (step 2 of BulkLoad, see bulk.go). An
// edge goes to the owner of its origin as its origin and target (8 bytes
// each) and a word (4): the number of its label (0 for none), or
// heavyEdge, then the number (8) of the holder the emitting rank wrote
// for it. A reference goes to the owner of the target as the target, the
// edge's number, the origin's number (8 each) and the label the reference
// carries (4).
const (
	edgeMsg   = 20
	heavyMsg  = edgeMsg + 8
	heavyEdge = 1 << 31
	refMsg    = 28
)

// defaultRoundEdges is the number of edges a rank routes per round if
// gdi.BulkSource.RoundEdges is 0; the exchange buffers are reused from round
// to round.
const defaultRoundEdges = 1 << 20

// edges routes the rank's edges to the owners of their origins, which
// number them and keep the origins' references, and sends the targets'
// references on to the owners of the targets. It goes in rounds of at
// most RoundEdges edges per rank, which all ranks take part in until
// every rank has emitted all its edges.
func (b *bulk) edges() error {
	b.slots = make([]uint16, b.hi-b.lo)
	b.heavy = map[uint32]bool{}
	nv, nl := b.src.Vertices, len(b.src.EdgeLabels)
	send := make([][]byte, b.size)
	fwd := make([][]byte, b.size)
	roundEdges := b.src.RoundEdges
	if roundEdges <= 0 {
		roundEdges = defaultRoundEdges
	}
	per := roundEdges/b.size + roundEdges/16
	for i := range send {
		send[i] = make([]byte, 0, per*edgeMsg)
	}
	var failed error // the first failure of this rank
	count := 0
	// send routes edge (u, v) with word w (see edgeMsg) and holder h.
	send1 := func(u, v uint64, w uint32, h layout.Number) error {
		o := b.owner(u)
		buf := send[o]
		buf = binary.LittleEndian.AppendUint64(buf, u)
		buf = binary.LittleEndian.AppendUint64(buf, v)
		buf = binary.LittleEndian.AppendUint32(buf, w)
		if w == heavyEdge {
			buf = binary.LittleEndian.AppendUint64(buf, uint64(h))
		}
		send[o] = buf
		if count++; count == roundEdges {
			count = 0
			if _, err := b.round(send, fwd, false, &failed); err != nil {
				return err // the communicator failed: give up
			}
		}
		return nil
	}
	ends := func(u, v uint64) error {
		if u >= nv || v >= nv {
			return gdi.Errorf(gdi.ErrArgument, "BulkLoad: edge (%d, %d): a vertex is out of [0, %d)", u, v, nv)
		}
		return nil
	}
	var emitErr error
	if b.src.FullEdges != nil {
		fe := b.fullEdger()
		emitErr = b.src.FullEdges(b.rank, b.size, func(e *gdi.BulkEdge) error {
			if failed == nil {
				failed = ends(e.Origin, e.Target)
			}
			var w uint32
			var h layout.Number
			if failed == nil {
				w, h, failed = fe.edge(e)
			}
			if failed != nil {
				return failed
			}
			return send1(e.Origin, e.Target, w, h)
		})
	} else {
		emitErr = b.src.Edges(b.rank, b.size, func(u, v uint64, label int) error {
			if failed == nil {
				failed = ends(u, v)
			}
			if failed == nil && (label < -1 || label >= nl) {
				failed = gdi.Errorf(gdi.ErrArgument, "BulkLoad: edge (%d, %d): label %d out of [-1, %d)", u, v, label, nl)
			}
			if failed != nil {
				return failed
			}
			var w uint32
			if label >= 0 {
				w = b.edgeLabels[label]
			}
			return send1(u, v, w, 0)
		})
	}
	if failed == nil && emitErr != nil {
		failed = emitErr
	}
	// Take part in rounds until every rank is done.
	for {
		all, err := b.round(send, fwd, true, &failed)
		if err != nil {
			return err
		}
		if all {
			return failed
		}
	}
}

// round is one round of edges: send holds the rank's edges of the round
// by owner of the origin (emptied on return), done tells that the rank
// has no more edges. It reports whether all ranks are done. A failure of
// the processing is kept in *failed (the rank still takes part); the
// error returned is a failure of the communicator.
func (b *bulk) round(send, fwd [][]byte, done bool, failed *error) (bool, error) {
	recv, err := b.db.comm.Alltoallv(send)
	if err != nil {
		return false, gdi.Errorf(gdi.ErrIntern, "gdirma: BulkLoad: %v", err)
	}
	for i := range send {
		send[i] = send[i][:0]
	}
	if *failed == nil {
		*failed = b.originRefs(recv, fwd)
	}
	if *failed != nil {
		for i := range fwd {
			fwd[i] = fwd[i][:0]
		}
	}
	recv, err = b.db.comm.Alltoallv(fwd)
	if err != nil {
		return false, gdi.Errorf(gdi.ErrIntern, "gdirma: BulkLoad: %v", err)
	}
	for i := range fwd {
		fwd[i] = fwd[i][:0]
	}
	if *failed == nil {
		*failed = b.targetRefs(recv)
	}
	flag := []int64{1}
	if done {
		flag[0] = 0
	}
	if err := b.db.comm.AllreduceInt64(flag, rma.OpMax); err != nil {
		return false, gdi.Errorf(gdi.ErrIntern, "gdirma: BulkLoad: %v", err)
	}
	return flag[0] == 0, nil
}

// originRefs numbers the edges of recv, whose origins the rank owns, keeps
// the origins' references and appends the targets' references to fwd, by
// owner of the target.
func (b *bulk) originRefs(recv [][]byte, fwd [][]byte) error {
	total := 0
	for _, buf := range recv {
		total += len(buf) / edgeMsg
	}
	refs := make([]bulkRef, 0, total)
	defer func() { b.refs = append(b.refs, refs) }()
	for _, buf := range recv {
		for len(buf) > 0 {
			if len(buf) < edgeMsg {
				return gdi.Errorf(gdi.ErrIntern, "gdirma: BulkLoad: %d bytes of an edge", len(buf))
			}
			u := binary.LittleEndian.Uint64(buf)
			v := binary.LittleEndian.Uint64(buf[8:])
			w := binary.LittleEndian.Uint32(buf[16:])
			var holder layout.Number
			if w == heavyEdge {
				if len(buf) < heavyMsg {
					return gdi.Errorf(gdi.ErrIntern, "gdirma: BulkLoad: %d bytes of an edge", len(buf))
				}
				holder = layout.Number(binary.LittleEndian.Uint64(buf[edgeMsg:]))
				buf = buf[heavyMsg:]
			} else {
				buf = buf[edgeMsg:]
			}
			if u < b.lo || u >= b.hi || v >= b.src.Vertices {
				return gdi.Errorf(gdi.ErrIntern, "gdirma: BulkLoad: edge (%d, %d) sent to rank %d", u, v, b.rank)
			}
			ref, err := b.originRef(u, v, w, holder)
			if err != nil {
				return err
			}
			refs = append(refs, ref)
			if v != u {
				o := b.owner(v)
				f := fwd[o]
				f = binary.LittleEndian.AppendUint64(f, v)
				f = binary.LittleEndian.AppendUint64(f, uint64(ref.num))
				f = binary.LittleEndian.AppendUint64(f, uint64(b.nums[u]))
				fwd[o] = binary.LittleEndian.AppendUint32(f, ref.label)
			}
		}
	}
	return nil
}

// originRef numbers edge (u, v) of local origin u, with word w and holder
// h as sent (see edgeMsg), and returns the origin's reference to it.
func (b *bulk) originRef(u, v uint64, w uint32, h layout.Number) (bulkRef, error) {
	iu := u - b.lo
	ref := bulkRef{num: h, other: b.nums[v], v: uint32(iu), label: w}
	switch {
	case w == heavyEdge:
		ref.label = 0 // the holder carries the labels
		b.heavy[uint32(iu)] = true
	case b.st.lightOK() && b.slots[iu] < layout.MaxSlot:
		b.slots[iu]++
		ref.num = b.st.lightNumber(b.nums[u], int(b.slots[iu]))
	default:
		// All slots of the origin are used: the edge gets a holder of
		// its own, which carries its label.
		var labels []uint32
		if w != 0 {
			labels = []uint32{w}
		}
		p, err := b.writeEdge(u, v, labels, nil)
		if err != nil {
			return ref, err
		}
		ref.num, ref.label = layout.NumberOf(p), 0
		b.heavy[uint32(iu)] = true
	}
	return ref, nil
}

// writeEdge writes the holder of a heavyweight edge from vertex u to v
// with labels and properties ps.
func (b *bulk) writeEdge(u, v uint64, labels []uint32, ps []layout.Property) (bgdl.DPtr, error) {
	r := &record{edgeEnds: edgeEnds{dir: b.src.Direction, origin: b.nums[u], target: b.nums[v]}}
	if len(labels) > 0 {
		r.setLabels(labels)
	}
	if len(ps) > 0 {
		r.setProps(ps)
	}
	return b.writeNew(edgeKind, encodeRecord(edgeKind, r, layout.Codec{}))
}

// targetRefs keeps the targets' references that recv holds.
func (b *bulk) targetRefs(recv [][]byte) error {
	n := 0
	for _, buf := range recv {
		if len(buf)%refMsg != 0 {
			return gdi.Errorf(gdi.ErrIntern, "gdirma: BulkLoad: %d bytes of references", len(buf))
		}
		n += len(buf) / refMsg
	}
	refs := make([]bulkRef, 0, n)
	defer func() { b.trefs = append(b.trefs, refs) }()
	for _, buf := range recv {
		for i := 0; i < len(buf); i += refMsg {
			v := binary.LittleEndian.Uint64(buf[i:])
			if v < b.lo || v >= b.hi {
				return gdi.Errorf(gdi.ErrIntern, "gdirma: BulkLoad: reference of vertex %d sent to rank %d", v, b.rank)
			}
			refs = append(refs, bulkRef{
				num:   layout.Number(binary.LittleEndian.Uint64(buf[i+8:])),
				other: layout.Number(binary.LittleEndian.Uint64(buf[i+16:])),
				v:     uint32(v-b.lo) | refTarget,
				label: binary.LittleEndian.Uint32(buf[i+24:]),
			})
		}
	}
	return nil
}

// fullEdger turns the edges FullEdges emits into edge messages: an edge
// with at most one label and no property is sent as those of Edges are;
// any other is a heavyweight edge, whose holder the emitting rank writes
// on its own memory and sends the number of.
type fullEdger struct {
	b      *bulk
	labels []uint32
	props  []layout.Property
}

func (b *bulk) fullEdger() *fullEdger { return &fullEdger{b: b} }

// edge returns the word and holder to send for e (see edgeMsg).
func (f *fullEdger) edge(e *gdi.BulkEdge) (w uint32, h layout.Number, err error) {
	b := f.b
	if f.labels, err = b.labelNums(e.Labels, f.labels[:0]); err == nil {
		f.props, err = b.props(e.Properties, f.props[:0])
	}
	if err != nil {
		return 0, 0, fmt.Errorf("BulkLoad: edge (%d, %d): %w", e.Origin, e.Target, err)
	}
	if len(f.props) == 0 && len(f.labels) <= 1 {
		if len(f.labels) == 1 {
			w = f.labels[0]
		}
		return w, 0, nil
	}
	p, err := b.writeEdge(e.Origin, e.Target, f.labels, f.props)
	return heavyEdge, layout.NumberOf(p), err
}
