//go:build mpi

package mpi_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/gdi-go/gdi/rma/mpi"
)

// TestMain finalizes MPI after the tests, as every MPI program must before
// it exits.
func TestMain(m *testing.M) {
	if mpi.InMPIRun() {
		if err := mpi.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1) // at once: every test would fail alike
		}
	}
	code := m.Run()
	if err := mpi.Finalize(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}
