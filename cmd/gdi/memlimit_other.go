//go:build !linux

package main

// limitMemory leaves the runtime's default memory limit on systems where
// the size of RAM is not read (see memlimit_linux.go).
func limitMemory() {}

// machineMemory is not read on these systems: 0, unknown.
func machineMemory() uint64 { return 0 }

// peakRSS is not read on these systems: 0.
func peakRSS() int64 { return 0 }

// startQueryMemory and queryPeak are not read on these systems: 0.
func startQueryMemory() int64 { return 0 }

func queryPeak() int64 { return 0 }
