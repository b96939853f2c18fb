package mpi

import (
	"fmt"
	"os"
	"strings"
)

// Open MPI's one-sided components (MCA osc) and what rma/mpi needs of
// them, as measured with Debian's Open MPI 4.1.4 (see README.md):
//
//   - sm: one node only; works. It also makes the shared memory of the
//     ranks of each node (node.go) when they span several nodes, so
//     across nodes the setting is --mca osc ucx,sm.
//   - ucx: any network UCX drives (InfiniBand, RoCE, TCP, shared memory);
//     works, once UCX leaves SIGSEGV and SIGBUS to Go (ucxSignals).
//   - pt2pt: any network Open MPI's BTLs drive (tcp, vader); works under
//     the default thread level, serialized. It refuses windows under
//     MPI_THREAD_MULTIPLE (MPI_Win_allocate fails with MPI_ERR_WIN), so
//     it is refused with GDI_MPI_THREAD=multiple. Its atomics are a lock
//     and a read-modify-write at the target, so every atomic, the
//     owner's too, goes through MPI (oscAtomicsAreCPU).
//   - rdma: needs a BTL with one-sided operations and atomics; over btl
//     tcp MPI_Win_allocate fails with MPI_ERR_WIN, and over btl vader its
//     compare-and-swap crashes the process (SIGSEGV inside Open MPI). It is
//     the component Open MPI picks by default on one node, hence the
//     crash DESIGN.md records. Refused, and excluded from Open MPI's own
//     choice, unless GDI_MPI_ALLOW_OSC names it, for an Open MPI and
//     fabric where it works.
//
// A component that cannot serve is refused when MPI starts, with a
// message that names settings that work, rather than failing at the
// first window. Where mpirun leaves the choice to Open MPI, osc rdma is
// excluded from it (oscDefault), since Open MPI would pick it for the
// windows that cross nodes.

// oscRequested returns the one-sided components mpirun was asked for
// (--mca osc, which reaches the processes as OMPI_MCA_osc), or nil if
// Open MPI chooses.
func oscRequested() []string {
	v := strings.TrimSpace(os.Getenv("OMPI_MCA_osc"))
	if v == "" || strings.HasPrefix(v, "^") {
		return nil
	}
	return strings.Split(v, ",")
}

// workingSettings names settings of mpirun that work, for messages.
const workingSettings = "--mca osc ucx,sm (any network, sm for the ranks of one node; add -x UCX_TLS=... to pick the transport) or, with every process on one node, --mca osc sm"

// oscRefusal returns why the components requested cannot serve rma/mpi,
// or nil if one of them can (or Open MPI chooses).
func oscRefusal(level threadLevel) error {
	req := oscRequested()
	if req == nil {
		return nil
	}
	var why []string
	for _, c := range req {
		switch c {
		case "pt2pt":
			if level != threadMultiple {
				return nil
			}
			why = append(why, "osc pt2pt creates no windows under MPI_THREAD_MULTIPLE, which GDI_MPI_THREAD=multiple asks for")
		case "rdma":
			switch btls := os.Getenv("OMPI_MCA_btl"); {
			case btls != "" && !hasRDMABTL(btls):
				why = append(why, fmt.Sprintf("osc rdma needs a BTL with one-sided operations and atomics, and --mca btl %s has none", btls))
			case allowed("rdma"):
				return nil
			default:
				why = append(why, "osc rdma's compare-and-swap crashes in Open MPI 4.1 (set GDI_MPI_ALLOW_OSC=rdma where it works)")
			}
		case "sm":
			if want, nodeSize, err := nodeSettings(); err != nil || !want || nodeSize > 0 {
				why = append(why, "osc sm serves only windows of ranks that share memory, and GDI_MPI_SHM=0 or GDI_MPI_NODE_SIZE asks for windows across (pretend) nodes")
				continue
			}
			return nil
		default:
			return nil // ucx, or one we do not know: let it try
		}
	}
	return fmt.Errorf("mpi: --mca osc %s cannot serve rma/mpi: %s; use %s",
		strings.Join(req, ","), strings.Join(why, "; "), workingSettings)
}

// oscDefault keeps Open MPI, where it chooses the one-sided component,
// from choosing osc rdma: unless GDI_MPI_ALLOW_OSC names rdma, rdma joins
// the components excluded (OMPI_MCA_osc=^rdma, or the user's own list of
// exclusions with rdma added) before MPI starts, which reads the setting
// from the environment. A list of components to use is left as it is:
// oscRefusal has judged it.
func oscDefault() {
	if allowed("rdma") {
		return
	}
	v := strings.TrimSpace(os.Getenv("OMPI_MCA_osc"))
	switch {
	case v == "":
		_ = os.Setenv("OMPI_MCA_osc", "^rdma")
	case strings.HasPrefix(v, "^"):
		for _, c := range strings.Split(v[1:], ",") {
			if strings.TrimSpace(c) == "rdma" {
				return
			}
		}
		_ = os.Setenv("OMPI_MCA_osc", v+",rdma")
	}
}

// allowed reports whether GDI_MPI_ALLOW_OSC names component c.
func allowed(c string) bool {
	for _, a := range strings.Split(os.Getenv("GDI_MPI_ALLOW_OSC"), ",") {
		if strings.TrimSpace(a) == c {
			return true
		}
	}
	return false
}

// hasRDMABTL reports whether the BTL list btls names one that can do
// one-sided operations for osc rdma.
func hasRDMABTL(btls string) bool {
	if strings.HasPrefix(btls, "^") {
		return true
	}
	for _, b := range strings.Split(btls, ",") {
		switch strings.TrimSpace(b) {
		case "openib", "uct", "ofi", "ugni", "smcuda", "vader":
			return true
		}
	}
	return false
}

// windowHint adds the settings that work to the error of a failed
// MPI_Win_allocate.
func windowHint(err error) error {
	return fmt.Errorf("%w (the one-sided component could not create the window; %s)", err, "settings that work: "+workingSettings)
}

// ucxSignals keeps UCX from taking over SIGSEGV and SIGBUS, which the Go
// runtime needs for nil pointer panics and its own checks: unless the
// user set UCX_ERROR_SIGNALS, it is set empty before MPI starts.
func ucxSignals() {
	if _, ok := os.LookupEnv("UCX_ERROR_SIGNALS"); !ok {
		_ = os.Setenv("UCX_ERROR_SIGNALS", "")
	}
}

// ucxAtomics makes UCX carry out atomics on the target's CPU, so that
// they are atomic with respect to the CPU atomics of the ranks that reach
// the window directly (node.go): unless the user set UCX_ATOMIC_MODE, it
// is set to cpu before MPI starts.
func ucxAtomics() {
	if _, ok := os.LookupEnv("UCX_ATOMIC_MODE"); !ok {
		_ = os.Setenv("UCX_ATOMIC_MODE", "cpu")
	}
}
