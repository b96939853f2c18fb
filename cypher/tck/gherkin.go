package tck

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// A Feature is one .feature file: its scenarios, with Scenario Outlines
// already expanded into one Scenario per row of their Examples.
type Feature struct {
	Path      string // relative to the TCK directory, slash-separated: clauses/match/Match4.feature
	Folder    string // the directory of Path: clauses/match ("." at the top)
	Name      string
	Scenarios []*Scenario
}

// A Scenario is one scenario to run: a plain Scenario, or one row of a
// Scenario Outline's Examples with its <placeholders> substituted in the
// name, the step texts, the doc strings and the tables. The steps of the
// feature's Background come first.
type Scenario struct {
	Path    string // of the feature
	Folder  string // of the feature
	Line    int    // of the Scenario keyword, or of the Examples row
	Index   int    // the [n] that starts the name, else the ordinal in the feature (from 1)
	Example int    // the row of the Examples (from 1), 0 for a plain Scenario
	Name    string // without the leading [n]
	Tags    []string
	Steps   []Step
}

// A Step is one Given/When/Then/And/But line with its doc string or table.
type Step struct {
	Line     int
	Keyword  string // Given, When, Then, And, But or *
	Text     string // after the keyword
	Doc      string // the doc string, its indentation removed
	HasDoc   bool
	Table    [][]string // the data table, cells unescaped
	StepForm            // what Text says (form.go)
}

// ID names the scenario in messages: path:line [index] "name", and the
// example row for an outline.
func (sc *Scenario) ID() string {
	id := fmt.Sprintf("%s:%d [%d] %q", sc.Path, sc.Line, sc.Index, sc.Name)
	if sc.Example > 0 {
		id += fmt.Sprintf(" example %d", sc.Example)
	}
	return id
}

// HasTag reports whether the scenario (or its feature) carries tag, e.g.
// "@ignore".
func (sc *Scenario) HasTag(tag string) bool {
	for _, t := range sc.Tags {
		if t == tag {
			return true
		}
	}
	return false
}

// FeaturesDir returns the directory of features named by the environment
// variable GDI_TCK_FEATURES, or def when it is not set.
func FeaturesDir(def string) string {
	if dir := os.Getenv("GDI_TCK_FEATURES"); dir != "" {
		return dir
	}
	return def
}

// ReadDir reads every .feature file under dir, in the order of their
// paths.
func ReadDir(dir string) ([]*Feature, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".feature") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []*Feature
	for _, f := range files {
		rel, err := filepath.Rel(dir, f)
		if err != nil {
			return nil, err
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		feat, err := ParseFeature(filepath.ToSlash(rel), string(data))
		if err != nil {
			return nil, err
		}
		out = append(out, feat)
	}
	return out, nil
}

// Scenarios returns the scenarios of the features, in order.
func Scenarios(features []*Feature) []*Scenario {
	var out []*Scenario
	for _, f := range features {
		out = append(out, f.Scenarios...)
	}
	return out
}

// ParseFeature parses the Gherkin text of one feature; rel is its path
// relative to the TCK directory, used in messages and for its folder.
func ParseFeature(rel, text string) (*Feature, error) {
	r := &reader{
		feat:  &Feature{Path: rel, Folder: path.Dir(rel)},
		lines: strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n"),
	}
	if err := r.read(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", rel, r.i+1, err)
	}
	return r.feat, nil
}
