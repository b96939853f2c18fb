package gdirma_test

import (
	"fmt"
	"maps"
	"testing"

	"github.com/gdi-go/gdi/conformance"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma/launch"
)

// notYet lists the conformance cases gdirma does not pass yet, with why.
// On rma/local (make test) it is empty: every case passes.
var notYet = map[string]string{}

// notUnderMPI lists cases whose harness needs the ranks to share a
// process, so they cannot run under mpirun (make test-mpi). They pass on
// rma/local.
var notUnderMPI = map[string]string{
	// The case coordinates its ranks through Go memory (Env.shared).
	"Transaction/collective-barrier-semantics": "harness shares Go memory between ranks",
	// Each process has its own t.TempDir, so the ranks name different
	// paths and the collective argument check answers ErrNotSame.
	"CSV/no-such-file": "per-process temporary directories differ",
	"CSV/os-path":      "per-process temporary directories differ",
}

func skips() map[string]string {
	if launch.Backend() != "mpi" {
		return notYet
	}
	m := maps.Clone(notYet)
	maps.Copy(m, notUnderMPI)
	return m
}

// TestConformance runs the GDI conformance suite against gdirma on
// rma/local for each block size.
func TestConformance(t *testing.T) {
	for _, bs := range []int{64, 256, 4096} {
		t.Run(fmt.Sprintf("bs=%d", bs), func(t *testing.T) {
			conformance.Run(t, conformance.Backend{
				Name:           "gdirma",
				Driver:         gdirma.Driver{},
				Launch:         launch.Run,
				Params:         func() any { return gdirma.Params{BlockSize: bs, MemoryPerRank: 1 << 20} },
				Ranks:          []int{1, 2, 4},
				Skip:           skips(),
				InjectCritical: gdirma.InjectCritical,
				Restore: func(dir string) any {
					return gdirma.Params{Restore: dir}
				},
				SmallIndexParams: func() any {
					return gdirma.Params{BlockSize: bs, MemoryPerRank: 16 << 20, IndexMemoryPerRank: 8 << 10}
				},
			})
		})
	}
}
