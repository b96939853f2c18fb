package tck

import (
	"bytes"
	"fmt"
	"maps"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// fakeFactory makes fake engines, counting them.
type fakeFactory struct {
	made, closed atomic.Int32
	release      chan struct{}
}

func newFakeFactory(t *testing.T) *fakeFactory {
	f := &fakeFactory{release: make(chan struct{})}
	t.Cleanup(func() { close(f.release) })
	return f
}

func (f *fakeFactory) newEngine() (Engine, error) {
	f.made.Add(1)
	return &fakeEngine{release: f.release, closed: &f.closed}, nil
}

// runnerWant is how each scenario of testdata/runner/Runner.feature ends
// on the fake engine, by index (and example row), with part of its reason.
var runnerWant = map[string]struct {
	status Status
	reason string
}{
	"1":    {Passed, ""},
	"2":    {Failed, "row 1 missing: | 'right' |; unexpected row 1: | 'wrong row' |"},
	"3":    {Failed, "row 1 is | 2 |, want | 1 | (the rows agree in another order)"},
	"4":    {Passed, ""},
	"5":    {Failed, "side effects: +nodes 2, want 1, +properties 1, want 0"},
	"6":    {Passed, ""},
	"7":    {Failed, "expected TypeError at runtime: InvalidArgumentValue, got TypeError (InvalidArgumentType)"},
	"8":    {Passed, ""},
	"9":    {Skipped, "engine: CALL is not supported"},
	"10":   {Failed, "line 94: panic: boom"},
	"11":   {Failed, "timed out after 500ms"},
	"12/1": {Passed, ""}, "12/2": {Passed, ""}, "12/3": {Passed, ""},
	"13": {Passed, ""},
	"14": {Skipped, "tagged @ignore"},
	"15": {Failed, `unrecognised step "Then the result should be sorted"`},
	"16": {Failed, "setup query failed: SyntaxError (UnexpectedSyntax)"},
	"17": {Failed, "expected ArithmeticError at runtime: DivisionByZero, but the query succeeded with 1 rows"},
	"18": {Failed, "unexpected error: TypeError (InvalidArgumentType)"},
	"19": {Passed, ""},
	"20": {Failed, "expected SyntaxError at compile time: InvalidArgumentType, got TypeError (InvalidArgumentType)"},
	"21": {Failed, "expected TypeError at runtime: InvalidArgumentType, got an error without a TCK category: plain failure"},
}

// TestRunner runs the synthetic feature on the fake engine: each scenario
// must end as it says, for the reason it says.
func TestRunner(t *testing.T) {
	f := newFakeFactory(t)
	var log bytes.Buffer
	rep, err := Run("testdata", f.newEngine, Options{Verbose: &log, Timeout: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	want := maps.Clone(runnerWant)
	for _, o := range rep.Outcomes {
		key := fmt.Sprint(o.Scenario.Index)
		if o.Scenario.Example > 0 {
			key += fmt.Sprintf("/%d", o.Scenario.Example)
		}
		w, ok := want[key]
		delete(want, key)
		if !ok || o.Status != w.status || !strings.Contains(o.Reason, w.reason) {
			t.Errorf("%s, want %s %q", o, w.status, w.reason)
		}
	}
	for key := range want {
		t.Errorf("scenario %s did not run", key)
	}
	checkReport(t, rep, log.String())
	// Every scenario but two had an engine (the @ignore one and the one
	// with an unknown step), and each closed it but the one that hangs.
	if made, closed := f.made.Load(), f.closed.Load(); made != 21 || closed != 20 {
		t.Errorf("%d engines made, %d closed; want 21 and 20", made, closed)
	}
}

func checkReport(t *testing.T, rep *Report, log string) {
	t.Helper()
	lines := strings.Split(rep.String(), "\n")
	if lines[0] != "9 passed, 12 failed, 2 skipped" || !strings.Contains(lines[1], "runner:  9 passed, 12 failed, 2 skipped") {
		t.Errorf("report:\n%s", rep)
	}
	if len(rep.Failures()) != 12 || len(rep.Skips()) != 2 {
		t.Errorf("%d failures, %d skips", len(rep.Failures()), len(rep.Skips()))
	}
	details := rep.Details()
	if !strings.HasPrefix(details, `FAIL runner/Runner.feature:23 [2] "Fails by a wrong row": line 28: row 1 missing`) ||
		!strings.Contains(details, `SKIP runner/Runner.feature:144 [14] "Is skipped for its tag": tagged @ignore`) {
		t.Errorf("details:\n%s", details)
	}
	if strings.Count(log, "\nPASS ")+strings.Count(log, "\nFAIL ")+strings.Count(log, "\nSKIP ") != 22 ||
		!strings.Contains(log, "panic(") {
		t.Errorf("verbose log:\n%s", log)
	}
}

// TestRunnerFilter runs only the scenarios whose path or name holds the
// filter.
func TestRunnerFilter(t *testing.T) {
	f := newFakeFactory(t)
	for filter, want := range map[string]int{"control query": 1, "Passes": 6, "runner/Runner": 23, "nothing": 0} {
		rep, err := Run("testdata", f.newEngine, Options{Filter: filter, Timeout: 100 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Outcomes) != want {
			t.Errorf("filter %q ran %d scenarios, want %d", filter, len(rep.Outcomes), want)
		}
	}
	if _, err := Run(t.TempDir(), f.newEngine, Options{}); err == nil {
		t.Error("a directory without features ran")
	}
}

// TestNewReport sums outcomes per folder, folders sorted.
func TestNewReport(t *testing.T) {
	a, b := &Scenario{Folder: "clauses/match"}, &Scenario{Folder: "clauses/create"}
	rep := NewReport([]Outcome{{Scenario: a}, {Scenario: a, Status: Failed}, {Scenario: b, Status: Skipped}, {Scenario: a}})
	want := "2 passed, 1 failed, 1 skipped\n" +
		"  clauses/create:  0 passed, 0 failed, 1 skipped\n" +
		"  clauses/match:   2 passed, 1 failed, 0 skipped\n"
	if got := rep.String(); got != want {
		t.Errorf("report:\n%s\nwant:\n%s", got, want)
	}
}
