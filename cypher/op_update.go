package cypher

import (
	"github.com/gdi-go/gdi/cypher/value"
	"github.com/gdi-go/gdi/gdi"
)

// createOp makes the nodes and relationships of a CREATE pattern once per
// row.
type createOp struct {
	parts []createPart
	text  string
}

type createPart struct {
	nodes []createNode
	rels  []createRel
	path  *pathOp
}

type createNode struct {
	slot   int
	bound  bool
	labels []string
	props  expr
}

type createRel struct {
	slot     int
	typ      string
	from, to int
	props    expr
}

func (o *createOp) run(x *execution, in []row) ([]row, error) {
	out := make([]row, len(in))
	for i, r := range in {
		rr := append(row(nil), r...)
		for _, cp := range o.parts {
			if err := x.createPart(cp, rr); err != nil {
				return nil, err
			}
		}
		out[i] = rr
	}
	return out, nil
}

func (x *execution) createPart(cp createPart, r row) error {
	for _, n := range cp.nodes {
		if n.bound {
			if r[n.slot].Kind() != value.KindNode {
				return cypherError(catSemanticError, "CreateBlockedByNull", "cannot create a relationship from or to a null node")
			}
			continue
		}
		props, err := x.propertyMap(n.props, r)
		if err != nil {
			return err
		}
		if r[n.slot], err = x.st.createNode(n.labels, props); err != nil {
			return err
		}
	}
	for _, c := range cp.rels {
		props, err := x.propertyMap(c.props, r)
		if err != nil {
			return err
		}
		if r[c.slot], err = x.st.createRel(c.typ, r[c.from], r[c.to], props); err != nil {
			return err
		}
	}
	if cp.path != nil {
		p, err := cp.path.path(r)
		r[cp.path.slot] = p
		return err
	}
	return nil
}

// propertyMap evaluates the property map of a CREATE pattern.
func (x *execution) propertyMap(f expr, r row) (value.Map, error) {
	if f == nil {
		return value.Map{}, nil
	}
	v, err := f(x, r)
	if err != nil || v.IsNull() {
		return value.Map{}, err
	}
	if v.Kind() != value.KindMap {
		return value.Map{}, cypherError(catTypeError, "InvalidArgumentType", "properties must be a map, not a %v", v.Kind())
	}
	return v.Map(), nil
}

// setOp runs the items of SET or REMOVE on every row, in order.
type setOp struct {
	items []setItem
	text  string
}

// setItem is one item: target.key = val; target = val (all, replace) or
// target += val (all); target:labels (or REMOVE target:labels).
type setItem struct {
	target       expr
	key          string
	val          expr
	all, replace bool
	labels       []string
	removeLabels bool
}

func (o *setOp) run(x *execution, in []row) ([]row, error) {
	for _, r := range in {
		for _, it := range o.items {
			if err := x.setItem(it, r); err != nil {
				return nil, err
			}
		}
	}
	return in, nil
}

func (x *execution) setItem(it setItem, r row) error {
	t, err := it.target(x, r)
	if err != nil || t.IsNull() {
		return err
	}
	h, err := x.st.holder(t)
	if err != nil {
		return err
	}
	if h == nil {
		return cypherError(catTypeError, "InvalidArgumentType", "cannot set properties or labels of a %v", t.Kind())
	}
	switch {
	case it.labels != nil:
		for _, l := range it.labels {
			if it.removeLabels {
				err = x.st.removeLabel(h, l)
			} else {
				err = x.st.addLabel(h, l)
			}
			if err != nil {
				return err
			}
		}
		return nil
	case it.all:
		return x.setAll(it, h, r)
	}
	v, err := it.val(x, r)
	if err != nil {
		return err
	}
	return x.st.setProperty(h, it.key, v)
}

// setAll is SET n = m (replace) and SET n += m: m is a map, or a node
// or relationship whose properties are taken.
func (x *execution) setAll(it setItem, h gdi.Holder, r row) error {
	v, err := it.val(x, r)
	if err != nil {
		return err
	}
	var m value.Map
	switch v.Kind() {
	case value.KindNull:
	case value.KindMap:
		m = v.Map()
	case value.KindNode, value.KindRelationship:
		src, err := x.st.holder(v)
		if err != nil {
			return err
		}
		props, err := x.st.properties(src)
		if err != nil {
			return err
		}
		m = props.Map()
	default:
		return cypherError(catTypeError, "InvalidArgumentType", "SET needs a map, not a %v", v.Kind())
	}
	if it.replace {
		if err := x.st.removeProperties(h); err != nil {
			return err
		}
	}
	for k, e := range m.All() {
		if err := x.st.setProperty(h, k, e); err != nil {
			return err
		}
	}
	return nil
}

func (o *setOp) explain() string { return "Set " + o.text }

func (o *createOp) explain() string { return "Create " + o.text }

// deleteOp deletes the nodes, relationships and paths of its expressions
// on every row.
type deleteOp struct {
	exprs  []expr
	detach bool
	text   string
}

func (o *deleteOp) run(x *execution, in []row) ([]row, error) {
	for _, r := range in {
		vs, err := evalAll(x, r, o.exprs)
		if err != nil {
			return nil, err
		}
		for _, v := range vs {
			if err := x.delete(v, o.detach); err != nil {
				return nil, err
			}
		}
	}
	return in, nil
}

func (x *execution) delete(v value.Value, detach bool) error {
	switch v.Kind() {
	case value.KindNull:
		return nil
	case value.KindNode:
		return x.st.deleteNode(v.Node().ID, detach)
	case value.KindRelationship:
		return x.st.deleteRel(v.Relationship().ID)
	case value.KindPath:
		p := v.Path()
		for _, r := range p.Rels {
			if err := x.st.deleteRel(r.ID); err != nil {
				return err
			}
		}
		for _, n := range p.Nodes {
			if err := x.st.deleteNode(n.ID, detach); err != nil {
				return err
			}
		}
		return nil
	}
	return cypherError(catTypeError, "InvalidArgumentType", "DELETE needs a node, a relationship or a path, not a %v", v.Kind())
}

func (o *deleteOp) explain() string { return "Delete " + o.text }
