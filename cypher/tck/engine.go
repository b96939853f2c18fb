package tck

import (
	"errors"

	"github.com/gdi-go/gdi/cypher/value"
)

// An Engine runs Cypher statements on one graph. The runner makes a fresh
// Engine for each scenario.
type Engine interface {
	// Run runs one statement with its parameters and returns its result.
	Run(query string, params map[string]value.Value) (*Result, error)
	// State lists the graph, for the side effects of a statement.
	State() (*State, error)
	// Close releases the engine's database.
	Close() error
}

// A Result is the columns and rows of a statement, each cell written in
// the TCK's notation by the engine (nodes as (:L {k: 'v'}), relationships
// as [:T {k: 1}], paths as <(:A)-[:T]->(:B)>, lists [1, 2], maps {k: 1},
// strings 'text', null, floats 1.0).
type Result struct {
	Columns []string
	Rows    [][]string
}

// State is the graph: every node and relationship with an identity that
// stays the same while the object exists.
type State struct {
	Nodes []StateNode
	Rels  []StateRel
}

// StateNode is one node of a State; its property values are in the TCK's
// notation.
type StateNode struct {
	ID     string
	Labels []string
	Props  map[string]string
}

// StateRel is one relationship of a State; its property values are in the
// TCK's notation.
type StateRel struct {
	ID    string
	Type  string
	Props map[string]string
}

// CypherError is an error of the engine that carries the TCK's error
// category (SyntaxError, TypeError, …) and detail (UndefinedVariable,
// InvalidArgumentValue, …). The runner finds it with errors.As.
type CypherError interface {
	error
	TCKCategory() string
	TCKDetail() string
}

// notSupported is implemented by the errors of features the engine does
// not implement: a scenario meeting one is skipped.
type notSupported interface {
	NotSupported() bool
}

// IsNotSupported reports whether err, or an error it wraps, says that the
// engine does not support what it was asked to do.
func IsNotSupported(err error) bool {
	var ns notSupported
	return errors.As(err, &ns) && ns.NotSupported()
}
