package gdirma

import (
	"slices"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/gdirma/internal/store"
)

// The reads of the ends of a vertex being freed. Freeing a vertex drops
// its reference from the other end of each of its lightweight edges, and
// each drop reads that end first: one after the other, each read was a
// round trip for the lock word, one for the blocks, one to check the lock
// word again, and a glance before to learn whether the end is long. The
// freeing transaction begins all these reads in one batch instead
// (store.BeginReads: three round trips for all of them), before it drops
// anything, and each drop's read of its end (Transaction.load) starts
// from what the batch got: with nothing more to read, it makes no call.
// The length the batch saw stands for the glance.

// endRead is the begun read of one end.
type endRead struct {
	w layout.Number
	// known is what the memo had of w (chainmemo.go), and ahead, if
	// aheadAt > 0, block aheadAt of its chain, which the memo guesses
	// holds the reference to edge hintFor, got with the primary block.
	known   *knownChain
	ahead   store.Ahead
	aheadAt int
	hintFor layout.Number
}

// endReads are the reads a freeing transaction began, one per end. Their
// room is kept in the transaction's scratch (txScratch) for the next.
type endReads struct {
	reads []endRead
	ps    []bgdl.DPtr
	rqs   []store.Request
	begun []store.Begun
	index map[layout.Number]int // position of each end in the lists
}

// beginEnds begins the reads of the other end w of each lightweight edge
// of refs, the references of the vertex being freed, that the
// transaction has no copy of (other gives w, or 0), and returns whether
// each edge's end seems long (more than store.MinFenced blocks), as
// graph.long would tell.
func (tx *Transaction) beginEnds(refs edgeSet, other func(edgeEntry) layout.Number, out []bool) ([]bool, error) {
	st := tx.db.st
	er := &tx.scratchSpace().ends
	er.reset()
	for _, en := range refs {
		w := other(en)
		if _, seen := er.index[w]; w == 0 || seen || tx.objs[vertexKind].get(w) != nil {
			continue
		}
		er.index[w] = len(er.reads)
		r := endRead{w: w, known: st.chains.get(w.Holder())}
		rq := store.Request{Mode: store.Prefix | store.Checked}
		if r.known != nil {
			if i := r.known.guess(en.n); i > 0 {
				r.ahead, r.aheadAt, r.hintFor = store.Ahead{At: r.known.chain[i], Buf: make([]byte, st.BlockSize())}, i, en.n
			}
		}
		er.reads = append(er.reads, r)
		er.ps, er.rqs = append(er.ps, w.Holder()), append(er.rqs, rq)
	}
	er.begun = slices.Grow(er.begun[:0], len(er.reads))[:len(er.reads)]
	for i := range er.reads { // er.reads no longer moves
		if er.reads[i].aheadAt > 0 {
			er.rqs[i].Ahead = &er.reads[i].ahead
		}
	}
	if err := st.BeginReads(er.ps, er.rqs, er.begun); err != nil {
		st.EndReads(er.begun)
		er.reset()
		return nil, err
	}
	tx.ends = er
	for _, en := range refs {
		w := other(en)
		i, ok := er.index[w]
		long := w != 0 && (ok && er.seemsLong(st, i) || !ok && st.long(w))
		out = append(out, long)
	}
	return out, nil
}

// seemsLong reports whether end i is long: remembered as a hub, or by
// the length its read began with; by a glance if it began with nothing.
func (er *endReads) seemsLong(st *graph, i int) bool {
	switch b := &er.begun[i]; {
	case er.reads[i].known != nil:
		return true // a hub is seldom cut short, and the read finds out
	case b.Known:
		return st.BlocksFor(b.Length) > store.MinFenced
	}
	return st.long(er.reads[i].w)
}

// take returns the begun read of end w, if there is one not yet taken,
// with the request it was begun with.
func (er *endReads) take(w layout.Number) (*endRead, *store.Request) {
	if er == nil {
		return nil, nil
	}
	i, ok := er.index[w]
	if !ok {
		return nil, nil
	}
	delete(er.index, w)
	rq := er.rqs[i]
	rq.Begun = &er.begun[i]
	return &er.reads[i], &rq
}

// endEnds gives back what the begun reads the transaction did not take
// still hold.
func (tx *Transaction) endEnds() {
	if tx.ends != nil {
		tx.db.st.EndReads(tx.ends.begun)
		tx.ends.reset()
		tx.ends = nil
	}
}

// maxKeptEnds bounds the room of the reads of ends a scratch keeps.
const maxKeptEnds = 1024

// reset empties er, keeping its room unless it grew past maxKeptEnds: it
// keeps nothing of the reads (memo chains, buffers) alive.
func (er *endReads) reset() {
	if cap(er.reads) > maxKeptEnds {
		*er = endReads{}
	}
	clear(er.reads)
	clear(er.rqs)
	clear(er.begun)
	er.reads, er.ps, er.rqs, er.begun = er.reads[:0], er.ps[:0], er.rqs[:0], er.begun[:0]
	if er.index == nil {
		er.index = make(map[layout.Number]int)
	}
	clear(er.index)
}
