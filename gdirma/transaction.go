package gdirma

import (
	"sync"

	"github.com/gdi-go/gdi/bgdl"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/gdirma/internal/store"
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
	rec  *record
	base store.Version // of the committed record copied; 0 if created here
	// stamp is the lock word the copy of version base was read under,
	// if stamped: a commit that finds the word unchanged need not read
	// the version (validate.go).
	stamp   uint64
	stamped bool
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
	ptr layout.Number
	vh  *vertexHolder
	eh  *edgeHolder
	// room is the loadedObj o is the copy of, if it came from
	// loadedPool.get, else nil.
	room *loadedObj
	// orig and chain are the committed record of version base and its
	// blocks, if the transaction read them whole after a partial read
	// (full): commit installs over them without reading them again.
	orig  *record
	chain []bgdl.DPtr
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
	drops []layout.Number
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
	o     txObj
	r     record
	orig  record
	chain [4]bgdl.DPtr
	// small holds the image of a holder read whole from its primary
	// block, if it is shorter than pooled images (store.Request.Pool): r and
	// txObj.img use it until the copy goes back to the pool.
	small [store.MinPooled]byte
}

// origRoom returns where the committed record of o goes, zeroed, and room
// for its blocks: the room of the copy if it is pooled (o may be nil),
// else new.
func origRoom(o *txObj) (*record, []bgdl.DPtr) {
	if o == nil || o.room == nil {
		return new(record), nil
	}
	lo := o.room
	lo.orig = record{}
	return &lo.orig, lo.chain[:0]
}

// scan records a query over many objects: which committed objects matched
// when it ran, and how to ask the store again at commit.
type scan struct {
	eval func(st *graph) (map[layout.Number]struct{}, error)
	// isID: a lookup of the implicit index, which reads one DHT entry
	// and the holder it names (idindex.go).
	isID bool
	seen map[layout.Number]struct{}
}

// global reports whether revalidating the query reads many holders (a
// scan) rather than one DHT entry and the object it names.
func (s scan) global() bool { return !s.isID }

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
				_ = tx.db.st.Release(o.ptr.Holder())
			}
			if o.plan != nil {
				o.plan.release()
				o.plan = nil
			}
			if o.room != nil {
				tx.db.st.loaded.put(o)
			}
		}
	}
	tx.db.st.PutImages(tx.images)
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

func (tx *Transaction) vertexUID(n layout.Number) gdi.VertexUID {
	return gdi.VertexUID(tx.db.st.UID(n.Holder()))
}

func (tx *Transaction) edgeUID(n layout.Number) gdi.EdgeUID {
	if layout.IsLight(n) {
		return gdi.EdgeUID{tx.db.st.LightUID(n), uint64(layout.Slot(n))}
	}
	return gdi.EdgeUID{tx.db.st.UID(n.Holder()), 0}
}

// appendEdgeUID appends the UID of edge n to out, a word at a time. Built
// whole, the UID (an array) goes through a temporary on the stack, and
// copying it out 16 bytes at once stalls on the two 8-byte stores that
// wrote it: a few nanoseconds per edge, a fifth of an edge query.
func (tx *Transaction) appendEdgeUID(out []gdi.EdgeUID, n layout.Number) []gdi.EdgeUID {
	var hi, lo uint64
	if layout.IsLight(n) {
		hi, lo = tx.db.st.LightUID(n), uint64(layout.Slot(n))
	} else {
		hi = tx.db.st.UID(n.Holder())
	}
	out = append(out, gdi.EdgeUID{})
	u := &out[len(out)-1]
	u[0], u[1] = hi, lo
	return out
}

// decodeUID returns the object number of a UID of this database.
func (tx *Transaction) decodeUID(u uint64, k kind) (layout.Number, error) {
	return tx.db.st.number(u, k)
}
