package tck

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// A Tally counts the queries of a front-end test by outcome, for the
// figures it logs.
type Tally map[string]int

// Total is the number of queries counted.
func (t Tally) Total() int {
	n := 0
	for _, c := range t {
		n += c
	}
	return n
}

// String lists the counts by outcome, in the outcomes' order:
// "(a: 2, b: 1)".
func (t Tally) String() string {
	parts := make([]string, 0, len(t))
	for _, k := range slices.Sorted(maps.Keys(t)) {
		parts = append(parts, fmt.Sprintf("%s: %d", k, t[k]))
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
