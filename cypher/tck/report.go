package tck

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// Status is the outcome of a scenario.
type Status uint8

// The outcomes. A skipped scenario is never counted as passed.
const (
	Passed Status = iota
	Failed
	Skipped
)

func (s Status) String() string {
	return [...]string{"PASS", "FAIL", "SKIP"}[s]
}

// Outcome is how one scenario went.
type Outcome struct {
	Scenario *Scenario
	Status   Status
	Reason   string // for a failure, the rule broken; for a skip, why
	Stack    string // for a panic in the engine, where it happened
	Elapsed  time.Duration
}

func (o Outcome) String() string {
	if o.Reason == "" {
		return fmt.Sprintf("%s %s", o.Status, o.Scenario.ID())
	}
	return fmt.Sprintf("%s %s: %s", o.Status, o.Scenario.ID(), o.Reason)
}

// Counts are numbers of scenarios by outcome.
type Counts struct{ Passed, Failed, Skipped int }

func (c Counts) String() string {
	return fmt.Sprintf("%d passed, %d failed, %d skipped", c.Passed, c.Failed, c.Skipped)
}

func (c *Counts) add(s Status) {
	switch s {
	case Passed:
		c.Passed++
	case Failed:
		c.Failed++
	default:
		c.Skipped++
	}
}

// FolderCounts are the counts of one feature folder, e.g. clauses/match.
type FolderCounts struct {
	Folder string
	Counts
}

// A Report is the outcome of a run: the totals, the counts per feature
// folder (sorted by folder) and every scenario's outcome, in run order.
type Report struct {
	Counts
	Folders  []FolderCounts
	Outcomes []Outcome
}

// NewReport sums up outcomes.
func NewReport(outcomes []Outcome) *Report {
	r := &Report{Outcomes: outcomes}
	byFolder := map[string]*Counts{}
	for _, o := range outcomes {
		r.add(o.Status)
		c := byFolder[o.Scenario.Folder]
		if c == nil {
			c = &Counts{}
			byFolder[o.Scenario.Folder] = c
		}
		c.add(o.Status)
	}
	for f, c := range byFolder {
		r.Folders = append(r.Folders, FolderCounts{f, *c})
	}
	sort.Slice(r.Folders, func(i, j int) bool { return r.Folders[i].Folder < r.Folders[j].Folder })
	return r
}

// String gives the totals, "N passed, M failed, K skipped", then one line
// per feature folder.
func (r *Report) String() string {
	var b strings.Builder
	fmt.Fprintln(&b, r.Counts)
	width := 0
	for _, f := range r.Folders {
		width = max(width, len(f.Folder))
	}
	for _, f := range r.Folders {
		fmt.Fprintf(&b, "  %-*s  %s\n", width+1, f.Folder+":", f.Counts)
	}
	return b.String()
}

// Failures returns the outcomes of the failed scenarios.
func (r *Report) Failures() []Outcome { return r.with(Failed) }

// Skips returns the outcomes of the skipped scenarios.
func (r *Report) Skips() []Outcome { return r.with(Skipped) }

func (r *Report) with(s Status) []Outcome {
	var out []Outcome
	for _, o := range r.Outcomes {
		if o.Status == s {
			out = append(out, o)
		}
	}
	return out
}

// Details lists the failures and then the skips, one a line with its
// reason.
func (r *Report) Details() string {
	var b strings.Builder
	for _, o := range append(r.Failures(), r.Skips()...) {
		fmt.Fprintln(&b, o)
	}
	return b.String()
}
