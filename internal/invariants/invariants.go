// Package invariants switches on expensive self-checks in builds with the
// race detector, in the manner of Pebble's internal/invariants. Tests run
// with -race, so they get the checks; benchmarks and production builds do not
// pay for them.
package invariants

import (
	"math/rand/v2"
	"runtime"
)

// MaybeYield gives up the processor now and then when invariants are
// enabled. Lock-free code calls it between reading shared state and acting on
// it, which widens the windows where other goroutines interfere, so races
// such as ABA show up in stress tests rather than in production.
func MaybeYield() {
	if Enabled && rand.Uint32N(4) == 0 {
		runtime.Gosched()
	}
}
