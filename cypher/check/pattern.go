package check

import "github.com/gdi-go/gdi/cypher/parse"

// matchPattern binds the variables of a MATCH pattern in sc, part by part
// and left to right, the path variable of a part after its elements; then
// it checks the property maps, which see every variable of the pattern.
//
// A node variable may be bound again to a node, a relationship variable
// bound by an earlier clause again to a relationship; any other re-use is a
// VariableTypeConflict, except a relationship variable used twice in the
// same pattern (RelationshipUniquenessViolation) and a path variable, which
// must be new (VariableAlreadyBound).
func (c *checker) matchPattern(p *parse.Pattern, sc *scope) {
	rels := map[string]bool{} // relationship variables bound by p
	for _, part := range p.Parts {
		for i, n := range part.Nodes {
			c.matchNode(n, sc)
			if i < len(part.Rels) {
				c.matchRel(part.Rels[i], sc, rels)
			}
		}
		if part.Var != nil {
			c.bindPath(part.Var, sc)
		}
	}
	c.properties(p, sc, "MATCH")
}

func (c *checker) matchNode(n *parse.NodePattern, sc *scope) {
	noParameter(n.Properties)
	if n.Var == nil {
		return
	}
	if v, ok := sc.lookup(n.Var.Name); ok {
		conflict(n.Var, v, TNode, "node")
		return
	}
	sc.bind(Var{Name: n.Var.Name, Kind: KindNode, Type: TNode})
}

func (c *checker) matchRel(r *parse.RelPattern, sc *scope, rels map[string]bool) {
	noParameter(r.Properties)
	if r.Var == nil {
		return
	}
	want, kind, what := TRelationship, KindRelationship, "relationship"
	if r.Length != nil {
		want, kind, what = TList, KindRelationshipList, "list of relationships"
	}
	name := r.Var.Name
	if v, ok := sc.lookup(name); ok {
		conflict(r.Var, v, want, what)
		if rels[name] {
			fail(r.Var.Pos, DetailRelationshipUniquenessViolation,
				"relationship %s is used twice in the same pattern", name)
		}
		return
	}
	rels[name] = true
	sc.bind(Var{Name: name, Kind: kind, Type: want})
}

// conflict fails unless the bound variable v can be used as a want.
func conflict(at *parse.Variable, v Var, want Type, what string) {
	if !v.Type.accepts(want) {
		fail(at.Pos, DetailVariableTypeConflict, "%s is bound to a %s (%s), not a %s",
			v.Name, v.Kind, v.Type, what)
	}
}

// noParameter rejects MATCH (n $param): a parameter cannot be a property
// map of a MATCH pattern.
func noParameter(props parse.Expr) {
	if p, ok := props.(*parse.Parameter); ok {
		fail(p.Pos, DetailInvalidParameterUse, "a parameter cannot be the property map of a MATCH pattern")
	}
}

// bindPath binds the variable of a named path, which must be new.
func (c *checker) bindPath(v *parse.Variable, sc *scope) {
	if _, ok := sc.lookup(v.Name); ok {
		fail(v.Pos, DetailVariableAlreadyBound, "variable %s is already bound", v.Name)
	}
	sc.bind(Var{Name: v.Name, Kind: KindPath, Type: TPath})
}

// properties checks the property maps of the patterns of p in sc.
func (c *checker) properties(p *parse.Pattern, sc *scope, place string) {
	x := ctx{place: place}
	for _, part := range p.Parts {
		for _, n := range part.Nodes {
			if n.Properties != nil {
				c.expr(n.Properties, sc, x)
			}
		}
		for _, r := range part.Rels {
			if r.Properties != nil {
				c.expr(r.Properties, sc, x)
			}
		}
	}
}
