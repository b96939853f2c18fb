package main

import (
	"os"
	"runtime/debug"

	"golang.org/x/sys/unix"
)

// limitMemory gives the Go runtime a soft memory limit of 3/4 of the
// machine's RAM (of its share of it, under mpirun), unless GOMEMLIMIT sets
// one: graph loads and collective
// transactions over large graphs make much short-lived garbage, and with
// the default pacing the heap can grow to twice what is live and past the
// machine's memory. Near the limit the collector runs more often instead.
func limitMemory() {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	var si unix.Sysinfo_t
	if err := unix.Sysinfo(&si); err != nil || si.Totalram == 0 {
		return
	}
	// Processes mpirun started on this machine share it.
	total := uint64(si.Totalram) * uint64(si.Unit) / uint64(localProcesses())
	debug.SetMemoryLimit(int64(total / 4 * 3))
}

// peakRSS is the largest resident size of this process so far, in bytes,
// or 0 if it cannot be read.
func peakRSS() int64 {
	var ru unix.Rusage
	if unix.Getrusage(unix.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Maxrss << 10 // KiB on Linux
}
