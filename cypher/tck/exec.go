package tck

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gdi-go/gdi/cypher/value"
)

// scenarioRun is the state of a scenario while its steps run.
type scenarioRun struct {
	eng     Engine
	params  map[string]value.Value
	ran     bool    // a query has run
	res     *Result // of the last query (executing query or control query)
	err     error   // of the last query
	effects SideEffects
	diffed  bool // effects holds the side effects of the last executing query
}

// verdict ends a scenario before its last step.
type verdict struct {
	status Status
	reason string
}

func failf(format string, args ...any) *verdict {
	return &verdict{Failed, fmt.Sprintf(format, args...)}
}

// errVerdict skips the scenario for an error saying NotSupported, and
// fails it for any other.
func errVerdict(err error, context string) *verdict {
	if IsNotSupported(err) {
		return &verdict{Skipped, err.Error()}
	}
	return failf("%s: %s", context, describe(err))
}

// describe writes an error with its TCK category and detail, if any and
// if its text does not already show them.
func describe(err error) string {
	var ce CypherError
	if !errors.As(err, &ce) {
		return err.Error()
	}
	head := fmt.Sprintf("%s (%s)", ce.TCKCategory(), ce.TCKDetail())
	if strings.HasPrefix(err.Error(), head) {
		return err.Error()
	}
	return head + ": " + err.Error()
}

// precheck decides the scenarios that cannot run: those tagged @ignore,
// those with a step the runner does not know (failed), those that need a
// named graph or a procedure (skipped).
func precheck(sc *Scenario) *verdict {
	if sc.HasTag("@ignore") {
		return &verdict{Skipped, "tagged @ignore"}
	}
	for _, st := range sc.Steps {
		if st.Form == FormUnknown {
			return failf("line %d: %s", st.Line, st.Problem)
		}
	}
	for _, st := range sc.Steps {
		switch st.Form {
		case FormNamedGraph:
			return &verdict{Skipped, fmt.Sprintf("the named graph %q is not available", st.Graph)}
		case FormProcedure:
			return &verdict{Skipped, "procedures are not supported"}
		}
	}
	return nil
}

// step runs one step.
func (r *scenarioRun) step(st Step) *verdict {
	switch st.Form {
	case FormEmptyGraph:
		return r.checkEmptyGraph()
	case FormSetup:
		if _, err := r.eng.Run(st.Doc, nil); err != nil {
			return errVerdict(err, "setup query failed")
		}
	case FormParameters:
		params, err := Params(st.Table)
		if err != nil {
			return failf("%v", err)
		}
		r.params = params
	case FormQuery:
		return r.query(st.Doc)
	case FormControlQuery:
		r.res, r.err = r.eng.Run(st.Doc, nil)
		r.ran = true
		if IsNotSupported(r.err) {
			return errVerdict(r.err, "")
		}
	case FormResult, FormResultEmpty:
		return r.checkResult(st)
	case FormNoSideEffects, FormSideEffects:
		return r.checkSideEffects(st.Table)
	case FormError:
		return r.checkError(st.Error)
	}
	return nil
}
