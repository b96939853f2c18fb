package parse

import (
	"strconv"
	"strings"
)

// Format returns the canonical text of a node. The canonical form is one
// line: keywords in upper case, single spaces, names back-quoted only when
// needed, strings in single quotes, numbers in decimal, and every operand
// that is itself an operator expression in parentheses, so that the tree
// structure is explicit: NOT a = b OR c prints as (NOT (a = b)) OR c.
//
// For every query q that parses, Parse(Format(q)) succeeds and is Equal to q,
// and Format is idempotent on its own output.
func Format(n Node) string {
	var pr printer
	pr.node(n)
	return pr.b.String()
}

type printer struct{ b strings.Builder }

func (pr *printer) s(parts ...string) {
	for _, s := range parts {
		pr.b.WriteString(s)
	}
}

func (pr *printer) node(n Node) {
	switch n := n.(type) {
	case *Query:
		for i, part := range n.Parts {
			if i > 0 {
				pr.node(n.Unions[i-1])
			}
			pr.node(part)
		}
	case *Union:
		pr.s(" UNION ")
		if n.All {
			pr.s("ALL ")
		}
	case *SingleQuery:
		for i, c := range n.Clauses {
			if i > 0 {
				pr.s(" ")
			}
			pr.node(c)
		}
	case Clause:
		pr.clause(n)
	case SetItem:
		pr.setItem(n)
	case RemoveItem:
		pr.removeItem(n)
	case Expr:
		pr.expr(n)
	case *Pattern:
		pr.pattern(n)
	case *PatternPart:
		pr.patternPart(n)
	case *NodePattern:
		pr.nodePattern(n)
	case *RelPattern:
		pr.relPattern(n)
	case *Range:
		pr.rangeLit(n)
	case *Projection:
		pr.projection(n)
	case *ProjectionItem:
		pr.projectionItem(n)
	case *SortItem:
		pr.sortItem(n)
	case *MapEntry:
		pr.s(quoteName(n.Key), ": ")
		pr.expr(n.Value)
	case *CaseWhen:
		pr.s("WHEN ")
		pr.expr(n.When)
		pr.s(" THEN ")
		pr.expr(n.Then)
	}
}

// Clauses.

func (pr *printer) clause(c Clause) {
	switch c := c.(type) {
	case *Match:
		if c.Optional {
			pr.s("OPTIONAL ")
		}
		pr.s("MATCH ")
		pr.pattern(c.Pattern)
		pr.where(c.Where)
	case *Unwind:
		pr.s("UNWIND ")
		pr.expr(c.Expr)
		pr.s(" AS ", quoteName(c.Var.Name))
	case *With:
		pr.s("WITH ")
		pr.projection(c.Projection)
		pr.where(c.Where)
	case *Return:
		pr.s("RETURN ")
		pr.projection(c.Projection)
	case *Create:
		pr.s("CREATE ")
		pr.pattern(c.Pattern)
	case *Set:
		pr.s("SET ")
		for i, it := range c.Items {
			pr.comma(i)
			pr.setItem(it)
		}
	case *Remove:
		pr.s("REMOVE ")
		for i, it := range c.Items {
			pr.comma(i)
			pr.removeItem(it)
		}
	case *Delete:
		if c.Detach {
			pr.s("DETACH ")
		}
		pr.s("DELETE ")
		pr.exprList(c.Exprs)
	}
}

func (pr *printer) comma(i int) {
	if i > 0 {
		pr.s(", ")
	}
}

func (pr *printer) where(e Expr) {
	if e != nil {
		pr.s(" WHERE ")
		pr.expr(e)
	}
}

func (pr *printer) projection(p *Projection) {
	if p.Distinct {
		pr.s("DISTINCT ")
	}
	if p.Star {
		pr.s("*")
	}
	for i, it := range p.Items {
		if i > 0 || p.Star {
			pr.s(", ")
		}
		pr.projectionItem(it)
	}
	for i, it := range p.OrderBy {
		if i == 0 {
			pr.s(" ORDER BY ")
		}
		pr.comma(i)
		pr.sortItem(it)
	}
	if p.Skip != nil {
		pr.s(" SKIP ")
		pr.expr(p.Skip)
	}
	if p.Limit != nil {
		pr.s(" LIMIT ")
		pr.expr(p.Limit)
	}
}

func (pr *printer) projectionItem(it *ProjectionItem) {
	pr.expr(it.Expr)
	if it.Alias != nil {
		pr.s(" AS ", quoteName(it.Alias.Name))
	}
}

func (pr *printer) sortItem(it *SortItem) {
	pr.expr(it.Expr)
	if it.Descending {
		pr.s(" DESC")
	}
}

func (pr *printer) setItem(it SetItem) {
	switch it := it.(type) {
	case *SetProperty:
		pr.expr(it.Property)
		pr.s(" = ")
		pr.expr(it.Value)
	case *SetAllProperties:
		pr.s(quoteName(it.Var.Name), " = ")
		pr.expr(it.Value)
	case *MergeProperties:
		pr.s(quoteName(it.Var.Name), " += ")
		pr.expr(it.Value)
	case *SetLabels:
		pr.s(quoteName(it.Var.Name))
		pr.labels(it.Labels)
	}
}

func (pr *printer) removeItem(it RemoveItem) {
	switch it := it.(type) {
	case *RemoveProperty:
		pr.expr(it.Property)
	case *RemoveLabels:
		pr.s(quoteName(it.Var.Name))
		pr.labels(it.Labels)
	}
}

func (pr *printer) labels(ls []string) {
	for _, l := range ls {
		pr.s(":", quoteName(l))
	}
}

// Patterns.

func (pr *printer) pattern(p *Pattern) {
	for i, part := range p.Parts {
		pr.comma(i)
		pr.patternPart(part)
	}
}

func (pr *printer) patternPart(p *PatternPart) {
	if p.Var != nil {
		pr.s(quoteName(p.Var.Name), " = ")
	}
	for i, n := range p.Nodes {
		if i > 0 {
			pr.relPattern(p.Rels[i-1])
		}
		pr.nodePattern(n)
	}
}

func (pr *printer) nodePattern(n *NodePattern) {
	pr.s("(")
	if n.Var != nil {
		pr.s(quoteName(n.Var.Name))
	}
	pr.labels(n.Labels)
	if n.Properties != nil {
		if n.Var != nil || len(n.Labels) > 0 {
			pr.s(" ")
		}
		pr.expr(n.Properties)
	}
	pr.s(")")
}

func (pr *printer) relPattern(r *RelPattern) {
	if r.Direction == RightToLeft || r.Direction == BothArrows {
		pr.s("<")
	}
	pr.s("-")
	if r.Var != nil || len(r.Types) > 0 || r.Length != nil || r.Properties != nil {
		pr.s("[")
		if r.Var != nil {
			pr.s(quoteName(r.Var.Name))
		}
		for i, t := range r.Types {
			if i == 0 {
				pr.s(":")
			} else {
				pr.s("|")
			}
			pr.s(quoteName(t))
		}
		if r.Length != nil {
			pr.rangeLit(r.Length)
		}
		if r.Properties != nil {
			if r.Var != nil || len(r.Types) > 0 || r.Length != nil {
				pr.s(" ")
			}
			pr.expr(r.Properties)
		}
		pr.s("]")
	}
	pr.s("-")
	if r.Direction == LeftToRight || r.Direction == BothArrows {
		pr.s(">")
	}
}

func (pr *printer) rangeLit(r *Range) {
	pr.s("*")
	switch {
	case r.Min != nil && r.Max != nil && *r.Min == *r.Max:
		pr.s(strconv.FormatInt(*r.Min, 10))
	case r.Min == nil && r.Max == nil:
	default:
		if r.Min != nil {
			pr.s(strconv.FormatInt(*r.Min, 10))
		}
		pr.s("..")
		if r.Max != nil {
			pr.s(strconv.FormatInt(*r.Max, 10))
		}
	}
}

// String methods print the canonical form (see Format).

func (n *Query) String() string             { return Format(n) }
func (n *Union) String() string             { return Format(n) }
func (n *SingleQuery) String() string       { return Format(n) }
func (n *Match) String() string             { return Format(n) }
func (n *Unwind) String() string            { return Format(n) }
func (n *With) String() string              { return Format(n) }
func (n *Return) String() string            { return Format(n) }
func (n *Create) String() string            { return Format(n) }
func (n *Set) String() string               { return Format(n) }
func (n *Remove) String() string            { return Format(n) }
func (n *Delete) String() string            { return Format(n) }
func (n *Projection) String() string        { return Format(n) }
func (n *ProjectionItem) String() string    { return Format(n) }
func (n *SortItem) String() string          { return Format(n) }
func (n *SetProperty) String() string       { return Format(n) }
func (n *SetAllProperties) String() string  { return Format(n) }
func (n *MergeProperties) String() string   { return Format(n) }
func (n *SetLabels) String() string         { return Format(n) }
func (n *RemoveProperty) String() string    { return Format(n) }
func (n *RemoveLabels) String() string      { return Format(n) }
func (n *Pattern) String() string           { return Format(n) }
func (n *PatternPart) String() string       { return Format(n) }
func (n *NodePattern) String() string       { return Format(n) }
func (n *RelPattern) String() string        { return Format(n) }
func (n *Range) String() string             { return Format(n) }
func (n *Variable) String() string          { return Format(n) }
func (n *Parameter) String() string         { return Format(n) }
func (n *IntegerLit) String() string        { return Format(n) }
func (n *FloatLit) String() string          { return Format(n) }
func (n *StringLit) String() string         { return Format(n) }
func (n *BoolLit) String() string           { return Format(n) }
func (n *NullLit) String() string           { return Format(n) }
func (n *ListLit) String() string           { return Format(n) }
func (n *MapLit) String() string            { return Format(n) }
func (n *MapEntry) String() string          { return Format(n) }
func (n *PropertyAccess) String() string    { return Format(n) }
func (n *Index) String() string             { return Format(n) }
func (n *Slice) String() string             { return Format(n) }
func (n *LabelPredicate) String() string    { return Format(n) }
func (n *Unary) String() string             { return Format(n) }
func (n *Binary) String() string            { return Format(n) }
func (n *Comparison) String() string        { return Format(n) }
func (n *IsNull) String() string            { return Format(n) }
func (n *FunctionCall) String() string      { return Format(n) }
func (n *CountStar) String() string         { return Format(n) }
func (n *Case) String() string              { return Format(n) }
func (n *CaseWhen) String() string          { return Format(n) }
func (n *ListComprehension) String() string { return Format(n) }
