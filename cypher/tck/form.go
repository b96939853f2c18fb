package tck

import (
	"fmt"
	"regexp"
	"strings"
)

// Form is what a step asks for.
type Form uint8

// The step forms of the TCK.
const (
	FormUnknown       Form = iota // a step the runner does not know: the scenario fails
	FormEmptyGraph                // Given an empty graph
	FormAnyGraph                  // Given any graph (run on an empty graph)
	FormNamedGraph                // Given the <name> graph (not supported: skipped)
	FormProcedure                 // And there exists a procedure …: (not supported: skipped)
	FormSetup                     // And having executed: """…"""
	FormParameters                // And parameters are: | name | value |
	FormQuery                     // When executing query: """…"""
	FormControlQuery              // When executing control query: """…"""
	FormResult                    // Then the result should be, in any order: (or in order, or ignoring element order for lists) | table |
	FormResultEmpty               // Then the result should be empty
	FormNoSideEffects             // And no side effects
	FormSideEffects               // And the side effects should be: | +nodes | 1 |
	FormError                     // Then a TypeError should be raised at runtime: InvalidArgumentValue
)

// StepForm is the meaning of a step's text.
type StepForm struct {
	Form           Form
	InOrder        bool          // FormResult: rows in order
	ListsUnordered bool          // FormResult: ignoring element order for lists
	Graph          string        // FormNamedGraph: the graph's name
	Error          ExpectedError // FormError
	Problem        string        // FormUnknown: what is wrong with the step
}

// ExpectedError is the error a FormError step expects.
type ExpectedError struct {
	Category string // SyntaxError, TypeError, …
	Phase    string // compile time, runtime or any time
	Detail   string // UndefinedVariable, InvalidArgumentValue, …; empty for any (written * or left out)
}

func (e ExpectedError) String() string {
	return fmt.Sprintf("%s at %s: %s", e.Category, e.Phase, e.Detail)
}

var fixedForms = map[string]StepForm{
	"an empty graph":                      {Form: FormEmptyGraph},
	"any graph":                           {Form: FormAnyGraph},
	"having executed:":                    {Form: FormSetup},
	"parameters are:":                     {Form: FormParameters},
	"executing query:":                    {Form: FormQuery},
	"executing control query:":            {Form: FormControlQuery},
	"the result should be, in any order:": {Form: FormResult},
	"the result should be, in order:":     {Form: FormResult, InOrder: true},
	"the result should be (ignoring element order for lists):":               {Form: FormResult, ListsUnordered: true},
	"the result should be, in any order (ignoring element order for lists):": {Form: FormResult, ListsUnordered: true},
	"the result should be, in order (ignoring element order for lists):":     {Form: FormResult, InOrder: true, ListsUnordered: true},
	"the result should be empty":                                             {Form: FormResultEmpty},
	"no side effects":                                                        {Form: FormNoSideEffects},
	"the side effects should be:":                                            {Form: FormSideEffects},
}

var (
	errorStep     = regexp.MustCompile(`^an? (\w+) should be raised at (compile time|runtime|any time):\s*(\w*|\*)$`)
	namedGraph    = regexp.MustCompile(`^the (\S+) graph$`)
	procedureStep = regexp.MustCompile(`^there exists a procedure .*:$`)
)

// recognise tells what st asks for, checking that it has the doc string
// or table its form needs.
func recognise(st Step) StepForm {
	f, ok := fixedForms[st.Text]
	switch m := errorStep.FindStringSubmatch(st.Text); {
	case ok:
	case m != nil:
		f = StepForm{Form: FormError, Error: ExpectedError{Category: m[1], Phase: m[2], Detail: strings.TrimSuffix(m[3], "*")}}
	case namedGraph.MatchString(st.Text):
		f = StepForm{Form: FormNamedGraph, Graph: namedGraph.FindStringSubmatch(st.Text)[1]}
	case procedureStep.MatchString(st.Text):
		f = StepForm{Form: FormProcedure}
	default:
		return StepForm{Problem: fmt.Sprintf("unrecognised step %q", st.Keyword+" "+st.Text)}
	}
	if p := argumentProblem(f.Form, st); p != "" {
		return StepForm{Problem: fmt.Sprintf("step %q %s", st.Text, p)}
	}
	return f
}

// argumentProblem says what is wrong with the doc string or table of a
// step of form f, or "".
func argumentProblem(f Form, st Step) string {
	needDoc := f == FormSetup || f == FormQuery || f == FormControlQuery
	needTable := f == FormParameters || f == FormSideEffects || f == FormResult || f == FormProcedure
	switch {
	case needDoc && !st.HasDoc:
		return "needs a doc string"
	case needTable && len(st.Table) == 0:
		return "needs a table"
	case !needDoc && st.HasDoc:
		return "takes no doc string"
	case !needTable && st.Table != nil:
		return "takes no table"
	}
	return ""
}

var formNames = [...]string{
	FormUnknown: "unknown", FormEmptyGraph: "an empty graph", FormAnyGraph: "any graph",
	FormNamedGraph: "named graph", FormProcedure: "procedure", FormSetup: "having executed",
	FormParameters: "parameters are", FormQuery: "executing query", FormControlQuery: "executing control query",
	FormResult: "the result should be", FormResultEmpty: "the result should be empty",
	FormNoSideEffects: "no side effects", FormSideEffects: "the side effects should be", FormError: "error raised",
}

func (f Form) String() string {
	if int(f) < len(formNames) {
		return formNames[f]
	}
	return "Form(?)"
}
