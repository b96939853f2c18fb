package gdirma

import (
	"errors"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/gdirma/internal/store"
)

// Freeing a vertex: Free deletes the vertex and each of its edges, and
// drops each lightweight edge from the references of its other end. A
// long other end has the reference dropped in place (sparsedrop.go),
// without being read whole.

// Free deletes the vertex and its edges at commit.
func (v *vertexHolder) Free() error {
	defer v.lock()()
	o, err := v.writeObj()
	if err != nil {
		return err
	}
	if err := v.tx.full(v.num, o.rec); err != nil {
		return err
	}
	if err := v.freeEdges(o.rec); err != nil {
		// Some edges may be gone already, while the vertex still names
		// them: nothing of this transaction may be committed.
		if gdi.ErrorClass(err) != gdi.ErrTransactionCritical {
			return v.tx.fail("deleting the edges of vertex %d: %v", v.num, err)
		}
		return err
	}
	o.deleted, o.dirty = true, true
	v.freed = true
	return nil
}

// freeEdges deletes the edges of the vertex, which r, its copy, lists,
// for Free. r keeps its references (see Transaction.freeing).
func (v *vertexHolder) freeEdges(r *record) error {
	v.tx.freeing = v.num
	defer func() { v.tx.freeing = 0 }()
	refs := r.refList()
	nums := refs.nums()
	v.tx.objs[vertexKind].reserve(len(nums))
	var room [64]bool
	long, err := v.tx.longEnds(refs, room[:0])
	if err != nil {
		return err
	}
	for i, e := range nums {
		x, _ := r.getRef(e)
		if x.Stub() {
			// An edge numbered after this vertex lives on elsewhere.
			if err := v.tx.orphan(e); err != nil {
				return err
			}
			continue
		}
		if layout.IsLight(e) && x.Holder == 0 && v.tx.objs[edgeKind].get(e) == nil {
			if planted == bugLightEdgeKept {
				continue
			}
			if err := v.tx.dropLight(e, x, long != nil && long[i]); err != nil {
				return err
			}
			continue
		}
		eo, err := v.tx.related(edgeKind, e)
		if err != nil {
			return err
		}
		if err := v.tx.deleteEdge(e, eo); err != nil {
			return err
		}
	}
	return nil
}

// longEnds returns, appended to out, whether the other end of each
// lightweight edge of refs (the references of the vertex being freed)
// seems long (graph.long), or nil if no drop may be sparse. It glances at
// all of them at once, before any is dropped (store.Store.Glance), after
// prefetching their primary blocks (store.Store.Prefetch): in one round
// trip, and in local memory one miss for all rather than one after the
// other; dropLight then finds them in cache.
func (tx *Transaction) longEnds(refs edgeSet, out []bool) ([]bool, error) {
	st := tx.db.st
	if st.hasIndexes() {
		return nil, nil
	}
	other := func(en edgeEntry) layout.Number {
		w := en.ref.Origin
		if w == tx.freeing {
			w = en.ref.Target
		}
		if w == tx.freeing || !en.ref.Lightweight(en.n) {
			return 0
		}
		return w
	}
	// Each reference's end is glanced at (its index in ends), or not: it
	// is no lightweight edge's, or a hub's, which the memo knows (a hub is
	// seldom cut short, and the read finds out).
	const notLight, hub = -1, -2
	at := make([]int, 0, len(refs))
	ends := make([]bgdl.DPtr, 0, len(refs))
	for _, en := range refs {
		switch w := other(en); {
		case w == 0:
			at = append(at, notLight)
		case st.chains.get(w.Holder()) != nil:
			at = append(at, hub)
		default:
			st.Prefetch(w.Holder(), st.BlockSize())
			at = append(at, len(ends))
			ends = append(ends, w.Holder())
		}
	}
	glimpses, err := st.Glance(ends, make([]store.Glimpse, 0, len(ends)))
	if err != nil {
		return nil, err
	}
	for _, i := range at {
		switch i {
		case notLight:
			out = append(out, false)
		case hub:
			out = append(out, true)
		default:
			out = append(out, st.long(glimpses[i]))
		}
	}
	return out, nil
}

// dropLight deletes lightweight edge e of the vertex being freed, which
// the transaction has no copy of, given the vertex's reference to it: the
// edge lives only in the references of its ends, so removing the one of
// its other end is all there is to it. (deleteEdge would first make a copy
// of the edge, to mark it deleted.) A missing reference means a concurrent
// transaction changed the other end. long is whether that end seemed long
// (longEnds).
func (tx *Transaction) dropLight(e layout.Number, x layout.Ref, long bool) error {
	for _, w := range [2]layout.Number{x.Origin, x.Target} {
		if w == tx.freeing {
			continue // the vertex keeps its references (freeEdges)
		}
		if ok, err := tx.dropSparse(w, e, &x, long); err != nil {
			return err
		} else if ok {
			continue
		}
		o, err := tx.related(vertexKind, w)
		if err != nil {
			return err
		}
		if !o.rec.delRef(e) {
			return tx.fail("edge %d vanished from vertex %d: a concurrent transaction changed it", e, w)
		}
		o.dirty = true
	}
	return nil
}

// dropSparse removes the reference to edge e (x, as the vertex being
// freed has it) from vertex w without reading all of w, if w is long
// (as the caller found): the commit finds it in w's blocks
// (sparsedrop.go). ok is false if w is short, or the transaction has
// changed or read it whole: the caller then removes it from a whole copy.
func (tx *Transaction) dropSparse(w, e layout.Number, x *layout.Ref, long bool) (ok bool, err error) {
	st := tx.db.st
	o := tx.objs[vertexKind].get(w)
	if o == nil && !long {
		return false, nil // see finish; a short one is read whole at once
	}
	p := o.planOrNew()
	defer func() {
		if o == nil || o.plan != p { // not kept: its room goes back
			p.release()
		}
	}()
	if o == nil {
		if o, err = tx.loadToDrop(w, e, p); err != nil {
			return false, err
		}
	}
	if !o.rec.partial || o.created || o.deleted || o.rest.Bytes == nil ||
		(o.dirty && len(o.drops) == 0) || st.BlocksFor(o.rest.Length) <= store.MinFenced {
		return false, nil
	}
	// Found without a lock, checked against the lock word of the part
	// read: if a writer came in between, the caller reads w whole and
	// finds out what changed.
	ok = true
	if o.plan == nil {
		ok, err = st.newDropPlan(w, &o.rest, p)
	}
	if err == nil && ok {
		err = p.drop(e)
	}
	valid, verr := true, error(nil)
	if p.d.fetched > 0 {
		valid, verr = st.StillValid(w.Holder(), o.rest.Stamp)
		p.d.fetched = 0
	}
	switch {
	case verr != nil:
		return false, verr
	case !valid:
		return false, nil
	case errors.Is(err, errTorn):
		return false, tx.fail("edge %d vanished from vertex %d: a concurrent transaction changed it", e, w)
	case err != nil:
		return false, err
	case !ok:
		return false, nil
	}
	if d := p.d; d.learned {
		// What the reader learned is checked by the lock word: the memo
		// may have it.
		st.chains.remember(w.Holder(), d)
		d.learned = false
	}
	o.plan = p
	o.drops = append(o.drops, e)
	o.rec.adjustDegrees(x, true, nil, false)
	o.dirty = true
	return true, nil
}

// planOrNew returns the plan of drops o has, or a new one (o may be nil).
func (o *txObj) planOrNew() *dropPlan {
	if o != nil && o.plan != nil {
		return o.plan
	}
	return newPlan()
}

// loadToDrop reads vertex w, which the transaction has no copy of, to
// drop the reference to edge e from it with plan p: the block the memo
// guesses holds the reference comes with the first read (store.Ahead).
func (tx *Transaction) loadToDrop(w, e layout.Number, p *dropPlan) (*txObj, error) {
	st := tx.db.st
	var ahead *store.Ahead
	if p.known = st.chains.get(w.Holder()); p.known != nil {
		if i := p.known.guess(e); i > 0 {
			p.ahead, p.aheadAt = store.Ahead{At: p.known.chain[i], Buf: p.d.spareBlock(st.BlockSize())}, i
			p.d.hint, p.d.hintFor, ahead = i, e, &p.ahead
		}
	}
	o, err := tx.load(vertexKind, w, ahead)
	if err != nil {
		return nil, err
	}
	if o == nil || o.deleted {
		return nil, tx.fail("vertex %d vanished: a concurrent transaction changed it", w)
	}
	return o, nil
}

// deleteEdge deletes edge e and detaches it from its vertices.
func (tx *Transaction) deleteEdge(e layout.Number, o *txObj) error {
	if err := tx.attach(e, o.rec.ends(), nil); err != nil {
		return err
	}
	o.deleted, o.dirty = true, true
	if o.eh != nil {
		o.eh.freed = true
	}
	return nil
}
