package gdirma

import (
	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/gdirma/internal/store"
)

// get returns the transaction's copy of object n of kind k, copying it
// from its blocks on first use, or nil if there is no such committed
// object. Deleted objects are returned too; callers check. A holder that
// stays locked by a committing transaction is a transaction-critical error.
func (tx *Transaction) get(k kind, n layout.Number) (*txObj, error) {
	if o := tx.objs[k].get(n); o != nil {
		return o, nil
	}
	if k == edgeKind && layout.IsLight(n) {
		// A lightweight edge is what its origin's holder says of it.
		v := tx.db.st.lightOrigin(n)
		ov, err := tx.getWhole(v)
		if err != nil || ov == nil || ov.deleted {
			return nil, err
		}
		// One reference of a vertex that may have many: found in place,
		// without decoding the others.
		x, ok := ov.rec.getRef(n)
		if !ok {
			return nil, nil
		}
		o := &txObj{rec: refRecord(x, n)}
		if x.Holder == 0 && tx.transient(n) {
			return o, nil // made anew on each use, see transient
		}
		if x.Holder != 0 {
			r, err := tx.db.st.load(edgeKind, x.Holder)
			if err != nil {
				return nil, tx.fail("%v", err)
			}
			if r == nil {
				return nil, tx.fail("the holder of edge %d vanished: a concurrent transaction changed it", n)
			}
			o = &txObj{rec: r, base: r.version, stamp: r.stamp, stamped: r.stamped, ptr: x.Holder}
		}
		tx.keep(k, n, o)
		return o, nil
	}
	return tx.load(k, n, nil)
}

// load is get of an object the transaction has no copy of. A vertex read
// the long way gets block ahead in the same round trip (store.Ahead).
func (tx *Transaction) load(k kind, n layout.Number, ahead *store.Ahead) (*txObj, error) {
	c := tx.db.st.loaded.get()
	var ok bool
	var single []byte
	var rest restHint
	var err error
	if k == vertexKind {
		ok, single, rest, err = tx.db.st.loadPrefix(&c.r, n, store.Checked, tx.imageList(), c.small[:], ahead)
	} else {
		ok, _, single, err = tx.db.st.loadInto(&c.r, k, n, store.Prefix|store.Checked, tx.imageList(), c.small[:])
	}
	if err != nil || !ok {
		if gdi.ErrorClass(err) == gdi.ErrTransactionCritical {
			return nil, tx.fail("%v", err)
		}
		return nil, err
	}
	if rest.spans {
		return tx.spanning(n, c, &rest)
	}
	o := &c.o
	*o = txObj{rec: &c.r, base: c.r.version, stamp: c.r.stamp, stamped: c.r.stamped, ptr: n, img: single, room: c, rest: rest}
	tx.keep(k, n, o)
	return o, nil
}

// spanning is get of vertex n whose labels and properties go on past its
// primary block, which loadPrefix read (h): it reads the rest, and keeps
// the whole committed record as getWhole does, so that neither the
// transaction nor its commit reads the holder again. c is the copy to
// fill.
func (tx *Transaction) spanning(n layout.Number, c *loadedObj, h *restHint) (*txObj, error) {
	committed, chain, read, err := tx.db.st.loadRest(n, h, tx.imageList(), &c.orig, c.chain[:0])
	if err != nil || !read {
		// Changed since the first read (!read): read it whole again,
		// and find out what changed.
		tx.db.st.loaded.put(&c.o)
		if err != nil {
			if gdi.ErrorClass(err) == gdi.ErrTransactionCritical {
				return nil, tx.fail("%v", err)
			}
			return nil, err
		}
		return tx.getWhole(n)
	}
	return tx.keepWhole(n, c, committed, chain), nil
}

// keep makes o the transaction's copy of object n of kind k.
func (tx *Transaction) keep(k kind, n layout.Number, o *txObj) {
	tx.objs[k].put(n, o)
}

// transient reports whether the transaction keeps no copy of lightweight
// edge n: a collective read transaction, which changes nothing and needs
// no validation, makes it from its origin's copy on each use, so that
// reading every edge of a graph costs no memory per edge.
func (tx *Transaction) transient(n layout.Number) bool {
	return tx.typ == gdi.CollectiveReadTransaction && layout.IsLight(n)
}

// related returns an object that another object of the transaction refers
// to (an edge of a vertex, an end of an edge). If it is gone, a concurrent
// commit changed what the transaction read: a transaction-critical error.
func (tx *Transaction) related(k kind, n layout.Number) (*txObj, error) {
	var o *txObj
	var err error
	if k == vertexKind {
		o, err = tx.getWhole(n)
	} else {
		o, err = tx.get(k, n)
	}
	if err != nil {
		return nil, err
	}
	if o == nil || o.deleted {
		return nil, tx.fail("%v %d vanished: a concurrent transaction changed it", k, n)
	}
	return o, nil
}

// getWhole is get of vertex n and then full: the transaction's copy of
// all of it (deleted ones too; callers check). A vertex not read yet is
// read whole at once, its labels and properties decoded from the same
// image, rather than its primary block first.
func (tx *Transaction) getWhole(n layout.Number) (*txObj, error) {
	if o := tx.objs[vertexKind].get(n); o != nil {
		if o.deleted {
			return o, nil
		}
		return o, tx.full(n, o.rec)
	}
	lo := tx.db.st.loaded.get()
	c, chain, err := tx.loadRefs(n, store.Checked, &lo.orig, lo.chain[:0])
	if err != nil || c == nil {
		tx.db.st.loaded.put(&lo.o)
		return nil, err
	}
	return tx.keepWhole(n, lo, c, chain), nil
}

// keepWhole makes lo the transaction's copy of vertex n, given committed,
// the whole committed record of n read into lo.orig, and its blocks chain.
// The copy shares the labels and properties, still encoded, with the
// committed record (lazyhead.go).
func (tx *Transaction) keepWhole(n layout.Number, lo *loadedObj, committed *record, chain []bgdl.DPtr) *txObj {
	r := &lo.r
	r.headRaw, r.headLen = committed.headRaw, committed.headLen
	r.version, r.home = committed.version, committed.home
	lo.o = txObj{rec: r, base: committed.version, stamp: committed.stamp, stamped: committed.stamped, ptr: n, room: lo}
	tx.takeRefs(&lo.o, committed, chain)
	tx.keep(vertexKind, n, &lo.o)
	return &lo.o
}

// loadRefs is store.loadRefs into the transaction's image buffers, with
// a holder that stays locked as a transaction-critical error.
func (tx *Transaction) loadRefs(n layout.Number, checked store.Mode, r *record, chainBuf []bgdl.DPtr) (*record, []bgdl.DPtr, error) {
	c, chain, err := tx.db.st.loadRefs(n, checked, tx.imageList(), r, chainBuf)
	if err != nil && gdi.ErrorClass(err) == gdi.ErrTransactionCritical {
		return nil, nil, tx.fail("%v", err)
	}
	return c, chain, err
}

// imageList is where the transaction keeps the pooled buffers of the
// images it read, given back when it ends.
func (tx *Transaction) imageList() *[]*[]byte {
	if tx.images == nil {
		tx.images = tx.imageBuf[:0]
	}
	return &tx.images
}

// takeRefs gives o's record the edge references of c, the committed
// record of the same version with its blocks chain, and keeps c for the
// commit to install over (collective transactions write nothing).
func (tx *Transaction) takeRefs(o *txObj, c *record, chain []bgdl.DPtr) {
	o.rec.takeRefs(c)
	if tx.typ == gdi.SingleProcessTransaction {
		o.orig, o.chain = c, chain
		o.rec.own = ownOrig // c is the only other holder of its references
	}
}

// full reads the edge references of vertex n into r, the transaction's
// copy of it, if r was read from its primary block alone. The holder must
// not have changed since.
func (tx *Transaction) full(n layout.Number, r *record) error {
	if !r.partial {
		return nil
	}
	// r has the labels and properties: the commit decodes those of c
	// only if it installs over it. A pooled copy has room for c.
	o := tx.objs[vertexKind].get(n)
	if o != nil && o.rec != r {
		o = nil
	}
	into, chainBuf := origRoom(o)
	var c *record
	var chain []bgdl.DPtr
	var err error
	read := false
	if o != nil && o.rest.Bytes != nil {
		// The rest of the image read in part: if the holder has not
		// changed since, the bytes read stand.
		c, chain, read, err = tx.db.st.loadRest(n, &o.rest, tx.imageList(), into, chainBuf)
		o.rest = restHint{}
		if err != nil {
			return err
		}
		if !read {
			*into = record{}
		}
	}
	if !read {
		if c, chain, err = tx.loadRefs(n, 0, into, chainBuf); err != nil {
			return err
		}
	}
	if c == nil || c.version != r.version {
		return tx.fail("vertex %d changed by a concurrent commit", n)
	}
	if o != nil {
		// Read again whole, the copy is of the same version under a
		// lock word that may have moved on: validation checks that one.
		o.stamp, o.stamped = c.stamp, c.stamped
		tx.takeRefs(o, c, chain)
		return tx.applyDrops(n, o)
	}
	r.takeRefs(c)
	return nil
}

// applyDrops removes from o, the whole copy of vertex n, the references
// the transaction dropped while o was partial (sparsedrop.go).
func (tx *Transaction) applyDrops(n layout.Number, o *txObj) error {
	drops := o.drops
	if o.plan != nil {
		o.plan.release()
	}
	o.drops, o.plan = nil, nil
	if e, ok := o.rec.delRefs(drops); !ok {
		return tx.fail("edge %d vanished from vertex %d: a concurrent transaction changed it", e, n)
	}
	return nil
}
