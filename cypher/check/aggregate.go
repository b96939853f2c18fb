package check

import "github.com/gdi-go/gdi/cypher/parse"

// aggregation checks that an aggregating function may be called here: only
// in the items of WITH and RETURN (and in their ORDER BY when they
// aggregate), and not inside another aggregation.
func (c *checker) aggregation(pos parse.Pos, x ctx) {
	if x.inAggregate {
		fail(pos, DetailNestedAggregation, "an aggregation cannot contain another aggregation")
	}
	if !x.aggregates {
		fail(pos, DetailInvalidAggregation, "aggregation is not allowed in %s", x.place)
	}
}

// isAggregate reports whether e is a call of an aggregating function.
func (c *checker) isAggregate(e parse.Expr) bool {
	switch e := e.(type) {
	case *parse.CountStar:
		return true
	case *parse.FunctionCall:
		f, ok := c.function(e.Name)
		return ok && f.Aggregate
	}
	return false
}

// containsAggregate reports whether e calls an aggregating function.
func (c *checker) containsAggregate(e parse.Expr) bool {
	found := false
	visit(e, nil, func(s parse.Expr, _ map[string]bool) bool {
		found = found || c.isAggregate(s)
		return !found
	})
	return found
}

// grouping is what an expression mixing aggregations with other values may
// refer to outside the aggregations: the grouping keys that are variables
// (by name) or property accesses (by expression). A grouping key that is a
// more complex expression cannot be referred to, as in openCypher.
type grouping struct {
	vars  map[string]bool
	props []parse.Expr
}

// newGrouping collects the simple grouping keys among items. In the items
// a key that is a variable is referred to by that variable; after the
// projection (byColumn, for ORDER BY) every grouping key can also be
// referred to by its column name.
func newGrouping(items []*ItemInfo, byColumn bool) grouping {
	g := grouping{vars: map[string]bool{}}
	for _, it := range items {
		if !it.GroupingKey {
			continue
		}
		switch e := it.Expr.(type) {
		case *parse.Variable:
			g.vars[e.Name] = true
		case *parse.PropertyAccess:
			g.props = append(g.props, e)
		}
		if byColumn {
			g.vars[it.Name] = true
		}
	}
	return g
}

// check rejects e, an expression containing an aggregation, if outside its
// aggregations it refers to a variable that is not a grouping key.
func (g grouping) check(e parse.Expr, c *checker) {
	visit(e, nil, func(s parse.Expr, locals map[string]bool) bool {
		if c.isAggregate(s) || g.isProperty(s) {
			return false
		}
		if v, ok := s.(*parse.Variable); ok && !locals[v.Name] && !g.vars[v.Name] {
			fail(v.Pos, DetailAmbiguousAggregationExpression,
				"%s is used next to an aggregation but is not a grouping key", v.Name)
		}
		return true
	})
}

func (g grouping) isProperty(e parse.Expr) bool {
	if _, ok := e.(*parse.PropertyAccess); !ok {
		return false
	}
	for _, p := range g.props {
		if parse.Equal(e, p) {
			return true
		}
	}
	return false
}
