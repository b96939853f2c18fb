//go:build mpi

package mpi

import (
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"
)

// Call statistics. With GDI_MPI_STATS=1 in a process's environment, the
// package counts the one-sided MPI calls it makes, by kind, and the time
// spent inside them, and Finalize prints them to stderr, one line per
// kind. Accesses served directly (node.go) are not MPI calls and
// are not counted. Off, the cost is a test of a bool at each end of a
// call.

// callKind is a kind of one-sided MPI call.
type callKind int

const (
	callGet callKind = iota
	callPut
	callFlush
	callCAS
	callFetchAdd
	callAtomicGet
	callAtomicPut
	callAtomics // a batch (gdi_atomics)
	nCallKinds
)

var callNames = [nCallKinds]string{"get", "put", "flush", "compare_and_swap", "fetch_and_add", "atomic_get", "atomic_put", "atomics_batch"}

// callStat is the count of one kind of call and the time inside them.
type callStat struct {
	n  atomic.Int64
	ns atomic.Int64
	_  [48]byte // a cache line each: ranks' goroutines count at once
}

var (
	statsOn = os.Getenv("GDI_MPI_STATS") == "1"
	stats   [nCallKinds]callStat
	// statsFrom is when counting began, for the share of time inside MPI.
	statsFrom = time.Now()
)

// callStart returns the time a call of a counted kind starts, if
// statistics are on; callDone counts the call.
func callStart() time.Time {
	if !statsOn {
		return time.Time{}
	}
	return time.Now()
}

func callDone(k callKind, start time.Time) {
	if statsOn {
		stats[k].ns.Add(int64(time.Since(start)))
		stats[k].n.Add(1)
	}
}

// printStats writes the statistics to w, if they are on.
func printStats(w io.Writer) {
	if !statsOn {
		return
	}
	wall := time.Since(statsFrom)
	var total time.Duration
	for k := range nCallKinds {
		n, ns := stats[k].n.Load(), time.Duration(stats[k].ns.Load())
		if n == 0 {
			continue
		}
		total += ns
		fmt.Fprintf(w, "rma/mpi stats: world rank %d: %-16s %10d calls %12v %8.0f ns/call\n",
			worldRank, callNames[k], n, ns.Round(time.Microsecond), float64(ns)/float64(n))
	}
	fmt.Fprintf(w, "rma/mpi stats: world rank %d: inside one-sided calls %v of %v since start (%.0f%%)\n",
		worldRank, total.Round(time.Millisecond), wall.Round(time.Millisecond), 100*float64(total)/float64(wall))
}
