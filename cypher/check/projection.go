package check

import (
	"slices"
	"strings"

	"github.com/gdi-go/gdi/cypher/parse"
)

// with checks a WITH: its projection, then its WHERE, which is checked
// like an ORDER BY but may not aggregate.
func (c *checker) with(w *parse.With, in *scope) (*ProjectionInfo, *scope) {
	info, out := c.projection(w.Projection, in, "WITH")
	if w.Where != nil {
		sc, x := afterProjection(in, out, info, "WHERE")
		c.predicate(w.Where, sc, x)
	}
	return info, out
}

// projection checks the body of a WITH or RETURN (place) whose incoming
// scope is in, and returns its info and the scope of its columns.
func (c *checker) projection(p *parse.Projection, in *scope, place string) (*ProjectionInfo, *scope) {
	info := &ProjectionInfo{Distinct: p.Distinct}
	out := newScope(nil)
	if p.Star {
		star(p, in, info, out, place)
	}
	for _, it := range p.Items {
		c.item(it, in, info, out, place)
	}
	c.aggregating(info)
	c.orderBy(p.OrderBy, in, out, info)
	c.skipLimit(p.Skip, "SKIP")
	c.skipLimit(p.Limit, "LIMIT")
	if place == "WITH" {
		requireAliases(p.Items)
	}
	return info, out
}

// star expands *: every variable in scope, sorted by name, is a column.
// RETURN * needs a variable to return; WITH * with none passes the rows on
// with no column.
func star(p *parse.Projection, in *scope, info *ProjectionInfo, out *scope, place string) {
	vars := in.list()
	if len(vars) == 0 && place == "RETURN" {
		fail(p.Pos, DetailNoVariablesInScope, "* is not allowed when there are no variables in scope")
	}
	slices.SortFunc(vars, func(a, b Var) int { return strings.Compare(a.Name, b.Name) })
	for _, v := range vars {
		info.Items = append(info.Items, &ItemInfo{Name: v.Name, Expr: &parse.Variable{Pos: p.Pos, Name: v.Name},
			Type: v.Type, Kind: v.Kind, GroupingKey: true})
		out.bind(v)
	}
}

// item checks one projection item in the incoming scope and adds its
// column. Column names must be distinct.
func (c *checker) item(it *parse.ProjectionItem, in *scope, info *ProjectionInfo, out *scope, place string) {
	v, isVar := it.Expr.(*parse.Variable)
	t := c.expr(it.Expr, in, ctx{place: place, aggregates: true})
	name, kind := it.Name(), kindOf(t)
	if isVar {
		b, _ := in.lookup(v.Name)
		kind = b.Kind
		if it.Alias == nil {
			name = v.Name
		}
	}
	if _, dup := out.index[name]; dup {
		fail(it.Pos, DetailColumnNameConflict, "column %s is projected more than once", name)
	}
	agg := c.containsAggregate(it.Expr)
	info.Items = append(info.Items, &ItemInfo{Name: name, Expr: it.Expr, Type: t, Kind: kind,
		Aggregate: agg, GroupingKey: !agg})
	out.bind(Var{Name: name, Kind: kind, Type: t})
}

// aggregating sets info.Aggregating and checks that the items mixing
// aggregations with other values refer only to grouping keys.
func (c *checker) aggregating(info *ProjectionInfo) {
	for _, it := range info.Items {
		info.Aggregating = info.Aggregating || it.Aggregate
	}
	if !info.Aggregating {
		return
	}
	g := newGrouping(info.Items, false)
	for _, it := range info.Items {
		if it.Aggregate {
			g.check(it.Expr, c)
		}
	}
}

// requireAliases checks that every item of a WITH but a variable has an
// alias. It comes after the checks of the projection's expressions (and of
// its ORDER BY, SKIP and LIMIT), whose errors are reported first.
func requireAliases(items []*parse.ProjectionItem) {
	for _, it := range items {
		if _, isVar := it.Expr.(*parse.Variable); !isVar && it.Alias == nil {
			fail(it.Pos, DetailNoExpressionAlias, "expression in WITH must be aliased (use AS)")
		}
	}
}
