//go:build race

package cypher

// raceEnabled: under the race detector TestTCK runs on one backend only,
// to keep the run short; the comparison of backends runs without it.
const raceEnabled = true
