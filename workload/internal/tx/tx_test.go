package tx

import (
	"errors"
	"testing"

	"github.com/gdi-go/gdi/conformance/refdb"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

func TestRun(t *testing.T) {
	err := local.Run(1, func(c rma.Comm) error {
		db, err := refdb.Driver{}.CreateDatabase(c, nil)
		if err != nil {
			return err
		}
		defer db.Free()

		// A transaction-critical error is retried until fn succeeds; the
		// last attempt's vertex is committed, the earlier ones are not.
		calls := 0
		err = Run(db, func(tx gdi.Transaction) error {
			calls++
			if _, err := tx.CreateVertex([]byte("v")); err != nil {
				return err
			}
			if calls < 3 {
				return gdi.ErrTransactionCritical
			}
			return nil
		})
		if err != nil || calls != 3 {
			return errors.Join(err, errors.New("a critical error was not retried until success"))
		}
		// Another error is returned at once, and the transaction aborted.
		calls = 0
		err = Run(db, func(tx gdi.Transaction) error { calls++; return gdi.ErrArgument })
		if !errors.Is(err, gdi.ErrArgument) || calls != 1 {
			return errors.New("a plain error was retried or lost")
		}
		// A critical error on every attempt gives up after Attempts.
		calls = 0
		err = Run(db, func(tx gdi.Transaction) error { calls++; return gdi.ErrTransactionCritical })
		if !errors.Is(err, gdi.ErrTransactionCritical) || calls != Attempts {
			return errors.New("Run did not give up after Attempts tries")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
