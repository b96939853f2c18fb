package gdirma_test

import (
	"fmt"
	"testing"

	"github.com/gdi-go/gdi/conformance"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma/launch"
)

// notYet lists the conformance cases gdirma does not pass yet, with why.
var notYet = map[string]string{}

// TestConformance runs the GDI conformance suite against gdirma on
// rma/local for each block size.
func TestConformance(t *testing.T) {
	for _, bs := range []int{64, 256, 4096} {
		t.Run(fmt.Sprintf("bs=%d", bs), func(t *testing.T) {
			conformance.Run(t, conformance.Backend{
				Name:   "gdirma",
				Driver: gdirma.Driver{},
				Launch: launch.Run,
				Params: func() any { return gdirma.Params{BlockSize: bs, MemoryPerRank: 1 << 20} },
				Ranks:  []int{1, 2, 4},
				Skip:   notYet,
			})
		})
	}
}
