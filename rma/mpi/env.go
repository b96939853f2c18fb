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

// threadLevel is the MPI thread level the package asks for.
type threadLevel int

const (
	// threadSerialized lets one thread at a time into MPI; the C shim
	// holds a lock around each call. It is the default: Open MPI's
	// components run faster without their own locks, and osc pt2pt
	// creates windows only below MPI_THREAD_MULTIPLE.
	threadSerialized threadLevel = iota
	// threadMultiple lets every goroutine call MPI at once.
	threadMultiple
)

func (l threadLevel) String() string {
	if l == threadMultiple {
		return "multiple"
	}
	return "serialized"
}

// threadSetting reads GDI_MPI_THREAD: "serialized" (or unset) or "multiple".
func threadSetting() (threadLevel, error) {
	switch v := os.Getenv("GDI_MPI_THREAD"); v {
	case "", "serialized":
		return threadSerialized, nil
	case "multiple":
		return threadMultiple, nil
	default:
		return 0, fmt.Errorf("%w: GDI_MPI_THREAD=%q: want serialized or multiple", rma.ErrArgument, v)
	}
}
