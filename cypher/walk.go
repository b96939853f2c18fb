package cypher

import "github.com/gdi-go/gdi/cypher/parse"

// clauseExprs returns the expressions of a clause, patterns' property
// maps included.
func clauseExprs(cl parse.Clause) []parse.Expr {
	switch c := cl.(type) {
	case *parse.Match:
		return append(patternExprs(c.Pattern), parse.NonNil(c.Where)...)
	case *parse.Unwind:
		return []parse.Expr{c.Expr}
	case *parse.With:
		return append(projectionExprs(c.Projection), parse.NonNil(c.Where)...)
	case *parse.Return:
		return projectionExprs(c.Projection)
	case *parse.Create:
		return patternExprs(c.Pattern)
	case *parse.Set:
		return setExprs(c)
	case *parse.Remove:
		var out []parse.Expr
		for _, it := range c.Items {
			if p, ok := it.(*parse.RemoveProperty); ok {
				out = append(out, p.Property)
			}
		}
		return out
	case *parse.Delete:
		return c.Exprs
	}
	return nil
}

func setExprs(s *parse.Set) []parse.Expr {
	var out []parse.Expr
	for _, it := range s.Items {
		switch it := it.(type) {
		case *parse.SetProperty:
			out = append(out, it.Property, it.Value)
		case *parse.SetAllProperties:
			out = append(out, it.Value)
		case *parse.MergeProperties:
			out = append(out, it.Value)
		}
	}
	return out
}

func patternExprs(p *parse.Pattern) []parse.Expr {
	var out []parse.Expr
	for _, part := range p.Parts {
		for _, n := range part.Nodes {
			out = append(out, parse.NonNil(n.Properties)...)
		}
		for _, r := range part.Rels {
			out = append(out, parse.NonNil(r.Properties)...)
		}
	}
	return out
}

func projectionExprs(p *parse.Projection) []parse.Expr {
	var out []parse.Expr
	for _, it := range p.Items {
		out = append(out, it.Expr)
	}
	for _, s := range p.OrderBy {
		out = append(out, s.Expr)
	}
	return append(out, parse.NonNil(p.Skip, p.Limit)...)
}
