package tck

import (
	"os"
	"testing"
)

// The openCypher TCK features are read in place from the shared test data;
// GDI_TCK_FEATURES names another directory to read instead.
const defaultTCKDir = "../../../shared/testdata/opencypher-tck/features"

// tckDir returns the TCK directory, or skips the test when it is missing.
func tckDir(tb testing.TB) string {
	dir := FeaturesDir(defaultTCKDir)
	if _, err := os.Stat(dir); err != nil {
		tb.Skipf("TCK features not available: %v", err)
	}
	return dir
}
