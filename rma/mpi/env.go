package mpi

import "os"

// InMPIRun reports whether the process was started by Open MPI's mpirun,
// whatever the build tags.
func InMPIRun() bool {
	return os.Getenv("OMPI_COMM_WORLD_SIZE") != ""
}
