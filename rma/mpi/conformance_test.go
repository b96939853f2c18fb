//go:build mpi

package mpi_test

import (
	"testing"

	"github.com/gdi-go/gdi/rma/mpi"
	"github.com/gdi-go/gdi/rma/rmatest"
)

// TestConformance runs the rma conformance suite on the MPI processes. Rank
// counts above the number of processes (mpirun -n) are skipped.
func TestConformance(t *testing.T) {
	rmatest.Run(t, mpi.Run, 1, 2, 3, 4)
}
