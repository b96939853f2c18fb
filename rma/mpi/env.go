package mpi

import (
	"fmt"
	"os"
	"strconv"

	"github.com/gdi-go/gdi/rma"
)

// InMPIRun reports whether the process was started by Open MPI's mpirun,
// whatever the build tags.
func InMPIRun() bool {
	return os.Getenv("OMPI_COMM_WORLD_SIZE") != ""
}

// nodeSettings reads GDI_MPI_SHM and GDI_MPI_NODE_SIZE.
func nodeSettings() (want bool, nodeSize int, err error) {
	want = os.Getenv("GDI_MPI_SHM") != "0"
	if v := os.Getenv("GDI_MPI_NODE_SIZE"); v != "" {
		if nodeSize, err = strconv.Atoi(v); err != nil || nodeSize < 1 {
			return false, 0, fmt.Errorf("%w: GDI_MPI_NODE_SIZE=%q: want a positive number of ranks per node", rma.ErrArgument, v)
		}
	}
	return want, nodeSize, nil
}
