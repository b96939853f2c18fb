package tck

import (
	"fmt"
	"strconv"
	"strings"
)

// expand turns a template into its scenarios: itself for a plain
// Scenario, one per Examples row for an outline, each preceded by the
// Background's steps and with its steps' forms recognised.
func (t *template) expand(feat *Feature, background []Step) ([]*Scenario, error) {
	index, name := splitIndex(t.name, t.ordinal)
	if !t.outline {
		sc := &Scenario{Path: feat.Path, Folder: feat.Folder, Line: t.line, Index: index, Name: name, Tags: t.tags}
		sc.setSteps(background, t.steps, nil)
		return []*Scenario{sc}, nil
	}
	var out []*Scenario
	for _, ex := range t.examples {
		for r, row := range ex.rows {
			if len(row) != len(ex.header) {
				return nil, fmt.Errorf("line %d: Examples row has %d cells, header %d", ex.lines[r], len(row), len(ex.header))
			}
			sub := substituter(ex.header, row)
			sc := &Scenario{Path: feat.Path, Folder: feat.Folder, Line: ex.lines[r], Index: index,
				Example: len(out) + 1, Name: sub.Replace(name), Tags: t.tags}
			sc.setSteps(background, t.steps, sub)
			out = append(out, sc)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("line %d: Scenario Outline %q without Examples rows", t.line, t.name)
	}
	return out, nil
}

// splitIndex splits "[3] Name" into 3 and "Name"; a name without an index
// gets the ordinal.
func splitIndex(name string, ordinal int) (int, string) {
	if rest, ok := strings.CutPrefix(name, "["); ok {
		if num, after, ok := strings.Cut(rest, "]"); ok {
			if n, err := strconv.Atoi(num); err == nil {
				return n, strings.TrimSpace(after)
			}
		}
	}
	return ordinal, name
}

// substituter replaces each <name> of the header by the row's cell.
func substituter(header, row []string) *strings.Replacer {
	var pairs []string
	for i, h := range header {
		pairs = append(pairs, "<"+h+">", row[i])
	}
	return strings.NewReplacer(pairs...)
}

// setSteps gives sc copies of the background's and the template's steps,
// substituted by sub (if not nil), with their forms recognised.
func (sc *Scenario) setSteps(background, steps []Step, sub *strings.Replacer) {
	for _, st := range append(append([]Step(nil), background...), steps...) {
		if sub != nil {
			st.Text, st.Doc = sub.Replace(st.Text), sub.Replace(st.Doc)
			st.Table = substituteTable(st.Table, sub)
		}
		st.StepForm = recognise(st)
		sc.Steps = append(sc.Steps, st)
	}
}

func substituteTable(table [][]string, sub *strings.Replacer) [][]string {
	if table == nil {
		return nil
	}
	out := make([][]string, len(table))
	for i, row := range table {
		out[i] = make([]string, len(row))
		for j, c := range row {
			out[i][j] = sub.Replace(c)
		}
	}
	return out
}
