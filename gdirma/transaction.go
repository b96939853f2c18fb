package gdirma

import (
	"slices"
	"sync"
	"unsafe"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/rma"
)

// Transactions: optimistic reads, and a commit that locks its writes.
//
// A transaction copies every holder it touches into a private cache, and
// remembers the version it saw. It does not lock the holder to copy it: it
// notes the holder's lock word (package txn: the bgdl lock word of the
// primary block) while no writer holds it, copies the blocks, and copies
// them again if a writer took the word meanwhile (an optimistic read, as
// with a sequence lock), so readers never keep writers out and update no
// shared word. It works on these copies, so nothing is visible to others
// before commit, and abort just drops the copies and gives back the
// primary blocks of holders it created.
//
// Commit is optimistic concurrency control with two-phase locking of the
// writes (as in Silo):
//
//  1. take the lock word of every holder the transaction changed, created
//     or deleted, for writing, in the order of their numbers; a lock that
//     stays busy fails the commit (ErrTransactionCommitFail) after a
//     bounded number of short retries;
//  2. validate: every other copied holder still has the version seen and
//     is not locked for writing by another transaction (which would
//     install a change the commit cannot see), and every query would
//     return the same holders;
//  3. install: update the implicit index (insert-if-absent decides ID
//     uniqueness; on a clash everything is undone), take the blocks the
//     new images need, draw a version, write each image (continuation
//     blocks first, primary block last);
//  4. release the locks, then return unused blocks to the pool.
//
// A read-only transaction that copied one holder commits without any of
// this: its copy was taken atomically. Versions are drawn from a counter of
// the committing rank (count<<16 | rank), so no commit touches a shared
// word. Only a writing commit with queries that scan many holders (index
// queries, lookups of IDs without labels) waits, with its write locks
// held, for the holders of its rescan that other commits hold for
// writing; such commits first take the scan gate on rank 0, so that two
// of them never wait on each other. No transaction waits for a lock
// without bound, so there is no deadlock. Committed transactions are
// serializable (TestSerializability, TestWriteSkew).
//
// Collective read transactions run on a quiet database and end with an
// Allreduce of a failure flag so that all ranks agree on commit or abort.
//
// A Transaction and the holders it hands out are valid only while it is
// open; kept afterwards they return ErrTransaction (or the holder's
// invalid-argument code) and change nothing. Each is a small handle of
// its own, never reused; what an open transaction works with (its copies,
// queries and buffers) is a state the rank takes back when it ends and
// gives to its next transaction (txstate.go), so that starting one costs
// one small allocation and no fresh cache lines.

// txObj is a transaction's private copy of a vertex or edge.
type txObj struct {
	rec     *record
	base    uint64 // version of the committed record copied; 0 if created here
	created bool
	dirty   bool // rec differs from the committed record: install at commit
	deleted bool // freed in this transaction
	// installed: created here and committed, so its block stays in use.
	installed bool
	// ptr is the primary block of the object's holder: its number, for
	// vertices and edges numbered by their holder; for an edge numbered
	// after its origin (see light.go), the holder it was given when it
	// became heavyweight, or 0 while it lives only in its ends. created
	// then tells that the holder is new in this transaction.
	ptr uint64
	vh  *vertexHolder
	eh  *edgeHolder
	// pooled: o is the copy of a loadedObj from loadedPool.get.
	pooled bool
	// orig and chain are the committed record of version base and its
	// blocks, if the transaction read them whole after a partial read
	// (full): commit installs over them without reading them again.
	orig  *record
	chain []uint64
	// img, if set, is the committed image of version base, which was read
	// whole from its primary block alone: commit decodes orig from it
	// rather than read the holder again.
	img []byte
	// rest, for a vertex read in part, says how to read the rest of its
	// image (full).
	rest restHint
	// drops are edges whose references the transaction removed from this
	// vertex, read in part, without reading the rest (sparsedrop.go):
	// full removes them from the copy, else the commit from the blocks.
	drops []uint64
	plan  *dropPlan // where drops are in the blocks
}

// walkScratch is what vertexHolder.walkIncident reuses in every query
// of a transaction: the record of the edge it hands to its caller, and its
// view of the edges it checks against a constraint, with room for their
// labels.
type walkScratch struct {
	ends   record
	view   objView
	labels []gdi.Label
}

// loadedObj is a copy read from the store, with its record, and room for
// the committed record of a vertex read whole (txObj.orig) and its blocks.
type loadedObj struct {
	o     txObj // first: see txObj.loaded
	r     record
	orig  record
	chain [4]uint64
	// small holds the image of a holder read whole from its primary
	// block, if it is shorter than pooled images (imagepool.go): r and
	// txObj.img use it until the copy goes back to the pool.
	small [minPooledImage]byte
}

// origRoom returns where the committed record of o goes, zeroed, and room
// for its blocks: the room of the copy if it is pooled (o may be nil),
// else new.
func origRoom(o *txObj) (*record, []uint64) {
	if o == nil || !o.pooled {
		return new(record), nil
	}
	lo := o.loaded()
	lo.orig = record{}
	return &lo.orig, lo.chain[:0]
}

// loaded returns the loadedObj o is part of. o.pooled must be set.
func (o *txObj) loaded() *loadedObj {
	return (*loadedObj)(unsafe.Pointer(o))
}

// scan records a query over many objects: which committed objects matched
// when it ran, and how to ask the store again at commit.
type scan struct {
	eval func(st *store) (map[uint64]struct{}, error)
	// id, if isID, is a lookup of the implicit index: those that need a
	// scan are revalidated together, in one pass over the objects.
	id   idScan
	isID bool
	seen map[uint64]struct{}
}

// global reports whether revalidating the query reads many holders (a
// scan) rather than one DHT entry and the vertex it names.
func (s scan) global() bool { return !s.isID || s.id.scans() }

// idScan is a lookup of the implicit index. (A lookup that found the
// vertex in the DHT is not kept: see lookupID.)
type idScan struct {
	k   kind
	key idKey
}

// scans reports whether the lookup needs a scan rather than the DHT.
func (i *idScan) scans() bool { return i.k != vertexKind || i.key.label == uint32(gdi.LabelNone) }

// Transaction is a transaction of one rank. Its methods, and those of its
// holders, lock mu, so a transaction is safe (if pointless) to use from
// several goroutines.
//
// The Transaction itself is small and never reused, so that a handle kept
// after the end, or a holder of it, sees a transaction that ended and
// nothing else. What it works with while open (txState) is the rank's to
// reuse: the transaction takes it when it starts and gives it back when it
// ends (txstate.go).
type Transaction struct {
	db       *Database
	mu       sync.Mutex
	critical error // the first transaction-critical error, if any
	// holders is room for the first vertex holders handed out, saving an
	// allocation each. Holders stay valid after the copies they name are
	// given back (see loadedPool), so they are not part of them; nor of
	// the state, which the next transaction of the rank reuses.
	holders [2]vertexHolder

	// *txState is nil once the transaction ended: every method checks
	// open (valid, base.obj) before it looks at it.
	*txState

	// The small fields come last, together, so that the whole takes 96
	// bytes, not 128: every transaction allocates one.
	slot     int32 // in db.transactions, guarded by db.mu
	typ      gdi.TransactionType
	open     bool
	nholders int8
}

// newVertexHolder returns room for a vertex holder.
func (tx *Transaction) newVertexHolder() *vertexHolder {
	if int(tx.nholders) < len(tx.holders) {
		tx.nholders++
		return &tx.holders[tx.nholders-1]
	}
	return new(vertexHolder)
}

var _ gdi.Transaction = (*Transaction)(nil)

func (db *Database) newTransaction(t gdi.TransactionType) *Transaction {
	tx := &Transaction{db: db, typ: t, open: true, slot: int32(len(db.transactions)), txState: db.takeState()}
	db.transactions = append(db.transactions, tx)
	if t == gdi.CollectiveReadTransaction {
		db.collective++
	}
	return tx
}

// StartTransaction starts a single-process transaction.
func (db *Database) StartTransaction() (gdi.Transaction, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.IsFreed() {
		return nil, errFreedDB()
	}
	if db.collective > 0 {
		return nil, gdi.Errorf(gdi.ErrConsistency, "a collective read transaction is open")
	}
	return db.newTransaction(gdi.SingleProcessTransaction), nil
}

// StartCollectiveTransaction starts a collective read transaction
// (collective, barrier, quiet database).
func (db *Database) StartCollectiveTransaction() (gdi.Transaction, error) {
	if db.IsFreed() {
		return nil, errFreedDB()
	}
	if err := db.Agree("StartCollectiveTransaction", db.quietCheck("StartCollectiveTransaction")); err != nil {
		return nil, err
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	return db.newTransaction(gdi.CollectiveReadTransaction), nil
}

// valid returns ErrTransaction once the transaction ended. The caller
// holds tx.mu.
func (tx *Transaction) valid() error {
	if !tx.open {
		return gdi.Errorf(gdi.ErrTransaction, "transaction ended")
	}
	return nil
}

// fail records a transaction-critical error and returns it.
func (tx *Transaction) fail(format string, args ...any) error {
	err := gdi.Errorf(gdi.ErrTransactionCritical, format, args...)
	if tx.critical == nil {
		tx.critical = err
	}
	return err
}

// writable returns ErrReadOnlyTransaction in a collective read transaction.
func (tx *Transaction) writable() error {
	if tx.typ == gdi.CollectiveReadTransaction {
		return gdi.Errorf(gdi.ErrReadOnlyTransaction, "write in a collective read transaction")
	}
	return nil
}

// Type returns the transaction type.
func (tx *Transaction) Type() (gdi.TransactionType, error) {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if err := tx.valid(); err != nil {
		return 0, err
	}
	return tx.typ, nil
}

// get returns the transaction's copy of object n of kind k, copying it
// from its blocks on first use, or nil if there is no such committed
// object. Deleted objects are returned too; callers check. A holder that
// stays locked by a committing transaction is a transaction-critical error.
func (tx *Transaction) get(k kind, n uint64) (*txObj, error) {
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
			o = &txObj{rec: r, base: r.version, ptr: x.Holder}
		}
		tx.keep(k, n, o)
		return o, nil
	}
	c := tx.db.st.loaded.get()
	var ok bool
	var single []byte
	var rest restHint
	var err error
	if k == vertexKind {
		ok, single, rest, err = tx.db.st.loadPrefix(&c.r, n, tx.imageList(), c.small[:])
	} else {
		ok, _, single, err = tx.db.st.loadInto(&c.r, k, n, true, false, tx.imageList(), c.small[:])
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
	*o = txObj{rec: &c.r, base: c.r.version, ptr: n, img: single, pooled: true, rest: rest}
	tx.keep(k, n, o)
	return o, nil
}

// spanning is get of vertex n whose labels and properties go on past its
// primary block, which loadPrefix read (h): it reads the rest, and keeps
// the whole committed record as getWhole does, so that neither the
// transaction nor its commit reads the holder again. c is the copy to
// fill.
func (tx *Transaction) spanning(n uint64, c *loadedObj, h *restHint) (*txObj, error) {
	committed, chain, read, err := tx.db.st.loadRest(n, h.version, h, tx.imageList(), &c.orig, c.chain[:0])
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
func (tx *Transaction) keep(k kind, n uint64, o *txObj) {
	tx.objs[k].put(n, o)
}

// transient reports whether the transaction keeps no copy of lightweight
// edge n: a collective read transaction, which changes nothing and needs
// no validation, makes it from its origin's copy on each use, so that
// reading every edge of a graph costs no memory per edge.
func (tx *Transaction) transient(n uint64) bool {
	return tx.typ == gdi.CollectiveReadTransaction && layout.IsLight(n)
}

// related returns an object that another object of the transaction refers
// to (an edge of a vertex, an end of an edge). If it is gone, a concurrent
// commit changed what the transaction read: a transaction-critical error.
func (tx *Transaction) related(k kind, n uint64) (*txObj, error) {
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
func (tx *Transaction) getWhole(n uint64) (*txObj, error) {
	if o := tx.objs[vertexKind].get(n); o != nil {
		if o.deleted {
			return o, nil
		}
		return o, tx.full(n, o.rec)
	}
	lo := tx.db.st.loaded.get()
	c, chain, err := tx.loadRefs(n, &lo.orig, lo.chain[:0])
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
func (tx *Transaction) keepWhole(n uint64, lo *loadedObj, committed *record, chain []uint64) *txObj {
	r := &lo.r
	r.headRaw, r.headLen = committed.headRaw, committed.headLen
	r.version, r.home = committed.version, committed.home
	lo.o = txObj{rec: r, base: committed.version, ptr: n, pooled: true}
	tx.takeRefs(&lo.o, committed, chain)
	tx.keep(vertexKind, n, &lo.o)
	return &lo.o
}

// loadRefs is store.loadRefs into the transaction's image buffers, with
// a holder that stays locked as a transaction-critical error.
func (tx *Transaction) loadRefs(n uint64, r *record, chainBuf []uint64) (*record, []uint64, error) {
	c, chain, err := tx.db.st.loadRefs(n, tx.imageList(), r, chainBuf)
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
func (tx *Transaction) takeRefs(o *txObj, c *record, chain []uint64) {
	o.rec.takeRefs(c)
	if tx.typ == gdi.SingleProcessTransaction {
		o.orig, o.chain = c, chain
		o.rec.own = ownOrig // c is the only other holder of its references
	}
}

// full reads the edge references of vertex n into r, the transaction's
// copy of it, if r was read from its primary block alone. The holder must
// not have changed since.
func (tx *Transaction) full(n uint64, r *record) error {
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
	var chain []uint64
	var err error
	read := false
	if o != nil && o.rest.prefix != nil {
		// The rest of the image read in part: if the holder has not
		// changed since, the bytes read stand.
		c, chain, read, err = tx.db.st.loadRest(n, r.version, &o.rest, tx.imageList(), into, chainBuf)
		o.rest = restHint{}
		if err != nil {
			return err
		}
		if !read {
			*into = record{}
		}
	}
	if !read {
		if c, chain, err = tx.loadRefs(n, into, chainBuf); err != nil {
			return err
		}
	}
	if c == nil || c.version != r.version {
		return tx.fail("vertex %d changed by a concurrent commit", n)
	}
	if o != nil {
		tx.takeRefs(o, c, chain)
		return tx.applyDrops(n, o)
	}
	r.takeRefs(c)
	return nil
}

// applyDrops removes from o, the whole copy of vertex n, the references
// the transaction dropped while o was partial (sparsedrop.go).
func (tx *Transaction) applyDrops(n uint64, o *txObj) error {
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

// conflicted reports whether a committed object the transaction copied
// has changed since, is about to change (another transaction holds its
// lock for writing), or cannot be read now. Only the lock, marker and
// version words are read.
func (tx *Transaction) conflicted(st *store) bool {
	for k := range tx.objs {
		for _, o := range tx.objs[k].all() {
			if o.created || o.ptr == 0 {
				continue // a lightweight edge is validated with its origin
			}
			ik, version, ok, locked, err := st.stamp(o.ptr)
			if err != nil || !ok || locked || ik != kind(k) || version != o.base {
				return true
			}
		}
	}
	return false
}

// pendingScans reports whether a query of the transaction must be asked
// again at commit. DHT lookups settled by the version of the vertex they
// found are not kept (see lookupID and validate).
func (tx *Transaction) pendingScans() bool { return len(tx.scans) > 0 }

// validate checks, with the transaction's locks held, that everything it
// read is as it was: the versions of its copies, and the committed matches
// of its scans.
func (tx *Transaction) validate(st *store) bool {
	if tx.conflicted(st) {
		return false
	}
	// Lookups that found a vertex in the DHT whose copy has the ID are
	// settled by the version check above (and not kept): while the
	// vertex keeps its ID, the DHT names it and nothing else. Other DHT
	// lookups are made again; scans only if some rank committed since
	// the first of them.
	if !tx.pendingScans() {
		return true
	}
	rescan := true
	if tx.epochSet {
		if now, err := st.commits(); err == nil && now == tx.epoch {
			rescan = false
		}
	}
	// Lookups of IDs that scan (edges, vertices without labels) share one
	// pass per kind.
	byKey := map[idScan]map[uint64]struct{}{}
	for _, s := range tx.scans {
		if rescan && s.isID && s.id.scans() {
			byKey[s.id] = map[uint64]struct{}{}
		}
	}
	for _, k := range []kind{vertexKind, edgeKind} {
		need := false
		for key := range byKey {
			need = need || key.k == k
		}
		if !need {
			continue
		}
		err := st.scan(k, func(n uint64, r *record) error {
			for key, m := range byKey {
				if key.k == k && r.matchesID(key.key) {
					m[n] = struct{}{}
				}
			}
			return nil
		})
		if err != nil {
			return false
		}
	}
	for _, s := range tx.scans {
		var now map[uint64]struct{}
		var err error
		if !rescan && s.global() {
			continue
		}
		if s.isID && s.id.scans() {
			now = byKey[s.id]
		} else {
			now, err = s.eval(st)
		}
		if err != nil || len(now) != len(s.seen) {
			return false
		}
		for n := range now {
			if _, ok := s.seen[n]; !ok {
				return false
			}
		}
	}
	return true
}

// Commit ends the transaction and installs its changes, or rolls back and
// returns ErrTransactionCommitFail.
func (tx *Transaction) Commit() error {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if err := tx.valid(); err != nil {
		return err
	}
	if tx.typ == gdi.CollectiveReadTransaction {
		return tx.closeCollective(true)
	}
	defer tx.end()
	if tx.critical != nil {
		return gdi.Errorf(gdi.ErrTransactionCommitFail, "a transaction-critical error occurred: %v", tx.critical)
	}
	return tx.commit()
}

// Abort ends the transaction and rolls back.
func (tx *Transaction) Abort() error {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if err := tx.valid(); err != nil {
		return err
	}
	if tx.typ == gdi.CollectiveReadTransaction {
		return tx.closeCollective(false)
	}
	tx.end()
	return nil
}

// closeCollective ends a collective read transaction: the ranks agree on
// the outcome with an Allreduce of a failure flag.
func (tx *Transaction) closeCollective(commit bool) error {
	defer tx.end()
	flag := []int64{0}
	if !commit || tx.critical != nil {
		flag[0] = 1
	}
	if err := tx.db.comm.AllreduceInt64(flag, rma.OpMax); err != nil {
		return gdi.Errorf(gdi.ErrIntern, "gdirma: closing a collective transaction: %w", err)
	}
	if commit && flag[0] != 0 {
		return gdi.Errorf(gdi.ErrTransactionCommitFail, "a rank aborted or met a transaction-critical error")
	}
	return nil
}

// end closes the transaction: holders and UIDs become invalid, and the
// primary blocks of objects it created but did not commit go back to the
// pool. The caller holds tx.mu.
func (tx *Transaction) end() {
	if !tx.open {
		return
	}
	tx.open = false
	// No copy or record of the transaction is used any more: each copy
	// read from the store goes back to the pool.
	for k := range tx.objs {
		for _, o := range tx.objs[k].all() {
			if o.created && !o.installed && o.ptr != 0 {
				_ = tx.db.st.release(o.ptr)
			}
			if o.plan != nil {
				o.plan.release()
				o.plan = nil
			}
			if o.pooled {
				tx.db.st.loaded.put(o)
			}
		}
	}
	tx.db.st.images.put(tx.images)
	db := tx.db
	db.mu.Lock()
	db.giveState(tx.txState)
	tx.txState = nil
	if int(tx.slot) < len(db.transactions) && db.transactions[tx.slot] == tx {
		last := db.transactions[len(db.transactions)-1]
		db.transactions[tx.slot], last.slot = last, tx.slot
		db.transactions = db.transactions[:len(db.transactions)-1]
		if tx.typ == gdi.CollectiveReadTransaction {
			db.collective--
		}
	}
	db.mu.Unlock()
}

func (tx *Transaction) vertexUID(n uint64) gdi.VertexUID {
	return gdi.VertexUID(tx.db.st.uid(n))
}

func (tx *Transaction) edgeUID(n uint64) gdi.EdgeUID {
	if layout.IsLight(n) {
		return gdi.EdgeUID{tx.db.st.lightUID(n), n & layout.MaxSlot}
	}
	return gdi.EdgeUID{tx.db.st.uid(n), 0}
}

// appendEdgeUID appends the UID of edge n to out, a word at a time. Built
// whole, the UID (an array) goes through a temporary on the stack, and
// copying it out 16 bytes at once stalls on the two 8-byte stores that
// wrote it: a few nanoseconds per edge, a fifth of an edge query.
func (tx *Transaction) appendEdgeUID(out []gdi.EdgeUID, n uint64) []gdi.EdgeUID {
	var hi, lo uint64
	if layout.IsLight(n) {
		hi, lo = tx.db.st.lightUID(n), n&layout.MaxSlot
	} else {
		hi = tx.db.st.uid(n)
	}
	out = append(out, gdi.EdgeUID{})
	u := &out[len(out)-1]
	u[0], u[1] = hi, lo
	return out
}

// decodeUID returns the object number of a UID of this database.
func (tx *Transaction) decodeUID(u uint64, k kind) (uint64, error) {
	return tx.db.st.number(u, k)
}

// associate returns the copy of object n, or ErrUID if there is none (or
// a transaction-critical error if the object vanished under it).
func (tx *Transaction) associate(k kind, n uint64) (*txObj, error) {
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
	*r = record{home: homeOf(n), es: edgeSet{}}
	r.lbls = r.lbuf[:0]
	if len(id) > 0 {
		r.pbuf[0] = property{uint32(gdi.PropertyTypeID), gdi.Bytes(id)}
		r.prps = r.pbuf[:1:2]
	}
	o := &c.o
	*o = txObj{rec: r, created: true, dirty: true, ptr: n, pooled: true}
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
	*r = record{home: homeOf(n), dir: d, origin: on, target: tn}
	r.lbls = r.lbuf[:0]
	if light {
		r.home = homeOf(on)
	}
	o := &c.o
	*o = txObj{rec: r, created: true, dirty: true, pooled: true}
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
func (tx *Transaction) freeSlot(v uint64) uint64 {
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
func (tx *Transaction) orphan(e uint64) error {
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
	no := &txObj{rec: o.rec, base: o.base, created: o.created, dirty: true, ptr: n, eh: o.eh}
	if no.eh != nil {
		no.eh.num = n
	}
	// The old entry keeps nothing to install or free.
	o.deleted, o.created, o.dirty, o.ptr, o.eh = true, true, true, 0, nil
	tx.keep(edgeKind, n, no)
	if tx.alias == nil {
		tx.alias = map[uint64]uint64{}
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
func (tx *Transaction) ownVertex(v gdi.VertexHolder) (uint64, error) {
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
func (tx *Transaction) attach(e uint64, oldEnds []uint64, r *record) error {
	var newEnds []uint64
	if r != nil {
		newEnds = r.ends()
	}
	var holder uint64
	if eo := tx.objs[edgeKind].get(e); eo != nil && layout.IsLight(e) {
		holder = eo.ptr
	}
	// An edge numbered after its origin v0 must stay findable there: if
	// v0 stops being an end, it keeps a stub (a reference with direction
	// 0) naming the edge's holder.
	var v0 uint64
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
	var n uint64
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
