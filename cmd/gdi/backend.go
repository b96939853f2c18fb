package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gdi-go/gdi/conformance/refdb"
	"github.com/gdi-go/gdi/gdi"
)

// backends are the GDI drivers the subcommands can run on, by -backend name.
var backends = map[string]gdi.Driver{
	"refdb": refdb.Driver{},
}

// defaultBackend is the driver used without -backend.
const defaultBackend = "refdb"

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
