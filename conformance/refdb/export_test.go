package refdb

import "github.com/gdi-go/gdi/gdi"

// InjectCritical makes tx meet a transaction-critical error, for the
// conformance case of one in a collective read transaction.
func InjectCritical(tx gdi.Transaction) error {
	t, ok := tx.(*Transaction)
	if !ok {
		return gdi.Errorf(gdi.ErrTransaction, "%T is no refdb transaction", tx)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.fail("injected by the test")
}
