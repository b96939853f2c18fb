package refdb_test

import (
	"testing"

	"github.com/gdi-go/gdi/conformance"
	"github.com/gdi-go/gdi/conformance/refdb"
	"github.com/gdi-go/gdi/rma/local"
)

var fuzzBackend = conformance.Backend{Name: "refdb", Driver: refdb.Driver{}, Launch: local.Run}

func FuzzVertexCSV(f *testing.F)         { conformance.FuzzVertexCSV(f, fuzzBackend) }
func FuzzTranslateVertexID(f *testing.F) { conformance.FuzzTranslateVertexID(f, fuzzBackend) }
func FuzzEdgeCSV(f *testing.F)           { conformance.FuzzEdgeCSV(f, fuzzBackend) }

// FuzzConstraints checks constraint evaluation against the model alone;
// gdirma's FuzzConstraints compares the two backends.
func FuzzConstraints(f *testing.F) { conformance.FuzzConstraints(f, fuzzBackend) }
