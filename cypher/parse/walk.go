package parse

// Children returns the direct subexpressions of e in source order, nil
// ones left out. The variable of a list comprehension is a binding, not a
// subexpression.
func Children(e Expr) []Expr {
	switch e := e.(type) {
	case *ListLit:
		return e.Elems
	case *MapLit:
		vals := make([]Expr, len(e.Entries))
		for i, en := range e.Entries {
			vals[i] = en.Value
		}
		return vals
	case *PropertyAccess:
		return []Expr{e.X}
	case *Index:
		return []Expr{e.X, e.Index}
	case *Slice:
		return NonNil(e.X, e.From, e.To)
	case *LabelPredicate:
		return []Expr{e.X}
	case *Unary:
		return []Expr{e.X}
	case *Binary:
		return []Expr{e.L, e.R}
	case *Comparison:
		return e.Operands
	case *IsNull:
		return []Expr{e.X}
	case *FunctionCall:
		return e.Args
	case *Case:
		out := NonNil(e.Subject)
		for _, w := range e.Whens {
			out = append(out, w.When, w.Then)
		}
		return append(out, NonNil(e.Else)...)
	case *ListComprehension:
		return NonNil(e.List, e.Where, e.Map)
	}
	return nil
}

// Walk calls fn on e and on every subexpression of it, depth first in
// source order; a nil e is skipped.
func Walk(e Expr, fn func(Expr)) {
	if e == nil {
		return
	}
	fn(e)
	for _, c := range Children(e) {
		Walk(c, fn)
	}
}

// NonNil returns the non-nil expressions among es, for walks over
// optional parts of the AST.
func NonNil(es ...Expr) []Expr {
	var out []Expr
	for _, e := range es {
		if e != nil {
			out = append(out, e)
		}
	}
	return out
}
