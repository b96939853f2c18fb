package check

import "github.com/gdi-go/gdi/cypher/parse"

// orderBy checks the ORDER BY of a projection. It sees the scope given by
// afterProjection; it may aggregate only when the projection does, and then
// an item mixing aggregations with other values refers only to grouping
// keys, by expression or by column name.
func (c *checker) orderBy(items []*parse.SortItem, in, out *scope, info *ProjectionInfo) {
	if len(items) == 0 {
		return
	}
	sc, x := afterProjection(in, out, info, "ORDER BY")
	x.aggregates = info.Aggregating
	g := newGrouping(info.Items, true)
	for _, s := range items {
		c.expr(s.Expr, sc, x)
		if info.Aggregating && c.containsAggregate(s.Expr) {
			g.check(s.Expr, c)
		}
	}
}

// afterProjection returns the scope and context of the expressions that
// follow a projection: ORDER BY and the WHERE of a WITH. They see the
// columns and, unless the projection aggregates or is DISTINCT, the
// variables in scope before it (a column hides a variable of the same
// name). In both cases an expression equal to a column's expression stands
// for the column (RETURN DISTINCT n.name ORDER BY n.name).
func afterProjection(in, out *scope, info *ProjectionInfo, place string) (*scope, ctx) {
	x := ctx{place: place, columns: info.Items}
	if info.Aggregating || info.Distinct {
		return out, x
	}
	sc := in.clone()
	for _, v := range out.vars {
		sc.bind(v)
	}
	return sc, x
}
