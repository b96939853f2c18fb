package gdirma_test

import (
	"testing"

	"github.com/gdi-go/gdi/conformance"
	"github.com/gdi-go/gdi/conformance/refdb"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// fuzzBackend is gdirma with small blocks, so long IDs and values span
// several blocks.
var fuzzBackend = conformance.Backend{
	Name: "gdirma", Driver: gdirma.Driver{}, Launch: local.Run,
	Params: func() any { return gdirma.Params{BlockSize: 64, MemoryPerRank: 1 << 20} },
}

func FuzzVertexCSV(f *testing.F)         { conformance.FuzzVertexCSV(f, fuzzBackend) }
func FuzzTranslateVertexID(f *testing.F) { conformance.FuzzTranslateVertexID(f, fuzzBackend) }
func FuzzEdgeCSV(f *testing.F)           { conformance.FuzzEdgeCSV(f, fuzzBackend) }

// FuzzConstraints compares constraint evaluation here with the reference
// backend and with a model.
func FuzzConstraints(f *testing.F) {
	conformance.FuzzConstraints(f, fuzzBackend,
		conformance.Backend{Name: "refdb", Driver: refdb.Driver{}, Launch: local.Run})
}

// fuzzRanks is fuzzBackend on 3 ranks, each loading its share of the
// file (csv.go).
var fuzzRanks = conformance.Backend{
	Name: "gdirma on 3 ranks", Driver: gdirma.Driver{},
	Launch: func(_ int, fn func(rma.Comm) error) error { return local.Run(3, fn) },
	Params: fuzzBackend.Params,
}

func FuzzVertexCSVRanks(f *testing.F) { conformance.FuzzVertexCSV(f, fuzzRanks) }
func FuzzEdgeCSVRanks(f *testing.F)   { conformance.FuzzEdgeCSV(f, fuzzRanks) }
