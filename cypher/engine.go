package cypher

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/gdi-go/gdi/cypher/check"
	"github.com/gdi-go/gdi/cypher/graph"
	"github.com/gdi-go/gdi/cypher/parse"
	"github.com/gdi-go/gdi/cypher/value"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
)

// Engine runs openCypher statements on a GDI database. Each rank of the
// database has its Engine; Run and State are collective. An Engine is
// used by one goroutine at a time. A reading statement that scans the
// whole graph runs as a collective read transaction, which needs a quiet
// database: no other transaction open on any rank while it runs.
type Engine struct {
	comm       rma.Comm
	db         gdi.Database
	schema     *graph.Schema
	nodes      *graph.NodeIndex
	labelNames map[gdi.Label]string
	ptypes     map[gdi.PropertyType]ptypeInfo
	plans      map[string]*plan // by statement text (prepare)
}

// Open returns the engine of db on this rank, finding or making the index
// over all nodes. It is collective.
func Open(comm rma.Comm, db gdi.Database) (*Engine, error) {
	s := graph.NewSchema(db)
	nodes, err := s.NodeIndex()
	if err = rma.Agree(comm, err); err != nil {
		return nil, err
	}
	if err := comm.Barrier(); err != nil {
		return nil, err
	}
	return &Engine{comm: comm, db: db, schema: s, nodes: nodes,
		labelNames: map[gdi.Label]string{}, ptypes: map[gdi.PropertyType]ptypeInfo{}, plans: map[string]*plan{}}, nil
}

// maxEnsureRounds bounds the keys-needed rounds of one statement.
const maxEnsureRounds = 16

// Run runs one statement with the parameters and returns its result. It
// is collective: every rank calls it with the same query and parameters
// and gets the same Result. Errors are *Error values. Run does not keep
// params after it returns, so a caller may set and pass one map for many
// statements, as gdi shell does.
func (e *Engine) Run(ctx context.Context, query string, params map[string]value.Value) (*Result, error) {
	text, explain := stripExplain(query)
	pl, err := e.prepare(text)
	if err != nil {
		return nil, wrapError(err)
	}
	for _, name := range pl.params {
		if _, ok := params[name]; !ok {
			return nil, cypherError(catParameterMissing, "MissingParameter", "parameter $%s is missing", name)
		}
	}
	if explain {
		return explainResult(pl), nil
	}
	if pl.writes {
		nm := collectNames(pl.query, params)
		if err := e.ensure(nm.labels, nm.keys); err != nil {
			return nil, wrapError(err)
		}
	}
	return e.execute(ctx, pl, params)
}

// maxPlans bounds the plans an Engine keeps.
const maxPlans = 256

// prepare returns the plan of a statement's text: analysed and planned
// once, then kept (up to maxPlans; then the kept plans are dropped).
func (e *Engine) prepare(text string) (*plan, error) {
	if pl, ok := e.plans[text]; ok {
		return pl, nil
	}
	q, info, err := analyse(text)
	if err != nil {
		return nil, err
	}
	pl, err := buildPlan(q, info, e.schema)
	if err != nil {
		return nil, err
	}
	if len(e.plans) >= maxPlans {
		clear(e.plans)
	}
	e.plans[text] = pl
	return pl, nil
}

// stripExplain blanks out a leading EXPLAIN keyword, so that the
// positions of errors in the rest stay those of the query as given.
func stripExplain(query string) (string, bool) {
	i := len(query) - len(strings.TrimLeftFunc(query, unicode.IsSpace))
	t := query[i:]
	if len(t) > 7 && strings.EqualFold(t[:7], "EXPLAIN") && unicode.IsSpace(rune(t[7])) {
		return query[:i] + strings.Repeat(" ", 7) + t[7:], true
	}
	return query, false
}

// analyse parses and checks a statement.
func analyse(text string) (*parse.Query, *check.Info, error) {
	q, err := parse.Parse(text)
	if err != nil {
		return nil, nil, err
	}
	info, err := check.Check(q)
	return q, info, err
}

// ensure makes the labels and property keys on every rank and extends the
// node index; collective.
func (e *Engine) ensure(labels, keys []string) error {
	err := rma.Agree(e.comm, e.nodes.Ensure(labels, keys))
	if err != nil {
		return err
	}
	return e.comm.Barrier()
}

// execute runs the plan: collectively if it reads a whole-graph scan
// (collective.go), else on rank 0, which broadcasts the outcome; on "keys
// needed" every rank makes the keys and rank 0 runs the statement again.
func (e *Engine) execute(ctx context.Context, pl *plan, params map[string]value.Value) (*Result, error) {
	if pl.collective != nil {
		return e.executeCollective(ctx, pl, params)
	}
	for range maxEnsureRounds {
		var local outcome
		var original error
		if e.comm.Rank() == 0 {
			local, original = e.executeLocal(ctx, pl, params)
		}
		res, keys, err := e.deliver(local, original)
		if keys == nil {
			return res, err
		}
		if err := e.ensure(nil, keys); err != nil {
			return nil, wrapError(err)
		}
	}
	return nil, wrapError(errors.New("cypher: the statement kept needing new property keys"))
}

// deliver broadcasts rank 0's outcome o and returns it on every rank: the
// result, the keys needed, or the error (with rank 0's original error,
// which the wire form does not carry, under it on rank 0).
func (e *Engine) deliver(o outcome, original error) (*Result, []string, error) {
	o, err := e.broadcast(o)
	switch {
	case err != nil:
		return nil, nil, wrapError(err)
	case o.keys != nil:
		return nil, o.keys, nil
	case o.err != nil:
		if original != nil {
			o.err.Err = original
		}
		return nil, nil, o.err
	}
	return o.res, nil, nil
}

// broadcast sends rank 0's outcome to every other rank (its length, then
// its wire form) and returns it there decoded; rank 0 keeps its own.
func (e *Engine) broadcast(o outcome) (outcome, error) {
	if e.comm.Size() == 1 {
		return o, nil
	}
	var buf []byte
	if e.comm.Rank() == 0 {
		buf = encodeOutcome(o)
	}
	n := []byte{0, 0, 0, 0, 0, 0, 0, 0}
	for i := range n {
		n[i] = byte(uint64(len(buf)) >> (8 * i))
	}
	if err := e.comm.Bcast(n, 0); err != nil {
		return outcome{}, err
	}
	var size uint64
	for i := range n {
		size |= uint64(n[i]) << (8 * i)
	}
	if e.comm.Rank() == 0 {
		return o, e.comm.Bcast(buf, 0)
	}
	buf = make([]byte, size)
	if err := e.comm.Bcast(buf, 0); err != nil {
		return outcome{}, err
	}
	return decodeOutcome(buf)
}

// executeLocal runs the plan in a single-process transaction of rank 0,
// retried on conflicts.
func (e *Engine) executeLocal(ctx context.Context, pl *plan, params map[string]value.Value) (outcome, error) {
	var res *Result
	err := runTransaction(ctx, e.db, func(tx gdi.Transaction) error {
		x := newExecution(ctx, e, tx, params)
		defer x.release()
		r, err := x.run(pl)
		res = r
		return err
	})
	if err == nil {
		return outcome{res: res}, nil
	}
	if kn := (*keysNeeded)(nil); errors.As(err, &kn) {
		return outcome{keys: kn.keys}, nil
	}
	return outcome{err: wrapError(err)}, err
}

// execution is the state of one run of a plan.
type execution struct {
	ctx         context.Context
	eng         *Engine
	st          *store
	params      map[string]value.Value
	cache       map[any]any // per operator: scan candidates, constraints
	constraints []gdi.Constraint
	width       int     // the number of slots of the part running
	localScan   *scanOp // in a collective statement: the scan of this rank's share
}

// newExecution returns the state of a run of a statement in tx, with
// its store, made together.
func newExecution(ctx context.Context, e *Engine, tx gdi.Transaction, params map[string]value.Value) *execution {
	both := &struct {
		x  execution
		st store
	}{st: store{eng: e, tx: tx}}
	both.x = execution{ctx: ctx, eng: e, st: &both.st, params: params}
	return &both.x
}

// release frees the constraints of the execution.
func (x *execution) release() {
	for _, c := range x.constraints {
		_ = c.Free()
	}
}

// run runs every part, joins them (UNION), finishes the deletions and
// takes the Elements of the result's entities.
func (x *execution) run(pl *plan) (*Result, error) {
	res := &Result{Columns: pl.columns}
	var seen map[string]bool // rows of a UNION
	if pl.union {
		seen = map[string]bool{}
	}
	for _, part := range pl.parts {
		x.width = part.slots.n
		rows, err := runOps(x, part.ops, []row{make(row, part.slots.n)})
		if err != nil {
			return nil, err
		}
		res.addRows(rows, part.columns, seen)
	}
	if err := x.st.finish(); err != nil {
		return nil, err
	}
	return res, x.st.snapshotResult(res)
}

// addRows appends the result rows of a pipeline's rows, with the columns'
// slots cols; with seen (a UNION) only those not seen before.
func (res *Result) addRows(rows []row, cols []int, seen map[string]bool) {
	for _, r := range rows {
		out := resultRow(r, cols)
		if seen != nil {
			k := rowKey(out, seq(len(out)))
			if seen[k] {
				continue
			}
			seen[k] = true
		}
		if len(out) > 0 {
			res.Rows = append(res.Rows, out)
		}
	}
}

// resultRow is the row of the result of a pipeline's row: the values of
// the columns' slots, which are r's own when they follow each other (the
// pipeline is done with r).
func resultRow(r row, cols []int) row {
	if len(cols) > 0 && cols[len(cols)-1]-cols[0] == len(cols)-1 && slices.IsSorted(cols) {
		return r[cols[0] : cols[0]+len(cols) : cols[0]+len(cols)]
	}
	out := make(row, len(cols))
	for j, s := range cols {
		out[j] = r[s]
	}
	return out
}

// String describes the engine.
func (e *Engine) String() string {
	return fmt.Sprintf("cypher engine on rank %d of %d", e.comm.Rank(), e.comm.Size())
}
