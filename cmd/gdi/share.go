package main

import (
	"os"
	"runtime"
	"strconv"
)

// localProcesses is the number of processes mpirun started on this
// machine (Open MPI's OMPI_COMM_WORLD_LOCAL_SIZE), 1 when not under mpirun.
func localProcesses() int {
	n, err := strconv.Atoi(os.Getenv("OMPI_COMM_WORLD_LOCAL_SIZE"))
	if err != nil || n < 1 {
		return 1
	}
	return n
}

// procsPerProcess is the GOMAXPROCS each of local processes gets on a
// machine of cpus CPUs: an equal share, at least 1.
func procsPerProcess(cpus, local int) int {
	return max(1, cpus/max(1, local))
}

// shareCPUs gives this process its share of the machine's CPUs when mpirun
// started several on it, unless GOMAXPROCS is set. Each Go runtime would
// otherwise schedule on every CPU (mpirun is run with --bind-to none), and
// the processes' idle and collector threads would take turns from each
// other's ranks: with 2 processes on 2 CPUs, LB ran 15-20% slower.
func shareCPUs() {
	if os.Getenv("GOMAXPROCS") != "" {
		return
	}
	if local := localProcesses(); local > 1 {
		runtime.GOMAXPROCS(procsPerProcess(runtime.NumCPU(), local))
	}
}
