package gdirma

import (
	"encoding/binary"
	"slices"
	"sync"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
)

// Database is one rank's part of a gdirma database. It holds the rank's
// replica of the metadata and the rank's local objects (constraints,
// transactions, index handles); the graph data lives in the shared store.
type Database struct {
	st   *store
	comm rma.Comm
	rank int
	tag  gdi.DatabaseTag

	mu     sync.RWMutex // guards everything below
	freed  bool
	labels map[uint32]*labelMeta
	ptypes map[uint32]*ptypeMeta
	// last object numbers handed out; numbers are never reused.
	lastLabel, lastPtype, lastIndex uint32
	labelOrder, ptypeOrder          []uint32
	indexes                         []*Index
	constraints                     []*Constraint
	subconstraints                  []*Subconstraint
	transactions                    []*Transaction
}

type labelMeta struct {
	name  string
	freed bool
}

type ptypeMeta struct {
	info  gdi.PropertyTypeInfo
	freed bool
	// generation counts the updates; conditions remember the generation
	// they were made in and are stale once it changes.
	generation int
}

var (
	_ gdi.Database         = (*Database)(nil)
	_ gdi.MetadataRewriter = (*Database)(nil)
	_ gdi.CSVLoader        = (*Database)(nil)
)

func newDatabase(st *store, comm rma.Comm) *Database {
	return &Database{
		st:        st,
		comm:      comm,
		rank:      comm.Rank(),
		tag:       gdi.NewDatabaseTag(),
		labels:    map[uint32]*labelMeta{},
		ptypes:    map[uint32]*ptypeMeta{},
		lastLabel: gdi.FirstUserID - 1,
		lastPtype: gdi.FirstUserID - 1,
		lastIndex: gdi.FirstUserID - 1,
	}
}

// agree is the common step of every collective call. Each rank brings a
// description of the call and its arguments (call) and the outcome of its
// local checks (local). If the calls differ, every rank returns
// ErrNotSame; if any rank failed, every rank fails: with its own error, or
// with the class of the first rank that failed. It synchronises the ranks
// (no rank leaves before all have entered).
func (db *Database) agree(call string, local error) error {
	msg := binary.LittleEndian.AppendUint64(nil, uint64(gdi.ErrorClass(local)))
	msg = append(msg, call...)
	all, err := db.comm.Allgatherv(msg)
	if err != nil {
		return gdi.Errorf(gdi.ErrIntern, "gdirma: collective %s: %w", call, err)
	}
	for r, m := range all {
		if len(m) < 8 || string(m[8:]) != call {
			return gdi.Errorf(gdi.ErrNotSame, "%s: rank %d called %q", call, r, m[min(8, len(m)):])
		}
	}
	if local != nil {
		return local
	}
	for r, m := range all {
		if c := gdi.Code(binary.LittleEndian.Uint64(m)); c != gdi.Success {
			return gdi.Errorf(c, "%s failed on rank %d", call, r)
		}
	}
	return nil
}

// barrier waits for all ranks.
func (db *Database) barrier() error {
	if err := db.comm.Barrier(); err != nil {
		return gdi.Errorf(gdi.ErrIntern, "gdirma: barrier: %w", err)
	}
	return nil
}

// bcastCode makes every rank return the class rank 0 computed.
func (db *Database) bcastCode(err error) error {
	buf := binary.LittleEndian.AppendUint64(nil, uint64(gdi.ErrorClass(err)))
	if e := db.comm.Bcast(buf, 0); e != nil {
		return gdi.Errorf(gdi.ErrIntern, "gdirma: broadcast: %w", e)
	}
	if db.rank == 0 || err != nil {
		return err
	}
	if c := gdi.Code(binary.LittleEndian.Uint64(buf)); c != gdi.Success {
		return gdi.Errorf(c, "on rank 0")
	}
	return nil
}

func (db *Database) isFreed() bool {
	db.mu.RLock()
	defer db.mu.RUnlock()
	return db.freed
}

func errFreedDB() error { return gdi.Errorf(gdi.ErrDatabase, "database freed") }

// Free frees the database (collective). Open transactions of the rank are
// aborted and every object of the database becomes invalid.
func (db *Database) Free() error {
	if db.isFreed() {
		return errFreedDB()
	}
	if err := db.agree("Free", nil); err != nil {
		return err
	}
	db.mu.Lock()
	txs := slices.Clone(db.transactions)
	db.mu.Unlock()
	for _, tx := range txs {
		tx.mu.Lock()
		tx.end()
		tx.mu.Unlock()
	}
	db.mu.Lock()
	db.freed = true
	db.transactions = nil
	db.indexes = nil
	db.constraints = nil
	db.subconstraints = nil
	db.mu.Unlock()
	if err := db.st.free(); err != nil {
		return gdi.Errorf(gdi.ErrIntern, "gdirma: freeing the windows: %v", err)
	}
	return nil
}

// openTransactions reports the number of open transactions of the rank.
func (db *Database) openTransactions() int {
	db.mu.RLock()
	defer db.mu.RUnlock()
	return len(db.transactions)
}

// quietCheck returns ErrConsistency if the rank has open transactions:
// calls that need a quiet database start with it.
func (db *Database) quietCheck(call string) error {
	if n := db.openTransactions(); n > 0 {
		return gdi.Errorf(gdi.ErrConsistency, "%s needs a quiet database, but rank %d has %d open transactions", call, db.rank, n)
	}
	return nil
}

// Transactions returns the open transactions of the rank.
func (db *Database) Transactions() ([]gdi.Transaction, error) {
	db.mu.RLock()
	defer db.mu.RUnlock()
	if db.freed {
		return nil, errFreedDB()
	}
	out := make([]gdi.Transaction, len(db.transactions))
	for i, tx := range db.transactions {
		out[i] = tx
	}
	return out, nil
}

// Indexes returns the indexes that are not freed.
func (db *Database) Indexes() ([]gdi.Index, error) {
	db.mu.RLock()
	defer db.mu.RUnlock()
	if db.freed {
		return nil, errFreedDB()
	}
	out := make([]gdi.Index, len(db.indexes))
	for i, x := range db.indexes {
		out[i] = x
	}
	return out, nil
}

// Constraints returns the rank's constraints that are not freed.
func (db *Database) Constraints() ([]gdi.Constraint, error) {
	db.mu.RLock()
	defer db.mu.RUnlock()
	if db.freed {
		return nil, errFreedDB()
	}
	out := make([]gdi.Constraint, len(db.constraints))
	for i, x := range db.constraints {
		out[i] = x
	}
	return out, nil
}

// Subconstraints returns the rank's subconstraints that are not freed.
func (db *Database) Subconstraints() ([]gdi.Subconstraint, error) {
	db.mu.RLock()
	defer db.mu.RUnlock()
	if db.freed {
		return nil, errFreedDB()
	}
	out := make([]gdi.Subconstraint, len(db.subconstraints))
	for i, x := range db.subconstraints {
		out[i] = x
	}
	return out, nil
}

func removeItem[T comparable](s []T, x T) []T {
	return slices.DeleteFunc(s, func(y T) bool { return y == x })
}
