package cypher

import (
	"strings"

	"github.com/gdi-go/gdi/cypher/value"
)

// aggregateOp groups rows by the values of its keys and folds the
// aggregating calls per group. Each group gives its first row with the
// aggregates' slots filled; the projection after it evaluates the items
// there (the keys, and expressions of them, read the same on every row of
// a group). Without keys an empty input still gives one group.
type aggregateOp struct {
	keys     []expr
	keyNames []string // the columns of the grouping keys, for EXPLAIN
	aggs     []*aggSpec
}

type group struct {
	first row
	aggs  []value.Aggregate
}

func (o *aggregateOp) run(x *execution, in []row) ([]row, error) {
	return o.fold(x, in, o.add, value.Aggregate.Result)
}

// fold groups the rows in by the keys, folds each row into its group with
// step, and gives each group's first row with the aggregates' slots set
// to end of its aggregates.
func (o *aggregateOp) fold(x *execution, in []row, step func(*execution, *group, row) error, end func(value.Aggregate) value.Value) ([]row, error) {
	var order []*group
	groups := map[string]*group{}
	for _, r := range in {
		ks, err := evalAll(x, r, o.keys)
		if err != nil {
			return nil, err
		}
		k := rowKey(ks, seq(len(ks)))
		g := groups[k]
		if g == nil {
			if g, err = o.newGroup(r); err != nil {
				return nil, err
			}
			groups[k] = g
			order = append(order, g)
		}
		if err := step(x, g, r); err != nil {
			return nil, err
		}
	}
	if len(in) == 0 && len(o.keys) == 0 {
		g, err := o.newGroup(make(row, x.width))
		if err != nil {
			return nil, err
		}
		order = append(order, g)
	}
	out := make([]row, len(order))
	for i, g := range order {
		rr := append(row(nil), g.first...)
		for j, a := range o.aggs {
			rr[a.slot] = end(g.aggs[j])
		}
		out[i] = rr
	}
	return out, nil
}

func (o *aggregateOp) newGroup(r row) (*group, error) {
	g := &group{first: r}
	for _, a := range o.aggs {
		var agg value.Aggregate
		var err error
		if a.star {
			agg = value.NewCountStar()
		} else if agg, err = value.NewAggregate(a.name, a.distinct); err != nil {
			return nil, err
		}
		g.aggs = append(g.aggs, agg)
	}
	return g, nil
}

func (o *aggregateOp) add(x *execution, g *group, r row) error {
	for j, a := range o.aggs {
		vs, err := evalAll(x, r, a.args)
		if err != nil {
			return err
		}
		switch {
		case a.star:
			err = g.aggs[j].Add(value.Null)
		case len(vs) == 2:
			b, ok := g.aggs[j].(value.BinaryAggregate)
			if !ok {
				return cypherError(catSyntaxError, "InvalidNumberOfArguments", "%s takes one argument", a.name)
			}
			err = b.AddWith(vs[0], vs[1])
		case len(vs) == 1:
			err = g.aggs[j].Add(vs[0])
		default:
			return cypherError(catSyntaxError, "InvalidNumberOfArguments", "%s takes one argument", a.name)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (o *aggregateOp) explain() string {
	var texts []string
	for _, a := range o.aggs {
		texts = append(texts, a.text)
	}
	if len(o.keyNames) == 0 {
		return "Aggregate " + strings.Join(texts, ", ")
	}
	return "Aggregate " + strings.Join(texts, ", ") + " by " + strings.Join(o.keyNames, ", ")
}

// partial reports whether every aggregate of o can be computed in parts
// (value.Partial): then each rank of a collective statement aggregates
// its own rows, and rank 0 merges the parts.
func (o *aggregateOp) partial() bool {
	g, err := o.newGroup(nil)
	if err != nil {
		return false
	}
	for _, a := range g.aggs {
		if _, ok := a.(value.Partial); !ok {
			return false
		}
	}
	return true
}

// partialAggregateOp is the aggregation of one rank's rows: each group's
// aggregates' slots hold their states.
type partialAggregateOp struct{ *aggregateOp }

func (o partialAggregateOp) run(x *execution, in []row) ([]row, error) {
	return o.fold(x, in, o.add, func(a value.Aggregate) value.Value { return a.(value.Partial).State() })
}

func (o partialAggregateOp) explain() string { return o.aggregateOp.explain() + " (partial)" }

// mergeAggregateOp groups the rows of partialAggregateOp, from every rank,
// by their keys again and merges their states.
type mergeAggregateOp struct{ *aggregateOp }

func (o mergeAggregateOp) run(x *execution, in []row) ([]row, error) {
	return o.fold(x, in, o.merge, value.Aggregate.Result)
}

func (o mergeAggregateOp) merge(_ *execution, g *group, r row) error {
	for j, a := range o.aggs {
		if err := g.aggs[j].(value.Partial).Merge(r[a.slot]); err != nil {
			return err
		}
	}
	return nil
}

func (o mergeAggregateOp) explain() string { return o.aggregateOp.explain() + " (merge)" }
