package gdirma

import (
	"slices"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
)

// associate returns the copy of object n, or ErrUID if there is none (or
// a transaction-critical error if the object vanished under it).
func (tx *Transaction) associate(k kind, n layout.Number) (*txObj, error) {
	o, err := tx.get(k, n)
	if err != nil {
		return nil, err
	}
	if o != nil && !o.deleted {
		return o, nil
	}
	if o == nil && tx.typ == gdi.SingleProcessTransaction {
		// Gone although a query of this transaction found it, or some
		// object read has changed: a concurrent commit got in between.
		for _, s := range tx.scans {
			if _, ok := s.seen[n]; ok {
				return nil, tx.fail("%v %d deleted by a concurrent commit", k, n)
			}
		}
		if tx.conflicted(tx.db.st) {
			return nil, tx.fail("%v %d not found after a concurrent commit", k, n)
		}
	}
	return nil, gdi.Errorf(gdi.ErrUID, "no %v with number %d", k, n)
}

// CreateVertex creates a vertex, with application-level ID id if not empty.
func (tx *Transaction) CreateVertex(id []byte) (gdi.VertexHolder, error) {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if err := tx.valid(); err != nil {
		return nil, err
	}
	if err := tx.writable(); err != nil {
		return nil, err
	}
	n, err := tx.db.st.newNumber(tx.db.rank)
	if err != nil {
		return nil, err
	}
	// The copy comes from the pool of copies, as those read do; its first
	// labels and properties go in the room its record has for them, with
	// the capacities decodeHeadAt gives them.
	c := tx.db.st.loaded.get()
	r := &c.r
	*r = record{home: homeOf(n), vertexRefs: vertexRefs{es: edgeSet{}}}
	r.lbls = r.lbuf[:0]
	if len(id) > 0 {
		r.pbuf[0] = layout.Property{Ptype: uint32(gdi.PropertyTypeID), Value: gdi.Bytes(id)}
		r.prps = r.pbuf[:1:2]
	}
	o := &c.o
	*o = txObj{rec: r, created: true, dirty: true, ptr: n, room: c}
	tx.keep(vertexKind, n, o)
	return tx.vertexHolder(n, o), nil
}

// AssociateVertex returns a holder of the vertex uid.
func (tx *Transaction) AssociateVertex(uid gdi.VertexUID) (gdi.VertexHolder, error) {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if err := tx.valid(); err != nil {
		return nil, err
	}
	n, err := tx.decodeUID(uint64(uid), vertexKind)
	if err != nil {
		return nil, err
	}
	o, err := tx.associate(vertexKind, n)
	if err != nil {
		return nil, err
	}
	return tx.vertexHolder(n, o), nil
}

// CreateEdge creates an edge from origin to target.
func (tx *Transaction) CreateEdge(d gdi.DirectionType, origin, target gdi.VertexHolder) (gdi.EdgeHolder, error) {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if err := tx.valid(); err != nil {
		return nil, err
	}
	if err := tx.writable(); err != nil {
		return nil, err
	}
	if !d.Valid() {
		return nil, gdi.Errorf(gdi.ErrState, "direction %v", d)
	}
	on, err := tx.ownVertex(origin)
	if err != nil {
		return nil, err
	}
	tn, err := tx.ownVertex(target)
	if err != nil {
		return nil, err
	}
	// A new edge is lightweight, in a free slot of its origin.
	if err := tx.full(on, tx.objs[vertexKind].get(on).rec); err != nil {
		return nil, err
	}
	n := tx.freeSlot(on)
	light := n != 0
	if !light {
		var err error
		if n, err = tx.db.st.newNumber(tx.db.rank); err != nil {
			return nil, err
		}
	}
	// The copy comes from the pool of copies, as those read do.
	c := tx.db.st.loaded.get()
	r := &c.r
	*r = record{home: homeOf(n), edgeEnds: edgeEnds{dir: d, origin: on, target: tn}}
	r.lbls = r.lbuf[:0]
	if light {
		r.home = homeOf(on)
	}
	o := &c.o
	*o = txObj{rec: r, created: true, dirty: true, room: c}
	if !light {
		o.ptr = n
	}
	tx.keep(edgeKind, n, o)
	if err := tx.attach(n, nil, r); err != nil {
		return nil, err
	}
	return tx.edgeHolder(n, o), nil
}

// freeSlot returns the number of a lightweight edge of origin v that is
// not in use, or 0 if every slot is.
func (tx *Transaction) freeSlot(v layout.Number) layout.Number {
	ov := tx.objs[vertexKind].get(v)
	if ov == nil || !tx.db.st.lightOK() {
		return 0
	}
	// Slots are tried from the number of references on, so that a vertex
	// whose edges were only ever added finds one at the first try. The
	// references are searched undecoded (getRef).
	refs := ov.rec.nrefs()
	for i := range layout.MaxSlot {
		n := tx.db.st.lightNumber(v, (refs+i)%layout.MaxSlot+1)
		if _, used := ov.rec.getRef(n); !used && tx.objs[edgeKind].get(n) == nil {
			return n
		}
	}
	return 0
}

// heavy gives the lightweight edge of holder b a holder of its own,
// before a change that the references at its ends cannot hold (a
// property, a second label). The edge keeps its number. The caller holds
// tx.mu.
func (tx *Transaction) heavy(b *base) error {
	o := tx.objs[edgeKind].get(b.num)
	if o == nil || o.ptr != 0 {
		return nil
	}
	ptr, err := tx.db.st.newNumber(tx.db.rank)
	if err != nil {
		return err
	}
	o.ptr, o.created, o.dirty = ptr, true, true
	o.rec.home = homeOf(ptr)
	return tx.attach(b.num, o.rec.ends(), o.rec)
}

// orphan gives edge e, numbered after vertex v, which is being deleted but
// is no longer an end of e, the number of its holder (a heavyweight edge
// numbered by its holder). The old number stays an alias of the new one
// for the rest of the transaction. The caller holds tx.mu.
func (tx *Transaction) orphan(e layout.Number) error {
	o, err := tx.related(edgeKind, e)
	if err != nil {
		return err
	}
	if o.ptr == 0 {
		return tx.fail("edge %d is numbered after a vertex it does not touch but has no holder", e)
	}
	ends := o.rec.ends()
	if err := tx.attach(e, ends, nil); err != nil {
		return err
	}
	n := o.ptr
	no := &txObj{rec: o.rec, base: o.base, stamp: o.stamp, stamped: o.stamped, created: o.created, dirty: true, ptr: n, eh: o.eh}
	if no.eh != nil {
		no.eh.num = n
	}
	// The old entry keeps nothing to install or free.
	o.deleted, o.created, o.dirty, o.ptr, o.eh = true, true, true, 0, nil
	tx.keep(edgeKind, n, no)
	if tx.alias == nil {
		tx.alias = map[layout.Number]layout.Number{}
	}
	for a, to := range tx.alias {
		if to == e {
			tx.alias[a] = n
		}
	}
	tx.alias[e] = n
	return tx.attach(n, nil, no.rec)
}

// ownVertex checks that v is a valid holder of this transaction and
// returns the vertex number.
func (tx *Transaction) ownVertex(v gdi.VertexHolder) (layout.Number, error) {
	if v == nil {
		return 0, gdi.Errorf(gdi.ErrVertex, "nil vertex holder")
	}
	vh, ok := v.(*vertexHolder)
	if !ok || vh == nil {
		return 0, gdi.Errorf(gdi.ErrObjectMismatch, "vertex holder of another backend")
	}
	if vh.tx != tx {
		return 0, gdi.Errorf(gdi.ErrObjectMismatch, "vertex holder of another transaction")
	}
	if _, err := vh.obj(); err != nil {
		return 0, err
	}
	return vh.num, nil
}

// attach moves edge e from the incidence sets of the vertices in oldEnds
// to those of the ends of r (none if r is nil), and brings the reference
// each end keeps of the edge up to date with r.
func (tx *Transaction) attach(e layout.Number, oldEnds []layout.Number, r *record) error {
	var newEnds []layout.Number
	if r != nil {
		newEnds = r.ends()
	}
	var holder layout.Number
	if eo := tx.objs[edgeKind].get(e); eo != nil && layout.IsLight(e) {
		holder = eo.ptr
	}
	// An edge numbered after its origin v0 must stay findable there: if
	// v0 stops being an end, it keeps a stub (a reference with direction
	// 0) naming the edge's holder.
	var v0 layout.Number
	if layout.IsLight(e) {
		v0 = tx.db.st.lightOrigin(e)
	}
	for _, v := range oldEnds {
		if slices.Contains(newEnds, v) || v == tx.freeing {
			continue
		}
		o, err := tx.related(vertexKind, v)
		if err != nil {
			return err
		}
		if v == v0 && r != nil {
			if holder == 0 {
				return tx.fail("edge %d leaves the vertex it is numbered after without a holder", e)
			}
			o.rec.setRef(e, layout.Ref{Holder: holder})
		} else {
			o.rec.delRef(e)
		}
		o.dirty = true
	}
	if v0 != 0 && r == nil && !slices.Contains(oldEnds, v0) && v0 != tx.freeing {
		if o, err := tx.get(vertexKind, v0); err == nil && o != nil && !o.deleted {
			if err := tx.full(v0, o.rec); err != nil {
				return err
			}
			if o.rec.delRef(e) {
				o.dirty = true
			}
		}
	}
	for _, v := range newEnds {
		o, err := tx.related(vertexKind, v)
		if err != nil {
			return err
		}
		ref := refOf(e, r, holder)
		if x, ok := o.rec.getRef(e); !ok || x != ref {
			o.rec.setRef(e, ref)
			o.dirty = true
		}
	}
	return nil
}

// AssociateEdge returns a holder of the edge uid.
func (tx *Transaction) AssociateEdge(uid gdi.EdgeUID) (gdi.EdgeHolder, error) {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if err := tx.valid(); err != nil {
		return nil, err
	}
	var n layout.Number
	if uid[1] != 0 {
		if uid[1] > layout.MaxSlot {
			return nil, gdi.Errorf(gdi.ErrUID, "edge UID %v", uid)
		}
		v, err := tx.decodeUID(uid[0], edgeKind)
		if err != nil {
			return nil, err
		}
		n = tx.db.st.lightNumber(v, int(uid[1]))
		if a, ok := tx.alias[n]; ok {
			n = a
		}
	} else {
		var err error
		if n, err = tx.decodeUID(uid[0], edgeKind); err != nil {
			return nil, err
		}
	}
	o, err := tx.associate(edgeKind, n)
	if err != nil {
		return nil, err
	}
	return tx.edgeHolder(n, o), nil
}
