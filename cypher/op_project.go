package cypher

import (
	"encoding/binary"
	"slices"
	"strings"

	"github.com/gdi-go/gdi/cypher/value"
)

// projectOp writes the items' values into the columns' slots; the items
// are all evaluated before any is written.
type projectOp struct {
	items []expr
	cols  []int
	names []string
}

func (o *projectOp) run(x *execution, in []row) ([]row, error) {
	out := make([]row, len(in))
	for i, r := range in {
		vs, err := evalAll(x, r, o.items)
		if err != nil {
			return nil, err
		}
		rr := append(row(nil), r...)
		for j, s := range o.cols {
			rr[s] = vs[j]
		}
		out[i] = rr
	}
	return out, nil
}

func (o *projectOp) explain() string { return "Project " + strings.Join(o.names, ", ") }

// cutOp keeps the columns of a projection and clears every other slot.
type cutOp struct{ cols []int }

func (o *cutOp) run(_ *execution, in []row) ([]row, error) {
	for i, r := range in {
		rr := make(row, len(r))
		for _, s := range o.cols {
			rr[s] = r[s]
		}
		in[i] = rr
	}
	return in, nil
}

func (o *cutOp) explain() string { return "" }

// rowKey is the grouping key of the values of slots: equivalent values
// give equal keys.
func rowKey(r row, slots []int) string {
	var b []byte
	for _, s := range slots {
		k := value.AppendKey(nil, r[s])
		b = binary.AppendUvarint(b, uint64(len(k)))
		b = append(b, k...)
	}
	return string(b)
}

// distinctOp keeps the first row of each set of rows with equivalent
// columns.
type distinctOp struct{ cols []int }

func (o *distinctOp) run(_ *execution, in []row) ([]row, error) {
	seen := map[string]bool{}
	var out []row
	for _, r := range in {
		k := rowKey(r, o.cols)
		if !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	return out, nil
}

func (o *distinctOp) explain() string { return "Distinct" }

// sortOp orders rows by its keys, stably.
type sortOp struct {
	keys []expr
	desc []bool
	text string
}

func (o *sortOp) run(x *execution, in []row) ([]row, error) {
	type keyed struct {
		r  row
		ks []value.Value
	}
	rows := make([]keyed, len(in))
	for i, r := range in {
		ks, err := evalAll(x, r, o.keys)
		if err != nil {
			return nil, err
		}
		rows[i] = keyed{r, ks}
	}
	slices.SortStableFunc(rows, func(a, b keyed) int {
		for i := range o.keys {
			c := value.Compare(a.ks[i], b.ks[i])
			if o.desc[i] {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return 0
	})
	out := make([]row, len(rows))
	for i, k := range rows {
		out[i] = k.r
	}
	return out, nil
}

func (o *sortOp) explain() string { return "Sort " + o.text }

// sliceOp is SKIP n or LIMIT n.
type sliceOp struct {
	n    expr
	skip bool
	text string
}

func (o *sliceOp) run(x *execution, in []row) ([]row, error) {
	v, err := o.n(x, nil)
	if err != nil {
		return nil, err
	}
	what := "LIMIT"
	if o.skip {
		what = "SKIP"
	}
	if v.Kind() != value.KindInteger {
		if v.Kind() == value.KindFloat && v.Float() == float64(int64(v.Float())) && v.Float() >= 0 {
			v = value.Int(int64(v.Float()))
		} else {
			return nil, cypherError(catSyntaxError, "InvalidArgumentType", "%s needs a non-negative integer, not %v", what, v)
		}
	}
	n := v.Int()
	if n < 0 {
		return nil, cypherError(catSyntaxError, "NegativeIntegerArgument", "%s needs a non-negative integer, not %d", what, n)
	}
	if n > int64(len(in)) {
		n = int64(len(in))
	}
	if o.skip {
		return in[n:], nil
	}
	return in[:n], nil
}

func (o *sliceOp) explain() string {
	if o.skip {
		return "Skip " + o.text
	}
	return "Limit " + o.text
}

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
		if err := o.add(x, g, r); err != nil {
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
			rr[a.slot] = g.aggs[j].Result()
		}
		out[i] = rr
	}
	return out, nil
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
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
