package cypher

import (
	"fmt"
	"strings"

	"github.com/gdi-go/gdi/cypher/parse"
)

// match plans MATCH and OPTIONAL MATCH: per path pattern a scan of its
// first node (or a check of it when bound), an expansion per
// relationship, and the path; then WHERE as a filter. OPTIONAL wraps the
// whole in an Optional operator.
func (p *planner) match(m *parse.Match) error {
	conds, err := p.whereConds(m.Where)
	if err != nil {
		return err
	}
	mp := &matchPlanner{p: p, bound: map[string]bool{}, conds: conds}
	for v := range p.bound {
		mp.bound[v] = true
	}
	for _, part := range m.Pattern.Parts {
		if err := mp.part(part); err != nil {
			return err
		}
	}
	if m.Where != nil {
		f, err := p.filter(m.Where)
		if err != nil {
			return err
		}
		mp.ops = append(mp.ops, f)
	}
	if m.Optional {
		for _, op := range mp.ops {
			if s, ok := op.(*scanOp); ok {
				s.again = true
			}
		}
		p.add(&optionalOp{inner: mp.ops})
	} else {
		p.add(mp.ops...)
	}
	return nil
}

// matchPlanner plans the path patterns of one MATCH.
type matchPlanner struct {
	p     *planner
	bound map[string]bool
	conds map[string][]pushCond
	used  []relSlot // relationships bound by this MATCH so far: they are unique
	ops   []operator
}

// relSlot is the slot of a relationship, or of a list of them (-[r*]-).
type relSlot struct {
	slot int
	list bool
}

func (mp *matchPlanner) isBound(v *parse.Variable) bool { return v != nil && mp.bound[v.Name] }

func (mp *matchPlanner) slotOf(v *parse.Variable) int {
	if v == nil {
		return mp.p.slots.fresh()
	}
	return mp.p.slots.of(v.Name)
}

func (mp *matchPlanner) bind(v *parse.Variable) {
	if v != nil {
		mp.bound[v.Name] = true
	}
}

// part plans one path pattern, starting from its end that is bound when
// only the last node is (and the direction of lists does not matter).
func (mp *matchPlanner) part(part *parse.PatternPart) error {
	first, last := part.Nodes[0], part.Nodes[len(part.Nodes)-1]
	if part.Var == nil && !mp.isBound(first.Var) && mp.isBound(last.Var) && !namedVarLength(part) {
		part = reversed(part)
	}
	nodes := make([]int, len(part.Nodes))
	for i, n := range part.Nodes {
		nodes[i] = mp.slotOf(n.Var)
	}
	if err := mp.start(part.Nodes[0], nodes[0]); err != nil {
		return err
	}
	var rels []relSlot
	for i, r := range part.Rels {
		rs, err := mp.expand(r, part.Nodes[i+1], nodes[i], nodes[i+1])
		if err != nil {
			return err
		}
		rels = append(rels, rs)
	}
	if part.Var != nil {
		mp.ops = append(mp.ops, &pathOp{slot: mp.p.slots.of(part.Var.Name), nodes: nodes, rels: rels, name: part.Var.Name})
	}
	return nil
}

func namedVarLength(part *parse.PatternPart) bool {
	for _, r := range part.Rels {
		if r.Length != nil && r.Var != nil {
			return true
		}
	}
	return false
}

// reversed returns the path pattern read from its other end.
func reversed(part *parse.PatternPart) *parse.PatternPart {
	out := &parse.PatternPart{Pos: part.Pos}
	for i := len(part.Nodes) - 1; i >= 0; i-- {
		out.Nodes = append(out.Nodes, part.Nodes[i])
	}
	for i := len(part.Rels) - 1; i >= 0; i-- {
		r := *part.Rels[i]
		switch r.Direction {
		case parse.LeftToRight:
			r.Direction = parse.RightToLeft
		case parse.RightToLeft:
			r.Direction = parse.LeftToRight
		}
		out.Rels = append(out.Rels, &r)
	}
	return out
}

// start plans the first node: a check of a bound variable, else a scan.
func (mp *matchPlanner) start(n *parse.NodePattern, slot int) error {
	props, err := mp.props(n.Properties)
	if err != nil {
		return err
	}
	if mp.isBound(n.Var) {
		mp.ops = append(mp.ops, &nodeCheckOp{slot: slot, labels: n.Labels, props: props, name: n.Var.Name})
		return nil
	}
	scan := &scanOp{slot: slot, labels: n.Labels, name: varName(n.Var)}
	for _, pc := range props {
		if !pc.constant || !scan.narrow(pushCond{key: pc.key, op: parse.OpEq, val: pc.val, text: pc.text}) {
			scan.props = append(scan.props, pc)
		}
	}
	if n.Var != nil {
		for _, c := range mp.conds[n.Var.Name] {
			scan.narrow(c)
		}
	}
	mp.bind(n.Var)
	mp.ops = append(mp.ops, scan)
	return nil
}

func varName(v *parse.Variable) string {
	if v == nil {
		return "_"
	}
	return v.Name
}

// props compiles the property map of a pattern element into checks.
func (mp *matchPlanner) props(e parse.Expr) ([]propCheck, error) {
	m, ok := e.(*parse.MapLit)
	if !ok {
		if e != nil {
			return nil, notSupported("a parameter as the property map of a MATCH pattern")
		}
		return nil, nil
	}
	var out []propCheck
	for _, en := range m.Entries {
		f, err := mp.p.compiler().compile(en.Value)
		if err != nil {
			return nil, err
		}
		fam, err := keyFamily(mp.p.schema, en.Key)
		if err != nil {
			return nil, err
		}
		out = append(out, propCheck{key: en.Key, fam: fam, val: f, constant: isConstant(en.Value), text: parse.Format(en.Value)})
	}
	return out, nil
}

// expand plans one relationship and the node after it.
func (mp *matchPlanner) expand(r *parse.RelPattern, to *parse.NodePattern, from, toSlot int) (relSlot, error) {
	relProps, err := mp.props(r.Properties)
	if err != nil {
		return relSlot{}, err
	}
	toProps, err := mp.props(to.Properties)
	if err != nil {
		return relSlot{}, err
	}
	e := expandOp{from: from, to: toSlot, rel: mp.slotOf(r.Var), types: r.Types, dir: r.Direction,
		toBound: mp.isBound(to.Var), relBound: mp.isBound(r.Var), toLabels: to.Labels, toProps: toProps,
		relProps: relProps, used: append([]relSlot(nil), mp.used...)}
	e.text = expandText(r, to, varName(r.Var))
	rs := relSlot{slot: e.rel, list: r.Length != nil}
	if r.Length == nil {
		mp.ops = append(mp.ops, &e)
	} else {
		if e.relBound {
			return relSlot{}, notSupported("a variable-length relationship variable bound before the pattern")
		}
		mp.ops = append(mp.ops, &varExpandOp{expandOp: e, min: r.Length.MinHops(), max: r.Length.MaxHops()})
	}
	mp.bind(r.Var)
	mp.bind(to.Var)
	mp.used = append(mp.used, rs)
	return rs, nil
}

func expandText(r *parse.RelPattern, to *parse.NodePattern, name string) string {
	types := ""
	if len(r.Types) > 0 {
		types = ":" + strings.Join(r.Types, "|")
	}
	length := ""
	if r.Length != nil {
		length = fmt.Sprintf("*%d..", r.Length.MinHops())
		if r.Length.Max != nil {
			length += fmt.Sprint(*r.Length.Max)
		}
	}
	rel := "-[" + name + types + length + "]-"
	switch r.Direction {
	case parse.LeftToRight:
		rel += ">"
	case parse.RightToLeft:
		rel = "<" + rel
	}
	return rel + "(" + varName(to.Var) + labelsText(to.Labels) + ")"
}

func labelsText(labels []string) string {
	if len(labels) == 0 {
		return ""
	}
	return ":" + strings.Join(labels, ":")
}
