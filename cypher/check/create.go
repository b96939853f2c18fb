package check

import "github.com/gdi-go/gdi/cypher/parse"

// createPattern binds the variables of a CREATE pattern in sc, as
// matchPattern does, then checks the property maps. A CREATE creates every
// relationship and every node whose variable is new. A bound node variable
// only connects a new relationship: it cannot have labels or properties nor
// stand alone as a path (VariableAlreadyBound). Every relationship is new:
// its variable must be new, and it needs exactly one type, a direction and
// a single hop.
func (c *checker) createPattern(p *parse.Pattern, sc *scope) {
	for _, part := range p.Parts {
		for i, n := range part.Nodes {
			c.createNode(n, sc, len(part.Nodes) == 1)
			if i < len(part.Rels) {
				c.createRel(part.Rels[i], sc)
			}
		}
		if part.Var != nil {
			c.bindPath(part.Var, sc)
		}
	}
	c.properties(p, sc, "CREATE")
}

func (c *checker) createNode(n *parse.NodePattern, sc *scope, alone bool) {
	if n.Var == nil {
		return
	}
	v, ok := sc.lookup(n.Var.Name)
	if !ok {
		sc.bind(Var{Name: n.Var.Name, Kind: KindNode, Type: TNode})
		return
	}
	conflict(n.Var, v, TNode, "node")
	switch {
	case alone:
		fail(n.Var.Pos, DetailVariableAlreadyBound, "node %s already exists and cannot be created", v.Name)
	case len(n.Labels) > 0 || n.Properties != nil:
		fail(n.Var.Pos, DetailVariableAlreadyBound,
			"node %s already exists: CREATE cannot give it labels or properties", v.Name)
	}
}

func (c *checker) createRel(r *parse.RelPattern, sc *scope) {
	if r.Var != nil {
		if _, ok := sc.lookup(r.Var.Name); ok {
			fail(r.Var.Pos, DetailVariableAlreadyBound, "relationship %s already exists and cannot be created", r.Var.Name)
		}
		sc.bind(Var{Name: r.Var.Name, Kind: KindRelationship, Type: TRelationship})
	}
	switch {
	case r.Length != nil:
		fail(r.Length.Pos, DetailCreatingVarLength, "CREATE cannot create a variable-length relationship")
	case len(r.Types) != 1:
		fail(r.Pos, DetailNoSingleRelationshipType, "CREATE needs exactly one relationship type")
	case r.Direction != parse.LeftToRight && r.Direction != parse.RightToLeft:
		fail(r.Pos, DetailRequiresDirectedRelationship, "CREATE needs a directed relationship")
	}
}
