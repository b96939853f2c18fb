package cypher

import (
	"slices"

	"github.com/gdi-go/gdi/cypher/parse"
	"github.com/gdi-go/gdi/cypher/value"
	"github.com/gdi-go/gdi/gdi"
)

// expandOp follows one relationship pattern from a bound node: the
// node's edges of the pattern's orientation, asked with a constraint of
// the types (one label condition per type), each checked for uniqueness
// in the MATCH, for its properties, and for the node at its other end.
type expandOp struct {
	from, rel, to     int
	types             []string
	dir               parse.Direction
	toBound, relBound bool
	toLabels          []string
	toProps, relProps []propCheck
	used              []relSlot
	text              string
}

// orientation is the GDI orientation of a pattern direction.
func orientation(d parse.Direction) gdi.Orientation {
	switch d {
	case parse.LeftToRight:
		return gdi.EdgeOutgoing
	case parse.RightToLeft:
		return gdi.EdgeIncoming
	}
	return gdi.EdgeOutgoing | gdi.EdgeIncoming
}

// step is one relationship leaving a node, with the node it reaches.
type step struct {
	rel   value.Relationship
	other value.NodeID
}

// steps returns the relationships of the pattern leaving node v.
func (x *execution) steps(o *expandOp, v value.Value) ([]step, error) {
	if v.Kind() != value.KindNode || x.st.deadV[nodeOf(v)] {
		return nil, nil
	}
	types, err := x.typeConstraint(o)
	if err != nil || types.none {
		return nil, err
	}
	h, err := x.st.vertex(v.Node().ID)
	if err != nil {
		return nil, err
	}
	uids, err := h.Edges(orientation(o.dir), types.c)
	if err != nil {
		return nil, err
	}
	var out []step
	for _, uid := range uids {
		if x.st.deadE[uid] {
			continue
		}
		s, ok, err := x.step(o, types, v.Node().ID, uid)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, s)
		}
	}
	return out, nil
}

// step checks the type of one edge and finds its other end.
func (x *execution) step(o *expandOp, types typeLabels, from value.NodeID, uid gdi.EdgeUID) (step, bool, error) {
	rel, err := x.st.relationship(uid)
	if err != nil {
		return step{}, false, err
	}
	if len(o.types) > 0 {
		ok, err := x.hasType(o, types, rel.ID)
		if err != nil || !ok {
			return step{}, false, err
		}
	}
	other := rel.End
	switch {
	case o.dir == parse.RightToLeft:
		other = rel.Start
	case o.dir != parse.LeftToRight && rel.Start != from:
		other = rel.Start
	}
	return step{rel: rel, other: other}, true, nil
}

// hasType reports whether the relationship id has one of the pattern's
// types. An edge of one label, as the engine makes them, is checked by
// the label; one of several labels has the type relType names.
func (x *execution) hasType(o *expandOp, types typeLabels, id value.RelID) (bool, error) {
	h, err := x.st.edge(id)
	if err != nil {
		return false, err
	}
	ls, err := h.Labels()
	switch {
	case err != nil:
		return false, err
	case len(ls) == 1:
		return slices.Contains(types.labels, ls[0]), nil
	}
	t, err := x.st.relType(h)
	return err == nil && slices.Contains(o.types, t), err
}

// typeLabels are the labels of a pattern's types that exist, and the
// constraint of them; none reports that no type exists.
type typeLabels struct {
	labels []gdi.Label
	c      gdi.Constraint
	none   bool
}

// typeConstraint returns the labels and the constraint of the pattern's
// types, made once per execution.
func (x *execution) typeConstraint(o *expandOp) (typeLabels, error) {
	if len(o.types) == 0 {
		return typeLabels{}, nil
	}
	if m, ok := x.cache[o]; ok {
		return m.(typeLabels), nil
	}
	var m typeLabels
	var dnf gdi.DNF
	for _, t := range o.types {
		l, err := x.eng.schema.Label(t)
		if err != nil {
			return typeLabels{}, err
		}
		if l != gdi.LabelNull {
			m.labels = append(m.labels, l)
			dnf = append(dnf, gdi.Conjunction{Labels: []gdi.LabelCondition{{Label: l, Op: gdi.Equal}}})
		}
	}
	m.none = len(dnf) == 0
	if !m.none {
		var err error
		if m.c, err = x.constraint(dnf); err != nil {
			return typeLabels{}, err
		}
	}
	put(&x.cache, any(o), any(m))
	return m, nil
}

// usedIn reports whether rel is already bound by the MATCH in row r.
func usedIn(r row, used []relSlot, rel value.RelID) bool {
	for _, u := range used {
		vs := []value.Value{r[u.slot]}
		if u.list {
			vs = r[u.slot].List()
		}
		for _, v := range vs {
			if v.Kind() == value.KindRelationship && v.Relationship().ID == rel {
				return true
			}
		}
	}
	return false
}

// accept reports whether a step may bind the pattern in row r.
func (x *execution) accept(o *expandOp, r row, s *step) (bool, error) {
	if usedIn(r, o.used, s.rel.ID) {
		return false, nil
	}
	if o.relBound && (r[o.rel].Kind() != value.KindRelationship || r[o.rel].Relationship().ID != s.rel.ID) {
		return false, nil
	}
	ok, err := x.propsMatch(value.RelValueOf(&s.rel), o.relProps, r)
	if err != nil || !ok {
		return false, err
	}
	return x.reaches(o, r, s.other)
}

// reaches reports whether the pattern's last node may be n.
func (x *execution) reaches(o *expandOp, r row, n value.NodeID) (bool, error) {
	v := value.NodeValue(value.Node{ID: n})
	if o.toBound && (r[o.to].Kind() != value.KindNode || r[o.to].Node().ID != n) {
		return false, nil
	}
	return x.nodeMatches(v, o.toLabels, o.toProps, r)
}

func (o *expandOp) run(x *execution, in []row) ([]row, error) {
	var out []row
	for _, r := range in {
		steps, err := x.steps(o, r[o.from])
		if err != nil {
			return nil, err
		}
		var last *step // the latest step taken: r's own, unless another follows
		for i := range steps {
			s := &steps[i]
			ok, err := x.accept(o, r, s)
			if err != nil {
				return nil, err
			}
			if ok {
				if last != nil {
					out = append(out, o.bind(append(row(nil), r...), last))
				}
				last = s
			}
		}
		if last != nil {
			out = append(out, o.bind(r, last))
		}
	}
	return out, nil
}

// bind writes the relationship and the node at the other end of s into
// r and returns it. The relationship's Value holds s's own, which no one
// changes once steps returns it.
func (o *expandOp) bind(r row, s *step) row {
	r[o.rel], r[o.to] = value.RelValueOf(&s.rel), value.NodeValue(value.Node{ID: s.other})
	return r
}

func (o *expandOp) explain() string { return "Expand " + o.text }

// varExpandOp follows a variable-length relationship pattern: every
// walk of min to max (-1: any) relationships of the pattern, none twice.
type varExpandOp struct {
	expandOp
	min, max int64
}

func (o *varExpandOp) run(x *execution, in []row) ([]row, error) {
	var out []row
	for _, r := range in {
		start := r[o.from]
		if start.Kind() != value.KindNode {
			continue
		}
		err := o.walk(x, r, start.Node().ID, nil, func(end value.NodeID, rels []value.Value) {
			rr := append(row(nil), r...)
			rr[o.rel] = value.NewList(slices.Clone(rels))
			rr[o.to] = value.NodeValue(value.Node{ID: end})
			out = append(out, rr)
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// walk emits the walks from cur that extend rels.
func (o *varExpandOp) walk(x *execution, r row, cur value.NodeID, rels []value.Value, emit func(value.NodeID, []value.Value)) error {
	n := int64(len(rels))
	if n >= o.min {
		ok, err := x.reaches(&o.expandOp, r, cur)
		if err != nil {
			return err
		}
		if ok {
			emit(cur, rels)
		}
	}
	if o.max >= 0 && n >= o.max {
		return nil
	}
	steps, err := x.steps(&o.expandOp, value.NodeValue(value.Node{ID: cur}))
	if err != nil {
		return err
	}
	for i := range steps {
		s := &steps[i]
		if usedIn(r, o.used, s.rel.ID) || inList(rels, s.rel.ID) {
			continue
		}
		rel := value.RelValueOf(&s.rel)
		ok, err := x.propsMatch(rel, o.relProps, r)
		if err != nil {
			return err
		}
		if ok {
			if err := o.walk(x, r, s.other, append(rels, rel), emit); err != nil {
				return err
			}
		}
	}
	return nil
}

func inList(rels []value.Value, id value.RelID) bool {
	for _, v := range rels {
		if v.Relationship().ID == id {
			return true
		}
	}
	return false
}

func (o *varExpandOp) explain() string { return "VarExpand " + o.text }
