package check

import "github.com/gdi-go/gdi/cypher/parse"

// set checks the items of a SET: their variables must be in scope, labels
// go on nodes, properties on nodes and relationships, and a whole property
// set is replaced by a map or an entity's properties.
func (c *checker) set(s *parse.Set, sc *scope) {
	x := ctx{place: "SET"}
	for _, it := range s.Items {
		switch it := it.(type) {
		case *parse.SetProperty:
			c.propertyTarget(it.Property, sc, x)
			c.expr(it.Value, sc, x)
		case *parse.SetAllProperties:
			c.setProperties(it.Var, it.Value, sc, x)
		case *parse.MergeProperties:
			c.setProperties(it.Var, it.Value, sc, x)
		case *parse.SetLabels:
			c.labelTarget(it.Var, sc)
		}
	}
}

// remove checks the items of a REMOVE as set does.
func (c *checker) remove(r *parse.Remove, sc *scope) {
	for _, it := range r.Items {
		switch it := it.(type) {
		case *parse.RemoveProperty:
			c.propertyTarget(it.Property, sc, ctx{place: "REMOVE"})
		case *parse.RemoveLabels:
			c.labelTarget(it.Var, sc)
		}
	}
}

// delete checks the expressions of a DELETE: each must be a node, a
// relationship or a path; a label predicate is an InvalidDelete (DELETE
// n:Label is how one might mean to remove a label).
func (c *checker) delete(d *parse.Delete, sc *scope) {
	for _, e := range d.Exprs {
		if lp, ok := e.(*parse.LabelPredicate); ok {
			fail(lp.Pos, DetailInvalidDelete, "DELETE cannot remove labels (use REMOVE)")
		}
		if t := c.expr(e, sc, ctx{place: "DELETE"}); !t.accepts(TNode | TRelationship | TPath) {
			fail(e.Position(), DetailInvalidArgumentType, "DELETE expects a node, a relationship or a path, found %s", t)
		}
	}
}

// propertyTarget checks the X of a SET or REMOVE X.key.
func (c *checker) propertyTarget(p *parse.PropertyAccess, sc *scope, x ctx) {
	if t := c.expr(p.X, sc, x); !t.accepts(TEntity) {
		fail(p.X.Position(), DetailInvalidArgumentType, "%s expects a node or a relationship, found %s", x.place, t)
	}
}

// setProperties checks SET v = value and SET v += value.
func (c *checker) setProperties(v *parse.Variable, value parse.Expr, sc *scope, x ctx) {
	if t := c.variable(v, sc).Type; !t.accepts(TEntity) {
		fail(v.Pos, DetailInvalidArgumentType, "SET expects a node or a relationship, found %s", t)
	}
	if t := c.expr(value, sc, x); !t.accepts(TMap | TEntity) {
		fail(value.Position(), DetailInvalidArgumentType, "SET expects a map, found %s", t)
	}
}

// labelTarget checks the variable of SET v:L or REMOVE v:L.
func (c *checker) labelTarget(v *parse.Variable, sc *scope) {
	if t := c.variable(v, sc).Type; !t.accepts(TNode) {
		fail(v.Pos, DetailInvalidArgumentType, "labels can only be set on nodes, %s is %s", v.Name, t)
	}
}
