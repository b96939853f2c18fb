package cypher

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gdi-go/gdi/cypher/internal/backendtest"
	"github.com/gdi-go/gdi/cypher/value"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// onEvery runs fn on every rank of a fresh database of every backend with
// an open Engine.
func onEvery(t *testing.T, fn func(t *testing.T, e *Engine) error) {
	t.Helper()
	for _, b := range backendtest.All {
		err := local.Run(b.Ranks, func(c rma.Comm) error {
			return withEngine(c, b.Driver, func(e *Engine, _ gdi.Database) error { return fn(t, e) })
		})
		if err != nil {
			t.Fatalf("%v: %v", b, err)
		}
	}
}

// withEngine runs fn on this rank with an engine on a fresh database of
// driver d, which it frees after.
func withEngine(c rma.Comm, d gdi.Driver, fn func(*Engine, gdi.Database) error) error {
	return backendtest.WithDatabase(c, d, func(c rma.Comm, db gdi.Database) error {
		e, err := Open(c, db)
		if err != nil {
			return err
		}
		return fn(e, db)
	})
}

// statement is one statement of a script, with its parameters.
type statement struct {
	query  string
	params map[string]value.Value
}

// runScript runs the statements in order on every backend and returns,
// for each backend, the outcome of each statement as text (see
// outcomeText). It fails the test if the ranks of a backend disagree.
func runScript(t *testing.T, stmts []statement, ordered bool) [][]string {
	t.Helper()
	var mu sync.Mutex
	var all [][]string
	onEvery(t, func(t *testing.T, e *Engine) error {
		var texts []string
		for _, s := range stmts {
			res, err := e.Run(context.Background(), s.query, s.params)
			texts = append(texts, outcomeText(res, err, ordered))
		}
		mu.Lock()
		defer mu.Unlock()
		if e.comm.Rank() == 0 {
			all = append(all, texts)
		} else if !slices.Equal(all[len(all)-1], texts) {
			t.Errorf("rank %d got %q, rank 0 %q", e.comm.Rank(), texts, all[len(all)-1])
		}
		return nil
	})
	return all
}

// outcomeText is "col1 | col2" then one line per row (sorted unless
// ordered), or "error Category/Detail" (NotSupported for unsupported).
func outcomeText(res *Result, err error, ordered bool) string {
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			return "error " + err.Error()
		}
		if e.NotSupported() {
			return "error NotSupported"
		}
		if e.TCKCategory() == "" {
			return "error " + e.Error()
		}
		return "error " + e.TCKCategory() + "/" + e.TCKDetail()
	}
	var lines []string
	for _, r := range res.Strings() {
		lines = append(lines, strings.Join(r, " | "))
	}
	if !ordered {
		slices.Sort(lines)
	}
	return strings.Join(append([]string{strings.Join(res.Columns, " | ")}, lines...), "\n")
}

// expect runs setup then query on every backend and compares the last
// outcome with want on each.
func expect(t *testing.T, setup []string, query string, params map[string]value.Value, ordered bool, want string) {
	t.Helper()
	var stmts []statement
	for _, s := range setup {
		stmts = append(stmts, statement{query: s})
	}
	stmts = append(stmts, statement{query: query, params: params})
	for i, texts := range runScript(t, stmts, ordered) {
		for j, s := range texts[:len(texts)-1] {
			if strings.HasPrefix(s, "error") {
				t.Errorf("backend %d: setup %q: %s", i, setup[j], s)
			}
		}
		if got := texts[len(texts)-1]; got != want {
			t.Errorf("backend %d: %s\ngot:\n%s\nwant:\n%s", i, query, got, want)
		}
	}
}

func ints(xs ...int64) value.Value {
	l := make([]value.Value, len(xs))
	for i, x := range xs {
		l[i] = value.Int(x)
	}
	return value.NewList(l)
}

var _ = fmt.Sprint
