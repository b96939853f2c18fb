package tck

import (
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/gdi-go/gdi/cypher/value"
)

// fakeEngine is a hard-coded engine for the tests of the runner: it
// answers the queries of testdata/runner/Runner.feature from fakeAnswers.
type fakeEngine struct {
	state   State
	release <-chan struct{} // closed when a blocked query may return
	closed  *atomic.Int32
}

// answer is the canned answer to a query.
type answer struct {
	res   *Result
	err   error
	after *State // the graph after the query; nil leaves it unchanged
	panic bool
	block bool // wait for release, then answer
}

// cypherErr is an engine error with the TCK's category and detail.
type cypherErr struct{ cat, detail string }

func (e cypherErr) Error() string       { return "fake " + e.cat + " " + e.detail }
func (e cypherErr) TCKCategory() string { return e.cat }
func (e cypherErr) TCKDetail() string   { return e.detail }

// notSupportedErr is an engine error for what it does not implement.
type notSupportedErr struct{ what string }

func (e notSupportedErr) Error() string    { return e.what + " is not supported" }
func (notSupportedErr) NotSupported() bool { return true }

func rows(cols []string, cells ...[]string) *Result { return &Result{Columns: cols, Rows: cells} }

func node(id string, labels ...string) StateNode { return StateNode{ID: id, Labels: labels} }

var (
	twoAs = &State{Nodes: []StateNode{
		{ID: "1", Labels: []string{"A"}, Props: map[string]string{"name": "'a'"}},
		{ID: "2", Labels: []string{"A"}, Props: map[string]string{"name": "'b'"}},
	}}
	x1          = rows([]string{"x"}, []string{"1"})
	typeErr     = cypherErr{"TypeError", "InvalidArgumentType"}
	fakeAnswers = map[string]answer{
		"CREATE (:A {name: 'a'}), (:A {name: 'b'})": {res: &Result{}, after: twoAs},
		"MATCH (n:A) RETURN n, n.name AS name": {res: rows([]string{"n", "name"},
			[]string{"(:A {name: 'b'})", "'b'"}, []string{"(:A{name:'a'})", "'a'"})},
		"RETURN 'wrong row' AS x":                {res: rows([]string{"x"}, []string{"'wrong row'"})},
		"UNWIND [2, 1] AS x RETURN x ORDER BY x": {res: rows([]string{"x"}, []string{"2"}, []string{"1"})},
		"CREATE (:B {k: 1})": {res: &Result{}, after: &State{Nodes: []StateNode{
			{ID: "7", Labels: []string{"B"}, Props: map[string]string{"k": "1"}}}}},
		"CREATE (:B {k: 2})": {res: &Result{}, after: &State{Nodes: []StateNode{
			{ID: "7", Labels: []string{"B"}, Props: map[string]string{"k": "2"}}, node("8", "B")}}},
		"RETURN toInteger([]) AS x": {err: cypherErr{"TypeError", "InvalidArgumentValue"}},
		"RETURN abs('a') AS x":      {err: fmt.Errorf("wrapped: %w", typeErr)},
		"RETURN undefined AS x":     {err: cypherErr{"SyntaxError", ""}},
		"RETURN plain AS x":         {err: errors.New("plain failure")},
		"CALL db.labels()":          {err: fmt.Errorf("engine: %w", notSupportedErr{"CALL"})},
		"RETURN panic AS x":         {panic: true},
		"RETURN forever AS x":       {block: true, res: &Result{}},
		"CREATE (:A)-[:T]->(:B)": {res: &Result{}, after: &State{Nodes: []StateNode{node("1", "A"), node("2", "B")},
			Rels: []StateRel{{ID: "1", Type: "T"}}}},
		"MATCH (a)-[r]->(b) RETURN a, r, b": {res: rows([]string{"a", "r", "b"}, []string{"(:A)", "[:T]", "(:B)"})},
		"RETURN 1 AS x":                     {res: x1},
		"CREATE (":                          {err: cypherErr{"SyntaxError", "UnexpectedSyntax"}},
		"RETURN [[3, 1], [2]] AS l":         {res: rows([]string{"l"}, []string{"[[3, 1], [2]]"})},
	}
)

func (e *fakeEngine) Run(query string, params map[string]value.Value) (*Result, error) {
	if query == "RETURN $p AS p" {
		return rows([]string{"p"}, []string{value.Format(params["p"], nil)}), nil
	}
	a, ok := fakeAnswers[query]
	switch {
	case !ok:
		return nil, fmt.Errorf("the fake engine does not know %q", query)
	case a.panic:
		panic("boom")
	case a.block:
		<-e.release
	}
	if a.after != nil {
		e.state = *a.after
	}
	return a.res, a.err
}

func (e *fakeEngine) State() (*State, error) {
	s := e.state
	return &s, nil
}

func (e *fakeEngine) Close() error {
	e.closed.Add(1)
	return nil
}
