package tck

import (
	"errors"
	"fmt"
	"strings"
)

// reader parses the lines of one feature file. It knows the Gherkin that
// the TCK uses: tags, Feature with its description, Background, Scenario
// (Example), Scenario Outline (Scenario Template) with Examples
// (Scenarios), steps, doc strings and data tables, comments.
type reader struct {
	feat       *Feature
	lines      []string
	i          int      // the line being read
	featTags   []string // tags of the feature
	pending    []string // tags waiting for their Scenario or Examples
	background []Step
	inBack     bool      // reading the Background
	cur        *template // the scenario being read
	inExamples bool
	ordinal    int
}

// template is a Scenario or Scenario Outline as written.
type template struct {
	line     int
	ordinal  int
	name     string
	tags     []string
	outline  bool
	steps    []Step
	examples []examples
}

// examples is one Examples table of an outline.
type examples struct {
	header []string
	rows   [][]string
	lines  []int
}

func (r *reader) read() error {
	for ; r.i < len(r.lines); r.i++ {
		if err := r.line(strings.TrimSpace(r.lines[r.i])); err != nil {
			return err
		}
	}
	r.i--
	return r.finish()
}

func (r *reader) line(l string) error {
	if l == "" || strings.HasPrefix(l, "#") {
		return nil
	}
	if strings.HasPrefix(l, "@") {
		r.pending = append(r.pending, strings.Fields(l)...)
		return nil
	}
	if rest, ok := keyword(l, "Feature"); ok {
		r.feat.Name, r.featTags, r.pending = rest, r.pending, nil
		return nil
	}
	if _, ok := keyword(l, "Background"); ok {
		r.inBack = true
		return r.finish()
	}
	if rest, ok := keyword(l, "Scenario Outline", "Scenario Template"); ok {
		return r.startScenario(rest, true)
	}
	if rest, ok := keyword(l, "Scenario", "Example"); ok {
		return r.startScenario(rest, false)
	}
	if _, ok := keyword(l, "Examples", "Scenarios"); ok {
		return r.startExamples()
	}
	return r.body(l)
}

// body reads a step, a table row or a doc string.
func (r *reader) body(l string) error {
	switch {
	case strings.HasPrefix(l, "|"):
		return r.tableRow(l)
	case strings.HasPrefix(l, `"""`), strings.HasPrefix(l, "```"):
		return r.docString()
	}
	if kw, text, ok := stepKeyword(l); ok {
		return r.step(kw, text)
	}
	if r.cur == nil && !r.inBack {
		return nil // the feature's description
	}
	return fmt.Errorf("unrecognised line %q", l)
}

// keyword returns the text after "name:" if l starts with one of names.
func keyword(l string, names ...string) (string, bool) {
	for _, n := range names {
		if strings.HasPrefix(l, n+":") {
			return strings.TrimSpace(l[len(n)+1:]), true
		}
	}
	return "", false
}

var stepKeywords = []string{"Given", "When", "Then", "And", "But", "*"}

// stepKeyword splits a step line into its keyword and its text.
func stepKeyword(l string) (kw, text string, ok bool) {
	for _, k := range stepKeywords {
		if rest, found := strings.CutPrefix(l, k+" "); found {
			return k, strings.TrimSpace(rest), true
		}
	}
	return "", "", false
}

func (r *reader) startScenario(name string, outline bool) error {
	if err := r.finish(); err != nil {
		return err
	}
	r.ordinal++
	tags := append(append([]string(nil), r.featTags...), r.pending...)
	r.cur = &template{line: r.i + 1, ordinal: r.ordinal, name: name, tags: tags, outline: outline}
	r.pending, r.inBack = nil, false
	return nil
}

func (r *reader) startExamples() error {
	if r.cur == nil || !r.cur.outline {
		return errors.New("Examples outside a Scenario Outline")
	}
	r.cur.examples = append(r.cur.examples, examples{})
	r.inExamples, r.pending = true, nil
	return nil
}
