// Package launch picks the rma backend for a program or test: the MPI world
// when the process was started by mpirun, local goroutine ranks otherwise.
// Examples, tools and the stress tests start their ranks through it, so the
// same code runs either way.
package launch

import (
	"fmt"

	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
	"github.com/gdi-go/gdi/rma/mpi"
)

// Run starts n ranks running fn on the chosen backend and returns when all
// have returned. Under mpirun it runs on the MPI processes; a process built
// without the mpi tag but started by mpirun gets a clear error rather than n
// independent local runs.
func Run(n int, fn func(rma.Comm) error) error {
	if mpi.InMPIRun() {
		if !mpi.BuiltIn {
			return fmt.Errorf("launch: started by mpirun, but %w", mpi.Run(n, fn))
		}
		return mpi.Run(n, fn)
	}
	return local.Run(n, fn)
}

// Backend names the backend Run uses in this process: "mpi" or "local".
func Backend() string {
	if mpi.InMPIRun() {
		return "mpi"
	}
	return "local"
}

var _ rma.Launcher = Run

// Finalize shuts down the backend once the program's last Run has
// returned: under MPI it finalizes MPI, which every process must do before
// it exits; on local ranks there is nothing to shut down.
func Finalize() error {
	if mpi.InMPIRun() && mpi.BuiltIn {
		return mpi.Finalize()
	}
	return nil
}
