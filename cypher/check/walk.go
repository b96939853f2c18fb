package check

import "github.com/gdi-go/gdi/cypher/parse"

// visit calls f on e and, while f returns true, on the subexpressions of
// e, depth first. locals holds the variables of the enclosing list
// comprehensions at each point.
func visit(e parse.Expr, locals map[string]bool, f func(e parse.Expr, locals map[string]bool) bool) {
	if !f(e, locals) {
		return
	}
	lc, ok := e.(*parse.ListComprehension)
	if !ok {
		for _, s := range parse.Children(e) {
			visit(s, locals, f)
		}
		return
	}
	visit(lc.List, locals, f)
	inner := map[string]bool{lc.Var.Name: true}
	for name := range locals {
		inner[name] = true
	}
	for _, s := range parse.NonNil(lc.Where, lc.Map) {
		visit(s, inner, f)
	}
}

// freeVariable returns the first variable of e that is not bound by a list
// comprehension inside e, or nil.
func freeVariable(e parse.Expr) *parse.Variable {
	var found *parse.Variable
	visit(e, nil, func(s parse.Expr, locals map[string]bool) bool {
		if v, ok := s.(*parse.Variable); ok && found == nil && !locals[v.Name] {
			found = v
		}
		return found == nil
	})
	return found
}
