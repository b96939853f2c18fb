package cypher

import (
	"maps"
	"slices"

	"github.com/gdi-go/gdi/cypher/check"
	"github.com/gdi-go/gdi/cypher/graph"
	"github.com/gdi-go/gdi/cypher/parse"
)

// plan is a statement ready to run: one pipeline per part of a UNION.
// It does not change when it runs, nor depend on the parameters' values,
// so one plan serves every run of its statement (Engine.prepare).
type plan struct {
	query    *parse.Query
	params   []string // the parameters it reads, sorted
	parts    []*partPlan
	union    bool // a UNION (not ALL): rows are made distinct
	writes   bool // the statement has an updating clause
	columns  []string
	explains []string
	// collective is the split of a statement that runs as a collective
	// read (collective.go); nil for one that runs on rank 0.
	collective *collectiveSplit
}

// partPlan is the left-deep pipeline of one single query.
type partPlan struct {
	slots   *slotTable
	ops     []operator
	columns []int // the slot of each result column, in plan.columns order
}

// operator is one stage of a pipeline: it maps the rows of the stage
// before to its own, in order.
type operator interface {
	run(x *execution, in []row) ([]row, error)
	// explain describes the operator in one line of EXPLAIN.
	explain() string
}

// buildPlan plans every part of q.
func buildPlan(q *parse.Query, info *check.Info, schema *graph.Schema) (*plan, error) {
	pl := &plan{query: q, columns: info.Columns, writes: writes(q)}
	params := map[string]bool{}
	if len(q.Unions) > 0 {
		pl.union = !q.Unions[0].All
	}
	for i, part := range q.Parts {
		pp, err := planPart(part, info.Parts[i], params, schema)
		if err != nil {
			return nil, err
		}
		for _, name := range info.Columns {
			pp.columns = append(pp.columns, pp.slots.names[name])
		}
		pl.parts = append(pl.parts, pp)
	}
	pl.params = slices.Sorted(maps.Keys(params))
	pl.collective = pl.splitForCollective()
	return pl, nil
}

// planner holds the state of planning one single query.
type planner struct {
	schema *graph.Schema
	slots  *slotTable
	params map[string]bool // the parameters the plan reads
	bound  map[string]bool // variables in scope before the clause planned
	ops    []operator
}

func planPart(q *parse.SingleQuery, info *check.PartInfo, params map[string]bool, schema *graph.Schema) (*partPlan, error) {
	p := &planner{schema: schema, slots: newSlotTable(), params: params, bound: map[string]bool{}}
	for i, cl := range q.Clauses {
		ci := info.Clauses[i]
		if err := p.clause(cl, ci); err != nil {
			return nil, err
		}
		p.bound = map[string]bool{}
		for _, v := range ci.Scope {
			p.bound[v.Name] = true
			p.slots.of(v.Name)
		}
	}
	return &partPlan{slots: p.slots, ops: p.ops}, nil
}

func (p *planner) compiler() *compiler {
	return &compiler{schema: p.schema, slots: p.slots, params: p.params}
}

func (p *planner) add(ops ...operator) { p.ops = append(p.ops, ops...) }

// clause plans one clause.
func (p *planner) clause(cl parse.Clause, ci *check.ClauseInfo) error {
	switch cl := cl.(type) {
	case *parse.Match:
		return p.match(cl)
	case *parse.Unwind:
		f, err := p.compiler().compile(cl.Expr)
		if err != nil {
			return err
		}
		p.add(&unwindOp{list: f, slot: p.slots.of(cl.Var.Name), text: parse.Format(cl.Expr) + " AS " + cl.Var.Name})
		return nil
	case *parse.With:
		return p.projection(ci.Projection, cl.Projection, cl.Where)
	case *parse.Return:
		return p.projection(ci.Projection, cl.Projection, nil)
	case *parse.Create:
		return p.create(cl)
	case *parse.Set:
		return p.set(cl)
	case *parse.Remove:
		return p.remove(cl)
	case *parse.Delete:
		return p.delete(cl)
	}
	return notSupported("clause %s", cl)
}

// filter compiles a predicate into a Filter operator.
func (p *planner) filter(e parse.Expr) (operator, error) {
	f, err := p.compiler().compile(e)
	if err != nil {
		return nil, err
	}
	return &filterOp{pred: f, text: parse.Format(e)}, nil
}
