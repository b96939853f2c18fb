package refdb

import "github.com/gdi-go/gdi/gdi"

// InjectCritical makes tx meet a transaction-critical error, for the
// conformance case of one in a collective transaction.
func InjectCritical(tx gdi.Transaction) error {
	t := tx.(*Transaction)
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.fail("injected by the test")
}
