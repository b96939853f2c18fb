package main

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/gdi-go/gdi/conformance/refdb"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
)

// backends are the GDI drivers the subcommands can run on, by -backend name.
var backends = map[string]gdi.Driver{
	"refdb":  refdb.Driver{},
	"gdirma": gdirma.Driver{},
}

// defaultBackend is the driver used without -backend.
const defaultBackend = "gdirma"

func driverNames() []string {
	names := make([]string, 0, len(backends))
	for n := range backends {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// driverByName returns the driver called name.
func driverByName(name string) (gdi.Driver, error) {
	d, ok := backends[name]
	if !ok {
		return nil, fmt.Errorf("-backend must be one of %s, not %q", strings.Join(driverNames(), ", "), name)
	}
	return d, nil
}

// sizing describes the graph a database must hold, so that backends with
// fixed memory get enough of it.
type sizing struct {
	vertices, edges uint64
	ranks           int
	blockSize       int // bytes, 0 for the backend's default
	memoryPerRank   int // bytes, 0 to estimate
	// weighted: every edge gets a property, which takes a holder of its
	// own (gdirma: a heavyweight edge) on the rank that writes it.
	weighted bool
}

// Headroom per rank for what an OLTP run adds beyond the loaded graph:
// tens of thousands of vertices, each with an application ID.
const (
	growthMemory = 32 << 20
	growthIDs    = 1 << 17
)

// params returns the CreateDatabase params of backend name for s.
func params(name string, s sizing) any {
	if name != "gdirma" {
		return nil
	}
	perRank := (s.vertices + uint64(s.ranks) - 1) / uint64(s.ranks)
	mem := s.memoryPerRank
	if mem == 0 {
		// A vertex holder with the default scheme's properties takes a few
		// hundred bytes, and each edge is kept at both ends. Leave room
		// for fragmentation and for what an OLTP run adds.
		perVertex := 384 + 2*48*s.edges/max(s.vertices, 1)
		mem = int(max(3*perRank*perVertex, 8<<20)) + growthMemory
		if s.weighted {
			// A block per edge holder, and the ranks' shares vary.
			mem += int(2 * (s.edges/uint64(s.ranks) + 1) * uint64(cmp.Or(s.blockSize, gdirma.DefaultBlockSize)))
		}
	}
	return &gdirma.Params{
		BlockSize:     s.blockSize,
		MemoryPerRank: mem,
		DHTBuckets:    int(max(2*perRank, 1024)),
		DHTEntries:    int(max(4*perRank, 4096)) + growthIDs,
		// An explicit index over the vertices' label (gdi bench olap) has
		// an entry per vertex: about 64 bytes of tree each, twice over.
		IndexMemoryPerRank: int(max(256*perRank, gdirma.DefaultIndexMemory)),
	}
}
