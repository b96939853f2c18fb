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

// SetStats turns the call statistics on or off (stats.go), and returns
// what they were.
func SetStats(on bool) bool { was := statsOn; statsOn = on; return was }

// CallCount returns the number of one-sided MPI calls of kind name
// counted so far.
func CallCount(name string) int64 {
	for k, n := range callNames {
		if n == name {
			return stats[k].n.Load()
		}
	}
	return -1
}

// CPUAtomics reports whether w's atomics on the parts this process maps
// are done directly, with the CPU's instructions (node.go's directWord).
func CPUAtomics(w rma.Window) bool { return w.(*window).cpuAtomics }

// MaxStaged is the largest Get or Put staged (stage.go).
const MaxStaged = maxStaged

// StageChunks returns the chunks of C memory the stages of w hold, and
// those its pool keeps free (stage.go).
func StageChunks(w rma.Window) (held, free int) {
	win := w.(*window)
	for i := range win.stages {
		s := &win.stages[i]
		s.mu.Lock()
		held += len(s.chunks)
		s.mu.Unlock()
	}
	win.chunks.mu.Lock()
	defer win.chunks.mu.Unlock()
	return held, len(win.chunks.free)
}

// MaxFreeChunks bounds the chunks a window keeps free.
const MaxFreeChunks = maxFreeChunks
