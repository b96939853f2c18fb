package refdb

import (
	"slices"
	"sync"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
)

// txObj is a transaction's private copy of a vertex or edge.
type txObj struct {
	rec     *record
	base    uint64 // version of the committed record copied; 0 if created here
	created bool
	dirty   bool // rec differs from the committed record: install at commit
	deleted bool // freed in this transaction
	vh      *vertexHolder
	eh      *edgeHolder
}

// scan records a query over many objects: which committed objects matched
// when it ran, and how to ask the store again at commit.
type scan struct {
	eval func(st *store) map[uint64]struct{} // the caller holds st.mu
	seen map[uint64]struct{}
}

// Transaction is a transaction of one rank. Its methods, and those of its
// holders, lock mu, so a transaction is safe (if pointless) to use from
// several goroutines.
type Transaction struct {
	db  *Database
	typ gdi.TransactionType

	mu       sync.Mutex
	open     bool
	critical error // the first transaction-critical error, if any
	objs     [2]map[uint64]*txObj
	scans    []scan
}

var _ gdi.Transaction = (*Transaction)(nil)

func (db *Database) newTransaction(t gdi.TransactionType) *Transaction {
	tx := &Transaction{db: db, typ: t, open: true, objs: [2]map[uint64]*txObj{{}, {}}}
	db.transactions = append(db.transactions, tx)
	return tx
}

// StartTransaction starts a single-process transaction.
func (db *Database) StartTransaction() (gdi.Transaction, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.IsFreed() {
		return nil, errFreedDB()
	}
	for _, tx := range db.transactions {
		if tx.typ == gdi.CollectiveReadTransaction {
			return nil, gdi.Errorf(gdi.ErrConsistency, "a collective read transaction is open")
		}
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
// from the store on first use, or nil if there is no such committed
// object. Deleted objects are returned too; callers check.
func (tx *Transaction) get(k kind, n uint64) *txObj {
	if o := tx.objs[k][n]; o != nil {
		return o
	}
	st := tx.db.st
	st.mu.Lock()
	r := st.objects[k][n]
	var o *txObj
	if r != nil {
		o = &txObj{rec: r.clone(), base: r.version}
	}
	st.mu.Unlock()
	if o != nil {
		tx.objs[k][n] = o
	}
	return o
}

// related returns an object that another object of the transaction refers
// to (an edge of a vertex, an end of an edge). If it is gone, a concurrent
// commit changed what the transaction read: a transaction-critical error.
func (tx *Transaction) related(k kind, n uint64) (*txObj, error) {
	o := tx.get(k, n)
	if o == nil || o.deleted {
		return nil, tx.fail("%v %d vanished: a concurrent transaction changed it", k, n)
	}
	return o, nil
}

// conflicted reports whether a committed object the transaction copied
// has changed since. The caller holds st.mu.
func (tx *Transaction) conflictedLocked() bool {
	st := tx.db.st
	for k := range tx.objs {
		for n, o := range tx.objs[k] {
			if o.created {
				continue
			}
			if r := st.objects[k][n]; r == nil || r.version != o.base {
				return true
			}
		}
	}
	return false
}

// validateLocked checks that everything the transaction read is as it was:
// the versions of its copies, and the committed matches of its scans. The
// caller holds st.mu.
func (tx *Transaction) validateLocked() bool {
	if tx.conflictedLocked() {
		return false
	}
	for _, s := range tx.scans {
		now := s.eval(tx.db.st)
		if len(now) != len(s.seen) {
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
	st := tx.db.st
	st.mu.Lock()
	defer st.mu.Unlock()
	if !tx.validateLocked() {
		return gdi.Errorf(gdi.ErrTransactionCommitFail, "a concurrent transaction changed data this one read")
	}
	if err := tx.checkIDsLocked(); err != nil {
		return gdi.Errorf(gdi.ErrTransactionCommitFail, "%v", err)
	}
	st.commits++
	for k := range tx.objs {
		for n, o := range tx.objs[k] {
			switch {
			case !o.dirty, o.deleted && o.created:
			case o.deleted:
				st.install(kind(k), n, nil)
			default:
				r := o.rec.clone()
				r.version = st.commits
				st.install(kind(k), n, r)
			}
		}
	}
	return nil
}

// checkIDsLocked checks that no two vertices share a label and an
// application-level ID after the commit. The checks of AddLabel and the
// validation of scans already ensure it; this is the last line of defence.
// The caller holds st.mu.
func (tx *Transaction) checkIDsLocked() error {
	for _, k := range []kind{vertexKind} {
		for n, o := range tx.objs[k] {
			if !o.dirty || o.deleted {
				continue
			}
			for _, key := range o.rec.idKeys() {
				if key.label == uint32(gdi.LabelNone) {
					continue
				}
				if others := tx.idMatchesLocked(k, key); len(others) > 1 {
					return gdi.Errorf(gdi.ErrNonUniqueID, "%v %d: label %d and ID %q not unique", k, n, key.label, key.id)
				}
			}
		}
	}
	return nil
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
		return gdi.Errorf(gdi.ErrIntern, "refdb: closing a collective transaction: %w", err)
	}
	if commit && flag[0] != 0 {
		return gdi.Errorf(gdi.ErrTransactionCommitFail, "a rank aborted or met a transaction-critical error")
	}
	return nil
}

// end closes the transaction: holders and UIDs become invalid. The caller
// holds tx.mu.
func (tx *Transaction) end() {
	if !tx.open {
		return
	}
	tx.open = false
	tx.objs = [2]map[uint64]*txObj{}
	tx.scans = nil
	tx.db.mu.Lock()
	tx.db.transactions = removeItem(tx.db.transactions, tx)
	tx.db.mu.Unlock()
}

// Vertex and edge UIDs carry the store number above bit 40 and the object
// number below, so that UIDs of another database are recognised.
const uidBits = 40

func (tx *Transaction) vertexUID(n uint64) gdi.VertexUID {
	return gdi.VertexUID(uint64(tx.db.st.num)<<uidBits | n)
}

func (tx *Transaction) edgeUID(n uint64) gdi.EdgeUID {
	return gdi.EdgeUID{uint64(tx.db.st.num)<<uidBits | n, 0}
}

// decodeUID returns the object number of a UID of this database.
func (tx *Transaction) decodeUID(u uint64, k kind) (uint64, error) {
	n := u & (1<<uidBits - 1)
	switch {
	case u == 0 || n == 0:
		return 0, gdi.Errorf(gdi.ErrUID, "zero %v UID", k)
	case uint32(u>>uidBits) != tx.db.st.num:
		return 0, gdi.Errorf(gdi.ErrObjectMismatch, "%v UID %#x of another database", k, u)
	}
	return n, nil
}

// associate returns the copy of object n, or ErrUID if there is none (or
// a transaction-critical error if the object vanished under it).
func (tx *Transaction) associate(k kind, n uint64) (*txObj, error) {
	o := tx.get(k, n)
	if o != nil && !o.deleted {
		return o, nil
	}
	if o == nil && tx.typ == gdi.SingleProcessTransaction {
		st := tx.db.st
		st.mu.Lock()
		conflict := tx.conflictedLocked()
		st.mu.Unlock()
		if conflict {
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
	n := tx.db.st.newNumber(vertexKind)
	r := &record{home: tx.db.rank, edges: map[uint64]struct{}{}}
	if len(id) > 0 {
		r.props = []property{{uint32(gdi.PropertyTypeID), gdi.Bytes(id)}}
	}
	o := &txObj{rec: r, created: true, dirty: true}
	tx.objs[vertexKind][n] = o
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
	n := tx.db.st.newNumber(edgeKind)
	r := &record{home: tx.db.rank, dir: d, origin: on, target: tn}
	o := &txObj{rec: r, created: true, dirty: true}
	tx.objs[edgeKind][n] = o
	if err := tx.attach(n, nil, r.ends()); err != nil {
		return nil, err
	}
	return tx.edgeHolder(n, o), nil
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
// to those in newEnds.
func (tx *Transaction) attach(e uint64, oldEnds, newEnds []uint64) error {
	for _, v := range oldEnds {
		if slices.Contains(newEnds, v) {
			continue
		}
		o, err := tx.related(vertexKind, v)
		if err != nil {
			return err
		}
		delete(o.rec.edges, e)
		o.dirty = true
	}
	for _, v := range newEnds {
		if slices.Contains(oldEnds, v) {
			continue
		}
		o, err := tx.related(vertexKind, v)
		if err != nil {
			return err
		}
		o.rec.edges[e] = struct{}{}
		o.dirty = true
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
	if uid[1] != 0 {
		return nil, gdi.Errorf(gdi.ErrUID, "edge UID %v", uid)
	}
	n, err := tx.decodeUID(uid[0], edgeKind)
	if err != nil {
		return nil, err
	}
	o, err := tx.associate(edgeKind, n)
	if err != nil {
		return nil, err
	}
	return tx.edgeHolder(n, o), nil
}
