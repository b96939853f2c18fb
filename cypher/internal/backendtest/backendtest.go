// Package backendtest names the backends that the tests of the Cypher
// engine and of its mapping run on, and opens fresh databases of them, so
// that every such test compares the same backends in the same way. It is
// for tests only.
package backendtest

import (
	"errors"
	"fmt"

	"github.com/gdi-go/gdi/conformance/refdb"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// A Backend is a driver and a number of local ranks.
type Backend struct {
	Name   string
	Driver gdi.Driver
	Ranks  int
}

// String is "name/ranks", as test messages name a backend.
func (b Backend) String() string { return fmt.Sprintf("%s/%d", b.Name, b.Ranks) }

// All are the backends every test runs on: the independent reference
// backend on one rank, and gdirma on one and on two.
var All = []Backend{
	{"refdb", refdb.Driver{}, 1},
	{"gdirma", gdirma.Driver{}, 1},
	{"gdirma", gdirma.Driver{}, 2},
}

// Run runs fn on every rank of a fresh database of b, on local ranks.
func (b Backend) Run(fn func(c rma.Comm, db gdi.Database) error) error {
	return local.Run(b.Ranks, func(c rma.Comm) error { return WithDatabase(c, b.Driver, fn) })
}

// WithDatabase runs fn on this rank with a fresh database of driver d,
// which it frees after. It is collective, as CreateDatabase is.
func WithDatabase(c rma.Comm, d gdi.Driver, fn func(c rma.Comm, db gdi.Database) error) error {
	db, err := d.CreateDatabase(c, nil)
	if err != nil {
		return err
	}
	return errors.Join(fn(c, db), db.Free())
}
