package gdirma

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"

	"golang.org/x/sys/cpu"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/redolog"
	"github.com/gdi-go/gdi/internal/catalog"
	"github.com/gdi-go/gdi/rma"
)

// Database is one rank's part of a gdirma database. It embeds the rank's
// catalog (the metadata replica and the rank's constraints and index
// handles, shared with the other backend) and holds the rank's
// transactions; the graph data lives in the shared store.
type Database struct {
	*catalog.Catalog
	st   *graph
	comm rma.Comm
	rank int
	// params are the parameters the store was made with (with defaults,
	// and Restore as given), for checkpoints.
	params Params
	// log is the rank's redo log, nil if it is off (redolog.go).
	log *redolog.Log
	// auto takes checkpoints that bound the log, nil if none (autockpt.go).
	auto *autoCheckpointer

	// The fields below are written by every transaction start and end:
	// padding keeps them off the cache lines of the read-mostly fields
	// above and of whatever the allocator puts next to the Database (in
	// rma/local, another rank's Database, written by another core).
	_            cpu.CacheLinePad
	mu           sync.Mutex     // guards transactions and states; taken before the catalog's lock
	transactions []*Transaction // open, in no order (tx.slot is the index)
	collective   int            // open collective read transactions
	states       []*txState     // of ended transactions, for the next (txstate.go)
	_            cpu.CacheLinePad
}

var (
	_ gdi.Database         = (*Database)(nil)
	_ gdi.MetadataRewriter = (*Database)(nil)
	_ gdi.CSVLoader        = (*Database)(nil)
)

func newDatabase(st *graph, comm rma.Comm) *Database {
	return &Database{
		Catalog: newCatalog(comm),
		st:      st,
		comm:    comm,
		rank:    comm.Rank(),
	}
}

// newCatalog makes the metadata replica of a rank: the rewrites of
// metadata (rewriter.go) run on every rank, each on its own holders.
func newCatalog(comm rma.Comm) *catalog.Catalog {
	c := catalog.New(comm, "gdirma")
	c.RewriteOnEveryRank()
	return c
}

// Free frees the database (collective). Open transactions of the rank are
// aborted and every object of the database becomes invalid.
func (db *Database) Free() error {
	if db.IsFreed() {
		return errFreedDB()
	}
	if err := db.Agree("Free", nil); err != nil {
		return err
	}
	aerr := db.stopAuto()
	db.mu.Lock()
	txs := slices.Clone(db.transactions)
	db.mu.Unlock()
	for _, tx := range txs {
		tx.mu.Lock()
		tx.end()
		tx.mu.Unlock()
	}
	db.mu.Lock()
	db.MarkFreed()
	db.transactions, db.collective, db.states = nil, 0, nil
	db.mu.Unlock()
	var lerr error
	if db.log != nil {
		lerr = db.log.Close()
		db.st.redo, db.log = nil, nil
	}
	if err := errors.Join(db.st.free(), lerr, aerr); err != nil {
		return gdi.Errorf(gdi.ErrIntern, "gdirma: freeing the windows: %v", err)
	}
	return nil
}

// openTransactions reports the number of open transactions of the rank.
func (db *Database) openTransactions() int {
	db.mu.Lock()
	defer db.mu.Unlock()
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
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.IsFreed() {
		return nil, errFreedDB()
	}
	out := make([]gdi.Transaction, len(db.transactions))
	for i, tx := range db.transactions {
		out[i] = tx
	}
	return out, nil
}

// labelText names label number n in messages: its name, quoted, or its
// number if this rank does not know the label (freed, or created by a
// change that has not reached the rank yet).
func (db *Database) labelText(n uint32) string {
	if name, err := db.LabelName(db.LabelHandle(n)); err == nil {
		return strconv.Quote(name)
	}
	return fmt.Sprintf("number %d", n)
}

// errFreedDB is the error of calls on a freed database.
var errFreedDB = catalog.ErrFreedDB

func removeItem[T comparable](s []T, x T) []T {
	return slices.DeleteFunc(s, func(y T) bool { return y == x })
}
