package cypher

import (
	"github.com/gdi-go/gdi/cypher/parse"
	"github.com/gdi-go/gdi/cypher/value"
)

// create plans CREATE: per path pattern the nodes to make (or reuse, when
// bound) and the relationships between them.
func (p *planner) create(c *parse.Create) error {
	op := &createOp{text: parse.Format(c.Pattern)}
	bound := map[string]bool{}
	for v := range p.bound {
		bound[v] = true
	}
	for _, part := range c.Pattern.Parts {
		cp, err := p.createPart(part, bound)
		if err != nil {
			return err
		}
		op.parts = append(op.parts, cp)
	}
	p.add(op)
	return nil
}

func (p *planner) createPart(part *parse.PatternPart, bound map[string]bool) (createPart, error) {
	var cp createPart
	c := p.compiler()
	for _, n := range part.Nodes {
		cn := createNode{labels: n.Labels}
		if n.Var != nil {
			cn.slot, cn.bound = p.slots.of(n.Var.Name), bound[n.Var.Name]
			bound[n.Var.Name] = true
		} else {
			cn.slot = p.slots.fresh()
		}
		if n.Properties != nil && !cn.bound {
			f, err := c.compile(n.Properties)
			if err != nil {
				return cp, err
			}
			cn.props = f
		}
		cp.nodes = append(cp.nodes, cn)
	}
	for i, r := range part.Rels {
		if len(r.Types) != 1 || r.Length != nil || (r.Direction != parse.LeftToRight && r.Direction != parse.RightToLeft) {
			return cp, notSupported("CREATE of a relationship without one type and one direction")
		}
		cr := createRel{typ: r.Types[0], from: cp.nodes[i].slot, to: cp.nodes[i+1].slot}
		if r.Direction == parse.RightToLeft {
			cr.from, cr.to = cr.to, cr.from
		}
		cr.slot = p.slots.fresh()
		if r.Var != nil {
			cr.slot = p.slots.of(r.Var.Name)
		}
		if r.Properties != nil {
			f, err := c.compile(r.Properties)
			if err != nil {
				return cp, err
			}
			cr.props = f
		}
		cp.rels = append(cp.rels, cr)
	}
	if part.Var != nil {
		path := &pathOp{slot: p.slots.of(part.Var.Name), name: part.Var.Name}
		for i, n := range cp.nodes {
			path.nodes = append(path.nodes, n.slot)
			if i < len(cp.rels) {
				path.rels = append(path.rels, relSlot{slot: cp.rels[i].slot})
			}
		}
		cp.path = path
	}
	return cp, nil
}

// set plans SET.
func (p *planner) set(s *parse.Set) error {
	op := &setOp{text: parse.Format(s)}
	c := p.compiler()
	for _, it := range s.Items {
		var si setItem
		var err error
		switch it := it.(type) {
		case *parse.SetProperty:
			si.key = it.Property.Key
			if si.target, err = c.compile(it.Property.X); err == nil {
				si.val, err = c.compile(it.Value)
			}
		case *parse.SetAllProperties:
			si.all, si.replace = true, true
			if si.target, err = c.compile(it.Var); err == nil {
				si.val, err = c.compile(it.Value)
			}
		case *parse.MergeProperties:
			si.all = true
			if si.target, err = c.compile(it.Var); err == nil {
				si.val, err = c.compile(it.Value)
			}
		case *parse.SetLabels:
			si.labels = it.Labels
			si.target, err = c.compile(it.Var)
		}
		if err != nil {
			return err
		}
		op.items = append(op.items, si)
	}
	p.add(op)
	return nil
}

// remove plans REMOVE as a SET of null properties and removed labels.
func (p *planner) remove(r *parse.Remove) error {
	op := &setOp{text: parse.Format(r)}
	c := p.compiler()
	for _, it := range r.Items {
		var si setItem
		var err error
		switch it := it.(type) {
		case *parse.RemoveProperty:
			si.key, si.val = it.Property.Key, constant(value.Null)
			si.target, err = c.compile(it.Property.X)
		case *parse.RemoveLabels:
			si.labels, si.removeLabels = it.Labels, true
			si.target, err = c.compile(it.Var)
		}
		if err != nil {
			return err
		}
		op.items = append(op.items, si)
	}
	p.add(op)
	return nil
}

// delete plans DELETE and DETACH DELETE.
func (p *planner) delete(d *parse.Delete) error {
	fs, err := p.compiler().compileAll(d.Exprs)
	if err != nil {
		return err
	}
	p.add(&deleteOp{exprs: fs, detach: d.Detach, text: parse.Format(d)})
	return nil
}
