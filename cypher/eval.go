package cypher

import (
	"github.com/gdi-go/gdi/cypher/graph"
	"github.com/gdi-go/gdi/cypher/parse"
	"github.com/gdi-go/gdi/cypher/value"
)

// row is one row of the pipeline: a value per slot of the single query's
// slot table; unbound slots are null.
type row []value.Value

// expr is a compiled expression: it evaluates on a row.
type expr func(x *execution, r row) (value.Value, error)

// slotTable names the slots of a single query's rows: one per variable
// name, and hidden ones for anonymous pattern elements, aggregates and
// comprehension variables.
type slotTable struct {
	names map[string]int
	n     int
}

func newSlotTable() *slotTable { return &slotTable{names: map[string]int{}} }

// of returns the slot of a variable, making it on first use.
func (t *slotTable) of(name string) int {
	if s, ok := t.names[name]; ok {
		return s
	}
	t.names[name] = t.n
	t.n++
	return t.n - 1
}

// fresh returns a new hidden slot.
func (t *slotTable) fresh() int {
	t.n++
	return t.n - 1
}

// compiler turns AST expressions into exprs.
type compiler struct {
	schema *graph.Schema // property keys are bound to their families when compiled
	slots  *slotTable
	params map[string]bool // the parameters the plan reads, filled in
	local  map[string]int  // comprehension variables in scope
	aggs   *[]*aggSpec     // where aggregating calls go; nil where none may appear
}

// compile compiles e. A parameter is read when the plan runs: plans do
// not depend on the parameters' values, so that one plan serves every run
// of a statement.
func (c *compiler) compile(e parse.Expr) (expr, error) {
	switch e := e.(type) {
	case *parse.Variable:
		s := c.slot(e.Name)
		return func(_ *execution, r row) (value.Value, error) { return r[s], nil }, nil
	case *parse.Parameter:
		name := e.Name
		c.params[name] = true // Run checks that the statement has it
		return func(x *execution, _ row) (value.Value, error) { return x.params[name], nil }, nil
	case *parse.IntegerLit:
		return constant(value.Int(e.Value)), nil
	case *parse.FloatLit:
		return constant(value.Float(e.Value)), nil
	case *parse.StringLit:
		return constant(value.Str(e.Value)), nil
	case *parse.BoolLit:
		return constant(value.Bool(e.Value)), nil
	case *parse.NullLit:
		return constant(value.Null), nil
	case *parse.ListLit:
		return c.list(e)
	case *parse.MapLit:
		return c.mapLit(e)
	case *parse.PropertyAccess:
		return c.property(e)
	case *parse.Index:
		return c.index(e)
	case *parse.Slice:
		return c.slice(e)
	case *parse.LabelPredicate:
		return c.labelPredicate(e)
	case *parse.Unary:
		return c.unary(e)
	case *parse.Binary:
		return c.binary(e)
	case *parse.Comparison:
		return c.comparison(e)
	case *parse.IsNull:
		return c.isNull(e)
	case *parse.FunctionCall:
		return c.call(e)
	case *parse.CountStar:
		return c.aggregate("count", false, nil, true)
	case *parse.Case:
		return c.caseExpr(e)
	case *parse.ListComprehension:
		return c.comprehension(e)
	}
	return nil, notSupported("expression %s", e)
}

func (c *compiler) slot(name string) int {
	if s, ok := c.local[name]; ok {
		return s
	}
	return c.slots.of(name)
}

func constant(v value.Value) expr {
	return func(*execution, row) (value.Value, error) { return v, nil }
}

// compileAll compiles a list of expressions.
func (c *compiler) compileAll(es []parse.Expr) ([]expr, error) {
	out := make([]expr, len(es))
	for i, e := range es {
		f, err := c.compile(e)
		if err != nil {
			return nil, err
		}
		out[i] = f
	}
	return out, nil
}

// evalAll evaluates fs on r.
func evalAll(x *execution, r row, fs []expr) ([]value.Value, error) {
	out := make([]value.Value, len(fs))
	for i, f := range fs {
		v, err := f(x, r)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func (c *compiler) list(e *parse.ListLit) (expr, error) {
	fs, err := c.compileAll(e.Elems)
	if err != nil {
		return nil, err
	}
	return func(x *execution, r row) (value.Value, error) {
		vs, err := evalAll(x, r, fs)
		return value.NewList(vs), err
	}, nil
}

func (c *compiler) mapLit(e *parse.MapLit) (expr, error) {
	keys := make([]string, len(e.Entries))
	vals := make([]parse.Expr, len(e.Entries))
	for i, en := range e.Entries {
		keys[i], vals[i] = en.Key, en.Value
	}
	fs, err := c.compileAll(vals)
	if err != nil {
		return nil, err
	}
	return func(x *execution, r row) (value.Value, error) {
		vs, err := evalAll(x, r, fs)
		if err != nil {
			return value.Null, err
		}
		return value.MapFromPairs(keys, vs), nil
	}, nil
}

func (c *compiler) property(e *parse.PropertyAccess) (expr, error) {
	f, err := c.compile(e.X)
	if err != nil {
		return nil, err
	}
	key := e.Key
	fam, err := keyFamily(c.schema, key) // bound when compiled
	if err != nil {
		return nil, err
	}
	return func(x *execution, r row) (value.Value, error) {
		v, err := f(x, r)
		if err != nil {
			return value.Null, err
		}
		return x.familyProperty(v, key, fam)
	}, nil
}

// property reads key of a node, relationship or map.
func (x *execution) property(v value.Value, key string) (value.Value, error) {
	var fam *graph.Family
	if k := v.Kind(); k == value.KindNode || k == value.KindRelationship {
		var err error
		if fam, err = keyFamily(x.eng.schema, key); err != nil {
			return value.Null, err
		}
	}
	return x.familyProperty(v, key, fam)
}

// familyProperty reads key, of the family fam, of a node, relationship
// or map.
func (x *execution) familyProperty(v value.Value, key string, fam *graph.Family) (value.Value, error) {
	h, err := x.st.holder(v)
	if err != nil {
		return value.Null, err
	}
	if h != nil {
		return readFamily(h, fam)
	}
	return value.Property(v, key)
}

func (c *compiler) index(e *parse.Index) (expr, error) {
	fs, err := c.compileAll([]parse.Expr{e.X, e.Index})
	if err != nil {
		return nil, err
	}
	return func(x *execution, r row) (value.Value, error) {
		vs, err := evalAll(x, r, fs)
		if err != nil {
			return value.Null, err
		}
		k := vs[0].Kind()
		if (k == value.KindNode || k == value.KindRelationship) && vs[1].Kind() == value.KindString {
			return x.property(vs[0], vs[1].Str())
		}
		return value.Index(vs[0], vs[1])
	}, nil
}

func (c *compiler) slice(e *parse.Slice) (expr, error) {
	fs, err := c.compileAll(parse.NonNil(e.X, e.From, e.To))
	if err != nil {
		return nil, err
	}
	hasFrom, hasTo := e.From != nil, e.To != nil
	return func(x *execution, r row) (value.Value, error) {
		vs, err := evalAll(x, r, fs)
		if err != nil {
			return value.Null, err
		}
		var from, to *value.Value
		i := 1
		if hasFrom {
			from, i = &vs[i], i+1
		}
		if hasTo {
			to = &vs[i]
		}
		return value.Slice(vs[0], from, to)
	}, nil
}

func (c *compiler) labelPredicate(e *parse.LabelPredicate) (expr, error) {
	f, err := c.compile(e.X)
	if err != nil {
		return nil, err
	}
	labels := e.Labels
	return func(x *execution, r row) (value.Value, error) {
		v, err := f(x, r)
		if err != nil || v.IsNull() {
			return value.Null, err
		}
		if v.Kind() != value.KindNode {
			return value.Null, cypherError(catTypeError, "InvalidArgumentType", "label predicate on a %v", v.Kind())
		}
		ok, err := x.hasLabels(v, labels)
		return value.Bool(ok), err
	}, nil
}

// hasLabels reports whether node v has every label.
func (x *execution) hasLabels(v value.Value, labels []string) (bool, error) {
	if len(labels) == 0 {
		return true, nil
	}
	h, err := x.st.vertex(v.Node().ID)
	if err != nil {
		return false, err
	}
	for _, l := range labels {
		if ok, err := x.st.hasLabel(h, l); err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

func (c *compiler) unary(e *parse.Unary) (expr, error) {
	f, err := c.compile(e.X)
	if err != nil {
		return nil, err
	}
	apply, err := value.UnaryOperator(string(e.Op))
	if err != nil {
		return nil, err
	}
	return func(x *execution, r row) (value.Value, error) {
		v, err := f(x, r)
		if err != nil {
			return value.Null, err
		}
		return apply(v)
	}, nil
}

func (c *compiler) binary(e *parse.Binary) (expr, error) {
	fs, err := c.compileAll([]parse.Expr{e.L, e.R})
	if err != nil {
		return nil, err
	}
	apply, err := value.BinaryOperator(string(e.Op))
	if err != nil {
		return nil, err
	}
	return func(x *execution, r row) (value.Value, error) {
		a, err := fs[0](x, r)
		if err != nil {
			return value.Null, err
		}
		b, err := fs[1](x, r)
		if err != nil {
			return value.Null, err
		}
		return apply(a, b)
	}, nil
}

func (c *compiler) comparison(e *parse.Comparison) (expr, error) {
	fs, err := c.compileAll(e.Operands)
	if err != nil {
		return nil, err
	}
	ops := make([]value.Operator, len(e.Ops))
	for i, op := range e.Ops {
		if ops[i], err = value.BinaryOperator(string(op)); err != nil {
			return nil, err
		}
	}
	return func(x *execution, r row) (value.Value, error) {
		vs, err := evalAll(x, r, fs)
		if err != nil {
			return value.Null, err
		}
		acc := value.Bool(true)
		for i, apply := range ops {
			v, err := apply(vs[i], vs[i+1])
			if err != nil {
				return value.Null, err
			}
			if acc, err = value.And(acc, v); err != nil {
				return value.Null, err
			}
		}
		return acc, nil
	}, nil
}

func (c *compiler) isNull(e *parse.IsNull) (expr, error) {
	f, err := c.compile(e.X)
	if err != nil {
		return nil, err
	}
	not := e.Not
	return func(x *execution, r row) (value.Value, error) {
		v, err := f(x, r)
		return value.Bool(v.IsNull() != not), err
	}, nil
}

func (c *compiler) caseExpr(e *parse.Case) (expr, error) {
	var subject expr
	var err error
	if e.Subject != nil {
		if subject, err = c.compile(e.Subject); err != nil {
			return nil, err
		}
	}
	var whens, thens []parse.Expr
	for _, w := range e.Whens {
		whens, thens = append(whens, w.When), append(thens, w.Then)
	}
	ws, err := c.compileAll(whens)
	if err != nil {
		return nil, err
	}
	ts, err := c.compileAll(thens)
	if err != nil {
		return nil, err
	}
	els := constant(value.Null)
	if e.Else != nil {
		if els, err = c.compile(e.Else); err != nil {
			return nil, err
		}
	}
	return func(x *execution, r row) (value.Value, error) {
		var subj value.Value
		if subject != nil {
			if subj, err = subject(x, r); err != nil {
				return value.Null, err
			}
		}
		for i, w := range ws {
			v, err := w(x, r)
			if err != nil {
				return value.Null, err
			}
			if subject != nil {
				v = value.Equal(subj, v)
			}
			if v.IsTrue() {
				return ts[i](x, r)
			}
		}
		return els(x, r)
	}, nil
}

func (c *compiler) comprehension(e *parse.ListComprehension) (expr, error) {
	list, err := c.compile(e.List)
	if err != nil {
		return nil, err
	}
	inner := *c
	inner.local = map[string]int{}
	for k, v := range c.local {
		inner.local[k] = v
	}
	s := c.slots.fresh()
	inner.local[e.Var.Name] = s
	where, mapf := constant(value.Bool(true)), expr(nil)
	if e.Where != nil {
		if where, err = inner.compile(e.Where); err != nil {
			return nil, err
		}
	}
	if e.Map != nil {
		if mapf, err = inner.compile(e.Map); err != nil {
			return nil, err
		}
	}
	each := elements(list, s)
	if e.Quantifier != "" {
		return quantify(e.Quantifier, each, where), nil
	}
	return func(x *execution, r row) (value.Value, error) {
		out := []value.Value{}
		done, err := each(x, r, func(rr row, v value.Value) (bool, error) {
			ok, err := where(x, rr)
			if err != nil || !ok.IsTrue() {
				return false, err
			}
			if mapf != nil {
				if v, err = mapf(x, rr); err != nil {
					return false, err
				}
			}
			out = append(out, v)
			return false, nil
		})
		if err != nil || !done {
			return value.Null, err
		}
		return value.NewList(out), nil
	}, nil
}

// elementsFunc calls f on each element v of a list, with v in the row's
// slot of the comprehension variable, until f says stop. It reports
// whether there was a list (a null one gives false); any other value is a
// TypeError.
type elementsFunc func(x *execution, r row, f func(rr row, v value.Value) (stop bool, err error)) (bool, error)

func elements(list expr, s int) elementsFunc {
	return func(x *execution, r row, f func(rr row, v value.Value) (bool, error)) (bool, error) {
		l, err := list(x, r)
		if err != nil || l.IsNull() {
			return false, err
		}
		if l.Kind() != value.KindList {
			return false, cypherError(catTypeError, "InvalidArgumentType", "a list comprehension needs a list, not a %v", l.Kind())
		}
		rr := append(row(nil), r...)
		for _, v := range l.List() {
			rr[s] = v
			if stop, err := f(rr, v); stop || err != nil {
				return true, err
			}
		}
		return true, nil
	}
}

// quantify evaluates the list predicate q (all, any, none, single) over
// the elements: it counts the elements whose predicate is true, false and
// null, stopping as soon as the outcome is known; a null list gives null,
// and so does an undecided outcome with null predicates.
func quantify(q string, each elementsFunc, where expr) expr {
	return func(x *execution, r row) (value.Value, error) {
		var trues, falses, nulls int
		decided := func() bool {
			return (q == "all" && falses > 0) || ((q == "any" || q == "none") && trues > 0) || (q == "single" && trues > 1)
		}
		ok, err := each(x, r, func(rr row, _ value.Value) (bool, error) {
			p, err := where(x, rr)
			switch {
			case err != nil:
				return true, err
			case p.IsNull():
				nulls++
			case p.IsTrue():
				trues++
			default:
				falses++
			}
			return decided(), nil
		})
		switch {
		case err != nil || !ok:
			return value.Null, err
		case decided():
			return value.Bool(q == "any"), nil
		case nulls > 0:
			return value.Null, nil
		}
		return value.Bool(q == "all" || q == "none" || (q == "single" && trues == 1)), nil
	}
}
