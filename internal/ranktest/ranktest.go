// Package ranktest runs test bodies on several ranks through rma/launch, so
// one test runs on local goroutine ranks under go test and on MPI processes
// under mpirun.
package ranktest

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/launch"
)

// Ranks are the rank counts the stress tests run on.
var Ranks = []int{1, 2, 4}

// Run runs fn on n ranks and fails t with the ranks' errors. A rank count
// the backend cannot start (an MPI job with fewer processes) is skipped.
func Run(t testing.TB, n int, fn func(c rma.Comm) error) {
	t.Helper()
	err := launch.Run(n, fn)
	if errors.Is(err, rma.ErrRanks) {
		t.Skipf("%d ranks: %v", n, err)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// ForRanks runs fn on each count of Ranks as a subtest named ranks=N.
func ForRanks(t *testing.T, fn func(c rma.Comm) error) {
	t.Helper()
	for _, n := range Ranks {
		t.Run(fmt.Sprintf("ranks=%d", n), func(t *testing.T) { Run(t, n, fn) })
	}
}

// Iterations returns short under -short and long otherwise.
func Iterations(short, long int) int {
	if testing.Short() {
		return short
	}
	return long
}
