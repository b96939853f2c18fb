package check

import "github.com/gdi-go/gdi/cypher/parse"

// children returns the direct subexpressions of e in source order. The
// variable of a list comprehension is a binding, not a subexpression.
func children(e parse.Expr) []parse.Expr {
	switch e := e.(type) {
	case *parse.ListLit:
		return e.Elems
	case *parse.MapLit:
		vals := make([]parse.Expr, len(e.Entries))
		for i, en := range e.Entries {
			vals[i] = en.Value
		}
		return vals
	case *parse.PropertyAccess:
		return []parse.Expr{e.X}
	case *parse.Index:
		return []parse.Expr{e.X, e.Index}
	case *parse.Slice:
		return nonNil(e.X, e.From, e.To)
	case *parse.LabelPredicate:
		return []parse.Expr{e.X}
	case *parse.Unary:
		return []parse.Expr{e.X}
	case *parse.Binary:
		return []parse.Expr{e.L, e.R}
	case *parse.Comparison:
		return e.Operands
	case *parse.IsNull:
		return []parse.Expr{e.X}
	case *parse.FunctionCall:
		return e.Args
	case *parse.Case:
		return caseChildren(e)
	case *parse.ListComprehension:
		return nonNil(e.List, e.Where, e.Map)
	}
	return nil
}

func caseChildren(e *parse.Case) []parse.Expr {
	out := nonNil(e.Subject)
	for _, w := range e.Whens {
		out = append(out, w.When, w.Then)
	}
	return append(out, nonNil(e.Else)...)
}

// nonNil returns the non-nil expressions among es.
func nonNil(es ...parse.Expr) []parse.Expr {
	var out []parse.Expr
	for _, e := range es {
		if e != nil {
			out = append(out, e)
		}
	}
	return out
}

// visit calls f on e and, while f returns true, on the subexpressions of
// e, depth first. locals holds the variables of the enclosing list
// comprehensions at each point.
func visit(e parse.Expr, locals map[string]bool, f func(e parse.Expr, locals map[string]bool) bool) {
	if !f(e, locals) {
		return
	}
	lc, ok := e.(*parse.ListComprehension)
	if !ok {
		for _, s := range children(e) {
			visit(s, locals, f)
		}
		return
	}
	visit(lc.List, locals, f)
	inner := map[string]bool{lc.Var.Name: true}
	for name := range locals {
		inner[name] = true
	}
	for _, s := range nonNil(lc.Where, lc.Map) {
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
