package main

import (
	"bytes"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"sync/atomic"

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

// machineMemory is the RAM of this machine's share for this process, in
// bytes (of all the processes mpirun started here), or 0 if unknown.
func machineMemory() uint64 {
	var si unix.Sysinfo_t
	if err := unix.Sysinfo(&si); err != nil {
		return 0
	}
	return uint64(si.Totalram) * uint64(si.Unit) / uint64(localProcesses())
}

// peakRSS is the largest resident size of this process so far, in bytes,
// or 0 if it cannot be read.
func peakRSS() int64 {
	var ru unix.Rusage
	if unix.Getrusage(unix.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return max(ru.Maxrss<<10, peakBeforeReset.Load()) // KiB on Linux
}

// peakBeforeReset is the peak resident size startQueryMemory reset:
// getrusage reports the peak since then.
var peakBeforeReset atomic.Int64

// startQueryMemory collects the garbage and gives its memory back, resets
// the process's peak resident size (/proc/self/clear_refs), and returns
// what is resident now, in bytes (0 if it cannot): queryPeak afterwards
// less this is what a query added at its most.
func startQueryMemory() int64 {
	runtime.GC()
	debug.FreeOSMemory()
	peakBeforeReset.Store(peakRSS())
	if os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) != nil {
		return 0
	}
	return procStatus("VmRSS:")
}

// queryPeak is the peak resident size since startQueryMemory, in bytes.
func queryPeak() int64 { return procStatus("VmHWM:") }

// procStatus reads a size in kB from /proc/self/status, in bytes; 0 if it
// cannot.
func procStatus(field string) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	_, rest, ok := bytes.Cut(b, []byte(field))
	if !ok {
		return 0
	}
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	kb, err := strconv.ParseInt(string(bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimSpace(line), []byte("kB")))), 10, 64)
	if err != nil {
		return 0
	}
	return kb << 10
}
