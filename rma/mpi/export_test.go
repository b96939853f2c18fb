//go:build mpi

package mpi

import "github.com/gdi-go/gdi/rma"

// CgoNop is exported to the tests: BenchmarkCgoCall times it.
var CgoNop = cgoNop

// NodeRanks returns the ranks of c on this rank's node (node.go), in
// order: the ranks whose windows it reaches directly.
func NodeRanks(c rma.Comm) []int {
	var rs []int
	for r, i := range c.(*comm).nodeRank {
		if i >= 0 {
			rs = append(rs, r)
		}
	}
	return rs
}
