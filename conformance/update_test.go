package conformance

import (
	"testing"

	"github.com/gdi-go/gdi/gdi"
)

// TestUpdateRetriesCritical checks the rule of Env.update: a case step
// stopped by a transaction-critical error is tried again, any other
// failure stops the case.
func TestUpdateRetriesCritical(t *testing.T) {
	critical := gdi.Errorf(gdi.ErrTransactionCritical, "a concurrent commit")
	other := gdi.Errorf(gdi.ErrVertex, "a wrong answer")
	stop := func(err error) func(gdi.Transaction) {
		return func(gdi.Transaction) { okf(err, "step") }
	}
	recovered := func(fn func()) (p any) {
		defer func() { p = recover() }()
		fn()
		return nil
	}
	if !runOnce(nil, func(gdi.Transaction) {}, true) {
		t.Error("a step that succeeds is reported as stopped")
	}
	if runOnce(nil, stop(critical), true) {
		t.Error("a step stopped by a transaction-critical error is not retried")
	}
	if p := recovered(func() { runOnce(nil, stop(critical), false) }); p == nil {
		t.Error("a transaction-critical error on the last attempt does not fail the case")
	}
	if p := recovered(func() { runOnce(nil, stop(other), true) }); p == nil {
		t.Error("another error does not fail the case")
	} else if f, ok := p.(failure); !ok || f.critical {
		t.Errorf("another error fails the case with %#v, want a non-critical failure", p)
	}
}
