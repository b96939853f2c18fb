//go:build race

package invariants

// Enabled is true in builds with the race detector.
const Enabled = true
