package gdiutil

import (
	"context"
	"time"

	"github.com/gdi-go/gdi/gdi"
)

// Attempts bounds how often RunTransaction tries a transaction.
const Attempts = 20

// RunTransaction runs fn in a single-process transaction of db and commits
// it. If fn meets a transaction-critical error, or the commit fails
// (ErrTransactionCommitFail: an optimistic backend reports a conflict
// so), the transaction is aborted and tried again after a growing pause,
// up to Attempts times; any other error of fn aborts it and is returned
// at once. The context is checked before every attempt and during the
// pauses: once it is done, RunTransaction returns its error.
//
// fn may run several times, so it must not have effects outside the
// transaction that a retry would repeat.
func RunTransaction(ctx context.Context, db gdi.Database, fn func(tx gdi.Transaction) error) error {
	var err error
	for try := range Attempts {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		var tx gdi.Transaction
		if tx, err = db.StartTransaction(); err != nil {
			return err
		}
		if err = fn(tx); err != nil {
			_ = tx.Abort()
			if !gdi.IsTransactionCritical(err) {
				return err
			}
		} else if err = tx.Commit(); err == nil || !retryable(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(try+1) * time.Millisecond):
		}
	}
	return err
}

// retryable reports whether a transaction that failed with err may commit
// if tried again.
func retryable(err error) bool {
	return gdi.IsTransactionCritical(err) || gdi.ErrorClass(err) == gdi.ErrTransactionCommitFail
}
