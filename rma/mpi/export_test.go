//go:build mpi

package mpi

import "github.com/gdi-go/gdi/rma"

// CgoNop is exported to the tests: BenchmarkCgoCall times it.
var CgoNop = cgoNop

// SharedWindows reports whether c's windows are shared memory (shared.go).
func SharedWindows(c rma.Comm) bool { return c.(*comm).shared }
