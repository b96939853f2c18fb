// Package invariants switches on expensive self-checks in builds with the
// race detector, in the manner of Pebble's internal/invariants. Tests run
// with -race, so they get the checks; benchmarks and production builds do not
// pay for them.
package invariants
