//go:build !mpi

package mpi

import (
	"fmt"

	"github.com/gdi-go/gdi/rma"
)

// BuiltIn reports whether this binary was built with the mpi tag.
const BuiltIn = false

// Run reports that MPI support was not compiled in.
func Run(n int, fn func(rma.Comm) error) error {
	return fmt.Errorf("%w: rebuild with -tags mpi to run under mpirun", rma.ErrNotBuiltIn)
}

// Start reports that MPI support was not compiled in.
func Start() error {
	return fmt.Errorf("%w: rebuild with -tags mpi to run under mpirun", rma.ErrNotBuiltIn)
}

// Finalize does nothing: MPI was never started.
func Finalize() error { return nil }
