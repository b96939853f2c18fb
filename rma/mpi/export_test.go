//go:build mpi

package mpi

// CgoNop is exported to the tests: BenchmarkCgoCall times it.
var CgoNop = cgoNop
