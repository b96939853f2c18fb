package tck

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// SideEffects counts the changes a statement made to the graph, under the
// TCK's keys: +nodes, -nodes, +relationships, -relationships, +labels,
// -labels, +properties, -properties. A key absent counts zero.
type SideEffects map[string]int

// sideEffectKeys are the TCK's keys, in the order they are reported.
var sideEffectKeys = []string{
	"+nodes", "-nodes", "+relationships", "-relationships",
	"+labels", "-labels", "+properties", "-properties",
}

// Diff computes the side effects between two states of a graph: nodes
// and relationships by identity; labels as the set of label names that
// nodes carry; properties as the set of (node or relationship, key,
// value) triples, so a changed value counts one property removed and one
// added.
func Diff(before, after *State) SideEffects {
	eff := SideEffects{}
	count := func(key string, b, a map[string]bool) {
		eff["+"+key], eff["-"+key] = minus(a, b), minus(b, a)
	}
	count("nodes", nodeIDs(before), nodeIDs(after))
	count("relationships", relIDs(before), relIDs(after))
	count("labels", labels(before), labels(after))
	count("properties", properties(before), properties(after))
	return eff
}

// minus counts the members of a that b lacks.
func minus(a, b map[string]bool) int {
	n := 0
	for k := range a {
		if !b[k] {
			n++
		}
	}
	return n
}

func nodeIDs(s *State) map[string]bool {
	set := map[string]bool{}
	for _, n := range s.Nodes {
		set[n.ID] = true
	}
	return set
}

func relIDs(s *State) map[string]bool {
	set := map[string]bool{}
	for _, r := range s.Rels {
		set[r.ID] = true
	}
	return set
}

func labels(s *State) map[string]bool {
	set := map[string]bool{}
	for _, n := range s.Nodes {
		for _, l := range n.Labels {
			set[l] = true
		}
	}
	return set
}

// properties lists the property triples of the state, each value in its
// canonical notation (as written when it does not parse).
func properties(s *State) map[string]bool {
	set := map[string]bool{}
	add := func(entity string, props map[string]string) {
		for k, v := range props {
			if val, err := ParseValue(v); err == nil {
				v = val.String()
			}
			set[strconv.Quote(entity)+" "+strconv.Quote(k)+" "+v] = true
		}
	}
	for _, n := range s.Nodes {
		add("node "+n.ID, n.Props)
	}
	for _, r := range s.Rels {
		add("rel "+r.ID, r.Props)
	}
	return set
}

// String lists the non-zero counts, e.g. "+nodes 2, +labels 1".
func (e SideEffects) String() string {
	var parts []string
	for _, k := range sideEffectKeys {
		if e[k] != 0 {
			parts = append(parts, fmt.Sprintf("%s %d", k, e[k]))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// ExpectedSideEffects reads the table of "And the side effects should
// be:"; nil reads as "And no side effects".
func ExpectedSideEffects(table [][]string) (SideEffects, error) {
	want := SideEffects{}
	for _, r := range table {
		if len(r) != 2 || !slices.Contains(sideEffectKeys, r[0]) {
			return nil, fmt.Errorf("side effect row %q: want | key | count | with a key of %v", r, sideEffectKeys)
		}
		n, err := strconv.Atoi(r[1])
		if err != nil {
			return nil, fmt.Errorf("side effect %s: %w", r[0], err)
		}
		want[r[0]] = n
	}
	return want, nil
}

// CheckSideEffects compares the side effects of a statement with those
// expected: every key must agree, the keys the table omits being zero.
func CheckSideEffects(got, want SideEffects) error {
	var bad []string
	for _, k := range sideEffectKeys {
		if got[k] != want[k] {
			bad = append(bad, fmt.Sprintf("%s %d, want %d", k, got[k], want[k]))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("side effects: %s (got %s)", strings.Join(bad, ", "), got)
	}
	return nil
}
