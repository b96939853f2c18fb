package check

import "github.com/gdi-go/gdi/cypher/parse"

// singleQuery checks the clauses of q in order, each in the scope the
// previous ones left, and returns its info and the columns of its RETURN.
func (c *checker) singleQuery(q *parse.SingleQuery) (*PartInfo, []string) {
	info := &PartInfo{}
	sc := newScope(nil)
	var cols []string
	for _, cl := range q.Clauses {
		ci := &ClauseInfo{Clause: cl}
		sc = c.clause(cl, sc, ci)
		ci.Scope = sc.list()
		info.Clauses = append(info.Clauses, ci)
		if _, ok := cl.(*parse.Return); ok {
			cols = ci.Projection.columns()
		}
	}
	return info, cols
}

// clause checks cl in the scope sc and returns the scope after it (sc
// itself, extended, for the clauses that only bind).
func (c *checker) clause(cl parse.Clause, sc *scope, ci *ClauseInfo) *scope {
	switch cl := cl.(type) {
	case *parse.Match:
		c.match(cl, sc)
	case *parse.Unwind:
		c.unwind(cl, sc)
	case *parse.Create:
		c.createPattern(cl.Pattern, sc)
	case *parse.Set:
		c.set(cl, sc)
	case *parse.Remove:
		c.remove(cl, sc)
	case *parse.Delete:
		c.delete(cl, sc)
	case *parse.With:
		ci.Projection, sc = c.with(cl, sc)
	case *parse.Return:
		ci.Projection, sc = c.projection(cl.Projection, sc, "RETURN")
	}
	return sc
}

// match binds the variables of the pattern, then checks the WHERE, which
// sees them.
func (c *checker) match(m *parse.Match, sc *scope) {
	c.matchPattern(m.Pattern, sc)
	if m.Where != nil {
		c.predicate(m.Where, sc, ctx{place: "WHERE"})
	}
}

// unwind checks UNWIND e AS v: v must be a new variable.
func (c *checker) unwind(u *parse.Unwind, sc *scope) {
	c.expr(u.Expr, sc, ctx{place: "UNWIND"})
	if _, ok := sc.lookup(u.Var.Name); ok {
		fail(u.Var.Pos, DetailVariableAlreadyBound, "variable %s is already bound", u.Var.Name)
	}
	sc.bind(Var{Name: u.Var.Name, Kind: KindValue, Type: TAny})
}
