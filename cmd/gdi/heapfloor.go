package main

import "os"

// heapFloor is how much the ballast adds to what the collector counts as
// live.
const heapFloor = 16 << 20

// ballast is heapFloor bytes that are allocated and never used.
var ballast []byte

// floorHeap keeps the collector from running over and over while little
// is live, unless GOGC is set. The pacer starts a collection when the
// heap has grown by GOGC percent of what was live after the last one.
// Under mpirun the graph lives in shared windows, outside the Go heap, and
// a process's live heap during an OLTP run is about 2 MB: with the default
// GOGC it collected every 25 ms, about 460 times in a run of 3M operations
// per rank, so its write barriers and mark work were on most of the time,
// and with one P per process (shareCPUs) the mark work took turns with the
// rank itself. With the ballast the same run collects about 55 times per
// process.
//
// The ballast itself costs no memory: allocated at start-up, its pages
// come zeroed from the OS and are never touched, and, holding no pointers,
// it is not scanned. The garbage it lets pile up between collections
// does: the peak RSS of a process rose by about 14 MB.
func floorHeap() {
	if os.Getenv("GOGC") != "" {
		return
	}
	ballast = make([]byte, heapFloor)
}
