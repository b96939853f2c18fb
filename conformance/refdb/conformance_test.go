package refdb_test

import (
	"testing"

	"github.com/gdi-go/gdi/conformance"
	"github.com/gdi-go/gdi/conformance/refdb"
	"github.com/gdi-go/gdi/rma/local"
)

// TestConformance runs the GDI conformance suite against refdb.
func TestConformance(t *testing.T) {
	conformance.Run(t, conformance.Backend{Name: "refdb", Driver: refdb.Driver{}, Launch: local.Run, Ranks: []int{1, 2, 4},
		InjectCritical: refdb.InjectCritical})
}
