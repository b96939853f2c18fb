package refdb

import (
	"slices"
	"sync"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
)

// Database is one rank's part of a refdb database: the rank's replica of
// the metadata (catalog and indexes), the rank's constraints,
// subconstraints and open transactions, and the store, which all ranks of
// the database share. mu guards everything but the store and the
// transactions' own state.
type Database struct {
	comm  rma.Comm
	tag   gdi.DatabaseTag
	store *store

	mu             sync.Mutex
	freed          bool
	cat            catalog
	indexes        []*index
	lastIndex      int
	constraints    []*constraint
	subconstraints []*subconstraint
	txs            []*Transaction
}

func newDatabase(comm rma.Comm, s *store) *Database {
	return &Database{comm: comm, tag: gdi.NewDatabaseTag(), store: s, cat: newCatalog()}
}

// errFreed is what every call on a freed database returns.
func errFreed(call string) error {
	return gdi.Errorf(gdi.ErrDatabase, "%s: the database was freed", call)
}

// alive reports ErrDatabase if the database was freed. The caller holds
// mu.
func (db *Database) alive(call string) error {
	if db.freed {
		return errFreed(call)
	}
	return nil
}

// Free frees the database (collective). Open transactions of the rank are
// aborted, and every object of the database becomes invalid.
func (db *Database) Free() error {
	db.mu.Lock()
	if err := db.alive("Free"); err != nil {
		db.mu.Unlock()
		return err
	}
	db.freed = true
	txs := db.txs
	db.mu.Unlock()
	for _, tx := range txs {
		tx.abandon()
	}
	err := agree(db.comm, "Free", nil)
	if db.comm.Rank() == 0 {
		unregister(db.store.number)
	}
	return err
}

// quiet returns ErrConsistency if the rank has an open transaction: the
// calls that rewrite data or start a collective transaction need a quiet
// database. The caller holds mu.
func (db *Database) quiet(call string) error {
	if len(db.txs) > 0 {
		return gdi.Errorf(gdi.ErrConsistency, "%s needs a quiet database, and this rank has %d open transaction(s)", call, len(db.txs))
	}
	return nil
}

// collective runs a collective call that changes only the rank's metadata:
// check (with mu held) gives the rank's verdict, agree makes it common,
// and apply (with mu held again) makes the change where all agreed.
func (db *Database) collective(call string, check func() error, apply func()) error {
	db.mu.Lock()
	if err := db.alive(call); err != nil {
		db.mu.Unlock()
		return err
	}
	verdict := check()
	db.mu.Unlock()
	if err := agree(db.comm, call, verdict); err != nil {
		return err
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	apply()
	return nil
}

// Transactions returns the open transactions of the rank.
func (db *Database) Transactions() ([]gdi.Transaction, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if err := db.alive("Transactions"); err != nil {
		return nil, err
	}
	out := make([]gdi.Transaction, len(db.txs))
	for i, tx := range db.txs {
		out[i] = tx
	}
	return out, nil
}

// forget removes a transaction that ended from the rank's list.
func (db *Database) forget(tx *Transaction) {
	db.mu.Lock()
	defer db.mu.Unlock()
	db.txs = slices.DeleteFunc(db.txs, func(x *Transaction) bool { return x == tx })
}
