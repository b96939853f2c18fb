package tck

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"time"
)

// Options tune a run.
type Options struct {
	// Filter, if not empty, selects the scenarios whose feature path or
	// name contains it.
	Filter string
	// Verbose, if not nil, receives one line per scenario as it ends.
	Verbose io.Writer
	// Timeout bounds each scenario: 0 means DefaultTimeout, a negative
	// value no bound. A scenario that runs out of time fails; its
	// goroutine is abandoned with its engine, which is not closed.
	Timeout time.Duration
}

// DefaultTimeout is the bound on a scenario when Options.Timeout is 0.
const DefaultTimeout = time.Minute

// Run reads the features under dir and runs their scenarios, each on a
// fresh engine from newEngine.
func Run(dir string, newEngine func() (Engine, error), opts Options) (*Report, error) {
	features, err := ReadDir(dir)
	if err != nil {
		return nil, err
	}
	if len(features) == 0 {
		return nil, fmt.Errorf("no .feature files under %s", dir)
	}
	return RunScenarios(Scenarios(features), newEngine, opts), nil
}

// RunScenarios runs the scenarios that opts selects, one after the other.
func RunScenarios(scenarios []*Scenario, newEngine func() (Engine, error), opts Options) *Report {
	var outcomes []Outcome
	for _, sc := range scenarios {
		if opts.Filter != "" && !strings.Contains(sc.Path, opts.Filter) && !strings.Contains(sc.Name, opts.Filter) {
			continue
		}
		start := time.Now()
		out := runScenario(sc, newEngine, opts.timeout())
		out.Elapsed = time.Since(start)
		outcomes = append(outcomes, out)
		opts.log(out)
	}
	return NewReport(outcomes)
}

func (o Options) timeout() time.Duration {
	if o.Timeout == 0 {
		return DefaultTimeout
	}
	return o.Timeout
}

func (o Options) log(out Outcome) {
	if o.Verbose == nil {
		return
	}
	fmt.Fprintf(o.Verbose, "%s (%v)\n", out, out.Elapsed.Round(time.Millisecond))
	if out.Stack != "" {
		fmt.Fprintln(o.Verbose, out.Stack)
	}
}

// runScenario runs sc in a goroutine of its own, so that a scenario that
// hangs can be abandoned after timeout (when timeout is not negative).
func runScenario(sc *Scenario, newEngine func() (Engine, error), timeout time.Duration) Outcome {
	done := make(chan Outcome, 1)
	go func() { done <- execute(sc, newEngine) }()
	if timeout < 0 {
		return <-done
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case out := <-done:
		return out
	case <-timer.C:
		return Outcome{Scenario: sc, Status: Failed, Reason: fmt.Sprintf("timed out after %v", timeout)}
	}
}

// execute runs the steps of sc on a fresh engine. A panic fails the
// scenario, and so does an error of Close when all else went well.
func execute(sc *Scenario, newEngine func() (Engine, error)) (out Outcome) {
	out = Outcome{Scenario: sc, Status: Passed}
	line := sc.Line // of the step running
	defer func() {
		if p := recover(); p != nil {
			out.Status, out.Reason, out.Stack = Failed, fmt.Sprintf("line %d: panic: %v", line, p), string(debug.Stack())
		}
	}()
	if v := precheck(sc); v != nil {
		out.Status, out.Reason = v.status, v.reason
		return out
	}
	eng, err := newEngine()
	if err != nil {
		v := errVerdict(err, "cannot make an engine")
		out.Status, out.Reason = v.status, v.reason
		return out
	}
	defer func() {
		if err := eng.Close(); err != nil && out.Status == Passed {
			out.Status, out.Reason = Failed, fmt.Sprintf("Close: %v", err)
		}
	}()
	r := &scenarioRun{eng: eng}
	for _, st := range sc.Steps {
		line = st.Line
		if v := r.step(st); v != nil {
			out.Status, out.Reason = v.status, fmt.Sprintf("line %d: %s", st.Line, v.reason)
			return out
		}
	}
	return out
}
