package cypher

import (
	"math"

	"github.com/gdi-go/gdi/cypher/graph"
	"github.com/gdi-go/gdi/cypher/parse"
	"github.com/gdi-go/gdi/cypher/value"
	"github.com/gdi-go/gdi/gdi"
)

// pushCond is a predicate var.key op constant that a node scan may push
// into the GDI constraint of its VerticesOfIndex call. The predicate stays
// a filter as well: the constraint only narrows the candidates.
type pushCond struct {
	key  string
	op   parse.CompareOp
	val  expr
	text string
}

// maxPushed bounds the conditions pushed into one scan: each may need two
// alternatives (an integer and a float member), and the constraint is
// their product.
const maxPushed = 2

// isConstant reports whether e is a literal or a parameter.
func isConstant(e parse.Expr) bool {
	switch e.(type) {
	case *parse.IntegerLit, *parse.FloatLit, *parse.StringLit, *parse.Parameter, *parse.NullLit:
		return true
	}
	return false
}

// flipped is op with its operands swapped: 1 < n.x is n.x > 1.
var flipped = map[parse.CompareOp]parse.CompareOp{
	parse.OpEq: parse.OpEq, parse.OpLt: parse.OpGt, parse.OpGt: parse.OpLt,
	parse.OpLe: parse.OpGe, parse.OpGe: parse.OpLe,
}

// whereConds finds, among the top-level conjuncts of where, the
// comparisons var.key op constant, by variable.
func (p *planner) whereConds(where parse.Expr) (map[string][]pushCond, error) {
	out := map[string][]pushCond{}
	var visit func(e parse.Expr) error
	visit = func(e parse.Expr) error {
		if b, ok := e.(*parse.Binary); ok && b.Op == parse.OpAnd {
			if err := visit(b.L); err != nil {
				return err
			}
			return visit(b.R)
		}
		cmp, ok := e.(*parse.Comparison)
		if !ok || len(cmp.Ops) != 1 {
			return nil
		}
		l, r, op := cmp.Operands[0], cmp.Operands[1], cmp.Ops[0]
		if _, ok := flipped[op]; !ok {
			return nil
		}
		if isConstant(l) {
			l, r, op = r, l, flipped[op]
		}
		pa, ok := l.(*parse.PropertyAccess)
		v, okv := pa2var(pa, ok)
		if !okv || !isConstant(r) {
			return nil
		}
		f, err := p.compiler().compile(r)
		if err != nil {
			return err
		}
		out[v] = append(out[v], pushCond{key: pa.Key, op: op, val: f, text: parse.Format(r)})
		return nil
	}
	if where == nil {
		return out, nil
	}
	return out, visit(where)
}

func pa2var(pa *parse.PropertyAccess, ok bool) (string, bool) {
	if !ok {
		return "", false
	}
	v, ok := pa.X.(*parse.Variable)
	if !ok {
		return "", false
	}
	return v.Name, true
}

// alternatives returns the ways a stored property of key can satisfy
// "key op v": per member that can hold a comparable value, the property
// conditions that select exactly its matching values. ok is false when
// the predicate cannot be expressed (then it is not pushed); an empty
// result means no property can satisfy it.
func alternatives(fam *graph.Family, op parse.CompareOp, v value.Value) (alts [][]gdi.PropertyCondition, ok bool) {
	for _, m := range fam.Members {
		if m.Datatype != m.Kind.Datatype() {
			return nil, false // a member made by another program
		}
		var conds []gdi.PropertyCondition
		var fits bool
		switch {
		case m.Kind == graph.Integer && v.IsNumber():
			conds, fits, ok = intConds(m.Type, op, v)
		case m.Kind == graph.Float && v.IsNumber():
			conds, fits, ok = floatConds(m.Type, op, v)
		case m.Kind == graph.String && v.Kind() == value.KindString && op == parse.OpEq:
			conds, fits, ok = []gdi.PropertyCondition{{PropertyType: m.Type, Op: gdi.Equal, Value: gdi.Chars(v.Str())}}, true, true
		case m.Kind == graph.String && v.Kind() == value.KindString:
			return nil, false
		default:
			fits, ok = false, v.IsNumber() || v.Kind() == value.KindString || v.IsNull()
		}
		if !ok {
			return nil, false
		}
		if fits {
			alts = append(alts, conds)
		}
	}
	return alts, true
}

// gdiOps are the GDI operations of the comparisons on integers.
var gdiOps = map[parse.CompareOp]gdi.Op{
	parse.OpEq: gdi.Equal, parse.OpLt: gdi.Smaller, parse.OpLe: gdi.EqSmaller,
	parse.OpGt: gdi.Greater, parse.OpGe: gdi.EqGreater,
}

const exactFloat = 1 << 53 // integers up to this magnitude are exact floats

// intConds: an Integer member compared with a number.
func intConds(p gdi.PropertyType, op parse.CompareOp, v value.Value) ([]gdi.PropertyCondition, bool, bool) {
	x := v.Int()
	if v.Kind() == value.KindFloat {
		f := v.Float()
		if math.IsNaN(f) {
			return nil, false, true
		}
		if f != math.Trunc(f) || math.Abs(f) > exactFloat {
			return nil, false, op != parse.OpEq // no integer equals it; ranges are not pushed
		}
		x = int64(f)
	}
	return []gdi.PropertyCondition{{PropertyType: p, Op: gdiOps[op], Value: gdi.Int64s(x)}}, true, true
}

// floatConds: a Float member compared with a number. GDI defines only
// the strict orders on floats, so = and the wide orders use the
// neighbouring floats.
func floatConds(p gdi.PropertyType, op parse.CompareOp, v value.Value) ([]gdi.PropertyCondition, bool, bool) {
	f := v.Float()
	switch {
	case math.IsNaN(f):
		return nil, false, true
	case v.Kind() == value.KindInteger && (v.Int() > exactFloat || v.Int() < -exactFloat):
		return nil, false, false
	}
	below, above := math.Nextafter(f, math.Inf(-1)), math.Nextafter(f, math.Inf(1))
	cond := func(o gdi.Op, x float64) gdi.PropertyCondition {
		return gdi.PropertyCondition{PropertyType: p, Op: o, Value: gdi.Doubles(x)}
	}
	switch op {
	case parse.OpEq:
		return []gdi.PropertyCondition{cond(gdi.Greater, below), cond(gdi.Smaller, above)}, true, true
	case parse.OpLt:
		return []gdi.PropertyCondition{cond(gdi.Smaller, f)}, true, true
	case parse.OpLe:
		return []gdi.PropertyCondition{cond(gdi.Smaller, above)}, true, true
	case parse.OpGt:
		return []gdi.PropertyCondition{cond(gdi.Greater, f)}, true, true
	}
	return []gdi.PropertyCondition{cond(gdi.Greater, below)}, true, true
}

// scanDNF builds the constraint of a scan: the label conditions, and the
// product of the alternatives of the pushed conditions. none reports that
// nothing can match; a nil DNF with none false means no constraint.
func (x *execution) scanDNF(labels []string, conds []pushCond) (dnf gdi.DNF, none bool, err error) {
	base := gdi.Conjunction{}
	for _, name := range labels {
		l, err := x.eng.schema.Label(name)
		if err != nil || l == gdi.LabelNull {
			return nil, err == nil, err
		}
		base.Labels = append(base.Labels, gdi.LabelCondition{Label: l, Op: gdi.Equal})
	}
	dnf = gdi.DNF{base}
	for _, c := range conds {
		alts, ok, err := x.condAlternatives(c)
		if err != nil {
			return nil, false, err
		}
		if !ok {
			continue
		}
		if len(alts) == 0 {
			return nil, true, nil
		}
		dnf = product(dnf, alts)
	}
	if len(dnf[0].Labels) == 0 && len(dnf[0].Properties) == 0 {
		return nil, false, nil
	}
	return dnf, false, nil
}

func (x *execution) condAlternatives(c pushCond) ([][]gdi.PropertyCondition, bool, error) {
	v, err := c.val(x, nil)
	if err != nil || !validKey(c.key) {
		return nil, false, err
	}
	if v.IsNull() {
		return nil, true, nil
	}
	fam, err := x.eng.schema.Family(c.key)
	if err != nil {
		return nil, false, err
	}
	alts, ok := alternatives(fam, c.op, v)
	return alts, ok, nil
}

func product(dnf gdi.DNF, alts [][]gdi.PropertyCondition) gdi.DNF {
	var out gdi.DNF
	for _, conj := range dnf {
		for _, a := range alts {
			c := gdi.Conjunction{Labels: conj.Labels}
			c.Properties = append(append([]gdi.PropertyCondition(nil), conj.Properties...), a...)
			out = append(out, c)
		}
	}
	return out
}

// constraint makes the GDI constraint of dnf; the execution frees it at
// its end.
func (x *execution) constraint(dnf gdi.DNF) (gdi.Constraint, error) {
	c, err := x.eng.db.CreateConstraint()
	if err != nil {
		return nil, err
	}
	x.constraints = append(x.constraints, c)
	for _, conj := range dnf {
		sub, err := x.eng.db.CreateSubconstraint()
		if err != nil {
			return nil, err
		}
		err = addConditions(sub, conj)
		if err == nil {
			err = c.AddSubconstraint(sub)
		}
		if ferr := sub.Free(); err == nil {
			err = ferr
		}
		if err != nil {
			return nil, err
		}
	}
	return c, nil
}

func addConditions(sub gdi.Subconstraint, conj gdi.Conjunction) error {
	for _, lc := range conj.Labels {
		if err := sub.AddLabelCondition(lc.Label, lc.Op); err != nil {
			return err
		}
	}
	for _, pc := range conj.Properties {
		if err := sub.AddPropertyCondition(pc.PropertyType, pc.Op, pc.Value); err != nil {
			return err
		}
	}
	return nil
}
