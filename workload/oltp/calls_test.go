//go:build !race

// The invariants that -race switches on read more than the code alone
// does: the counts pinned here are those of a build without them.

package oltp

import (
	"fmt"
	"strings"
	"testing"
)

// pinnedCalls are the MPI calls per operation of each type
// (count.Counts.MPI: what rma/mpi makes across machines) that
// TestCallsPerOperation counts on gdirma: one rank, one goroutine, a fixed
// graph and seed, so that they are the same on every run. A change that
// adds a round trip to an operation changes them and fails the test; one
// that saves calls updates them, on purpose.
var pinnedCalls = map[string]float64{
	"LB add edge":              30.078,
	"LB add vertex":            23.988,
	"LB count edges":           6.985,
	"LB delete vertex":         231.692,
	"LB get edges":             8.392,
	"LB get vertex properties": 6.896,
	"LB update property":       17.617,
	"WI add edge":              20.240,
	"WI add vertex":            21.202,
	"WI delete vertex":         113.200,
	"WI get edges":             6.201,
	"WI get vertex properties": 5.534,
	"WI update property":       13.349,
}

// TestCallsPerOperation pins the MPI calls per operation type of an LB
// and a WI run on gdirma (Config.Calls over a count.Comm).
func TestCallsPerOperation(t *testing.T) {
	got := runOnGdirma(t)
	var diff []string
	for k, v := range got {
		if w, ok := pinnedCalls[k]; !ok || fmt.Sprintf("%.3f", w) != fmt.Sprintf("%.3f", v) {
			diff = append(diff, fmt.Sprintf("%q: %.3f, // pinned %.3f", k, v, w))
		}
	}
	if len(diff) > 0 || len(got) != len(pinnedCalls) {
		t.Errorf("one-sided calls per operation changed (%d counted, %d pinned); if on purpose, pin:\n%s", len(got), len(pinnedCalls), strings.Join(diff, "\n"))
	}
}
