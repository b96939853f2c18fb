package refdb

import (
	"fmt"
	"slices"
	"sync"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
)

// Transaction is a transaction of one rank. A single-process transaction
// is optimistic: it reads committed records into its cache, works on
// private copies, and at commit checks under the store's lock that all it
// read is still as it was (see view.go and query.go) before it installs
// its copies. A collective read transaction reads the same way but writes
// nothing and checks nothing: the database is quiet while it is open.
//
// mu guards the transaction's state; its methods and those of its holders
// lock it.
type Transaction struct {
	db    *Database
	ttype gdi.TransactionType

	mu      sync.Mutex
	ended   bool
	failure error // the first transaction-critical error met
	cache   [2]map[uint64]*cached
	queries []query
	handed  [2]map[uint64]bool // UIDs this transaction gave out
}

// StartTransaction starts a single-process transaction.
func (db *Database) StartTransaction() (gdi.Transaction, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if err := db.alive("StartTransaction"); err != nil {
		return nil, err
	}
	for _, tx := range db.txs {
		if tx.ttype == gdi.CollectiveReadTransaction {
			return nil, gdi.Errorf(gdi.ErrConsistency, "StartTransaction: a collective read transaction is open")
		}
	}
	return db.newTransaction(gdi.SingleProcessTransaction), nil
}

// StartCollectiveTransaction starts a collective read transaction
// (collective, barrier, quiet database).
func (db *Database) StartCollectiveTransaction() (gdi.Transaction, error) {
	var tx *Transaction
	err := db.collective("StartCollectiveTransaction", func() error {
		return db.quiet("StartCollectiveTransaction")
	}, func() { tx = db.newTransaction(gdi.CollectiveReadTransaction) })
	if err != nil {
		return nil, err
	}
	return tx, nil
}

// newTransaction registers a new transaction. The caller holds mu.
func (db *Database) newTransaction(t gdi.TransactionType) *Transaction {
	tx := &Transaction{db: db, ttype: t}
	for k := range tx.cache {
		tx.cache[k] = map[uint64]*cached{}
		tx.handed[k] = map[uint64]bool{}
	}
	db.txs = append(db.txs, tx)
	return tx
}

// open reports ErrTransaction if the transaction ended. The caller holds
// mu.
func (tx *Transaction) open(call string) error {
	if tx.ended {
		return gdi.Errorf(gdi.ErrTransaction, "%s: the transaction has ended", call)
	}
	return nil
}

// fail records a transaction-critical error and returns it.
func (tx *Transaction) fail(format string, args ...any) error {
	err := gdi.Errorf(gdi.ErrTransactionCritical, format, args...)
	if tx.failure == nil {
		tx.failure = err
	}
	return err
}

// Type returns the transaction type.
func (tx *Transaction) Type() (gdi.TransactionType, error) {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	return tx.ttype, tx.open("Type")
}

// Commit ends the transaction and installs its changes, or rolls back and
// returns ErrTransactionCommitFail.
func (tx *Transaction) Commit() error { return tx.close(true) }

// Abort ends the transaction and rolls back.
func (tx *Transaction) Abort() error { return tx.close(false) }

func (tx *Transaction) close(commit bool) error {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	call := "Abort"
	if commit {
		call = "Commit"
	}
	if err := tx.open(call); err != nil {
		return err
	}
	defer tx.end()
	if tx.ttype == gdi.CollectiveReadTransaction {
		return tx.closeCollective(commit)
	}
	if !commit {
		return nil
	}
	if tx.failure != nil {
		return gdi.Errorf(gdi.ErrTransactionCommitFail, "rolled back after a transaction-critical error: %w", tx.failure)
	}
	s := tx.db.store
	s.mu.Lock()
	defer s.mu.Unlock()
	if why := tx.conflict(); why != "" {
		return gdi.Errorf(gdi.ErrTransactionCommitFail, "rolled back: %s", why)
	}
	tx.install()
	return nil
}

// closeCollective ends a collective read transaction on every rank alike:
// it commits only if every rank asked to commit and none met a
// transaction-critical error.
func (tx *Transaction) closeCollective(commit bool) error {
	aborts := []int64{0}
	if !commit || tx.failure != nil {
		aborts[0] = 1
	}
	if err := tx.db.comm.AllreduceInt64(aborts, rma.OpSum); err != nil {
		return gdi.Errorf(gdi.ErrIntern, "closing the collective transaction: %w", err)
	}
	if commit && aborts[0] > 0 {
		return gdi.Errorf(gdi.ErrTransactionCommitFail, "%d rank(s) aborted the collective transaction or met a transaction-critical error", aborts[0])
	}
	return nil
}

// end marks the transaction ended and drops it from its database's list.
// The caller holds mu.
func (tx *Transaction) end() {
	tx.ended = true
	tx.cache = [2]map[uint64]*cached{}
	tx.queries = nil
	tx.db.forget(tx)
}

// abandon ends the transaction without commit, when its database is freed.
func (tx *Transaction) abandon() {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if !tx.ended {
		tx.end()
	}
}

// writable reports ErrReadOnlyTransaction in a collective read
// transaction.
func (tx *Transaction) writable(call string) error {
	if tx.ttype == gdi.CollectiveReadTransaction {
		return gdi.Errorf(gdi.ErrReadOnlyTransaction, "%s in a collective read transaction", call)
	}
	return nil
}

// conflict returns why the transaction cannot commit, or "": every record
// it read must still be the committed one, and every query must still
// find the same committed objects. The caller holds the store's lock.
func (tx *Transaction) conflict() string {
	s := tx.db.store
	for k, objs := range tx.cache {
		for n, c := range objs {
			if c.seen != nil && s.get(kind(k), n) != c.seen {
				return fmt.Sprintf("%v %d changed since it was read", kind(k), n)
			}
		}
	}
	for _, q := range tx.queries {
		if !slices.Equal(q.eval(s), q.seen) {
			return "a query would find other objects now"
		}
	}
	return ""
}

// install makes the transaction's changes the committed state. The caller
// holds the store's lock.
func (tx *Transaction) install() {
	for k, objs := range tx.cache {
		for n, c := range objs {
			if c.mine {
				tx.db.store.install(kind(k), n, c.cur)
			}
		}
	}
}
