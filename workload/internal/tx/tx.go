// Package tx runs the workloads' write transactions.
package tx

import (
	"time"

	"github.com/gdi-go/gdi/gdi"
)

// Attempts is how often Run tries a transaction before giving up.
const Attempts = 20

// Run runs fn in a single-process transaction and commits it. A transaction
// whose fn meets a transaction-critical error, or whose commit fails (an
// optimistic backend reports conflicts so), is tried again after a growing
// pause; other errors of fn abort it and are returned at once.
func Run(db gdi.Database, fn func(tx gdi.Transaction) error) error {
	var err error
	for try := range Attempts {
		var tx gdi.Transaction
		if tx, err = db.StartTransaction(); err != nil {
			return err
		}
		if err = fn(tx); err != nil {
			_ = tx.Abort()
			if !gdi.IsTransactionCritical(err) {
				return err
			}
		} else if err = tx.Commit(); err == nil {
			return nil
		}
		time.Sleep(time.Duration(try+1) * time.Millisecond)
	}
	return err
}
