package check

import "github.com/gdi-go/gdi/cypher/parse"

// Info is what Check learns about a valid query, for the planner.
type Info struct {
	// Parts has one element per single query, in the order of
	// parse.Query.Parts (several for a UNION).
	Parts []*PartInfo
	// Columns are the names of the result columns (those of the first part
	// for a UNION), nil when the query ends with an updating clause.
	Columns []string
}

// PartInfo describes one single query.
type PartInfo struct {
	// Clauses has one element per clause of the single query, in order.
	Clauses []*ClauseInfo
}

// ClauseInfo describes one clause.
type ClauseInfo struct {
	Clause parse.Clause
	// Scope holds the variables in scope after the clause, in binding order.
	// After WITH and RETURN they are the projected columns, in column order.
	Scope []Var
	// Projection is set for WITH and RETURN.
	Projection *ProjectionInfo
}

// ProjectionInfo describes the body of a WITH or a RETURN.
type ProjectionInfo struct {
	// Items are the columns in order. A * is expanded first: one item per
	// variable in scope, sorted by name, whose Expr is that variable.
	Items []*ItemInfo
	// Distinct is set for WITH DISTINCT and RETURN DISTINCT.
	Distinct bool
	// Aggregating is set when some item contains an aggregating function:
	// the rows are then grouped by the items that are grouping keys, and
	// each group gives one row.
	Aggregating bool
}

// ItemInfo describes one column of a projection.
type ItemInfo struct {
	// Name is the column name: the alias, the variable name, or for an
	// unaliased expression of a RETURN its source text.
	Name string
	Expr parse.Expr
	Type Type
	Kind Kind
	// Aggregate is set when Expr contains an aggregating function.
	Aggregate bool
	// GroupingKey is set when Expr contains no aggregating function; in an
	// aggregating projection the rows are grouped by these items.
	GroupingKey bool
}

// columns returns the column names of a projection.
func (p *ProjectionInfo) columns() []string {
	names := make([]string, len(p.Items))
	for i, it := range p.Items {
		names[i] = it.Name
	}
	return names
}
