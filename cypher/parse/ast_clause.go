package parse

// Clause is one clause of a SingleQuery. The concrete types are:
//
//	reading:  *Match, *Unwind
//	updating: *Create, *Set, *Remove, *Delete
//	project:  *With, *Return
type Clause interface {
	Node
	clauseNode()
}

// Match is MATCH Pattern WHERE Where, or OPTIONAL MATCH when Optional is set.
// Where may be nil.
type Match struct {
	Pos
	Optional bool
	Pattern  *Pattern
	Where    Expr
}

// Unwind is UNWIND Expr AS Var.
type Unwind struct {
	Pos
	Expr Expr
	Var  *Variable
}

// With is WITH Projection WHERE Where; Where may be nil.
type With struct {
	Pos
	Projection *Projection
	Where      Expr
}

// Return is RETURN Projection.
type Return struct {
	Pos
	Projection *Projection
}

// Projection is the body shared by WITH and RETURN:
// DISTINCT? (* | items) ORDER BY … SKIP … LIMIT ….
// Star is set for "*", which may be followed by more items (RETURN *, x AS y).
// OrderBy is nil when absent; Skip and Limit are nil when absent.
type Projection struct {
	Pos
	Distinct bool
	Star     bool
	Items    []*ProjectionItem
	OrderBy  []*SortItem
	Skip     Expr
	Limit    Expr
}

// ProjectionItem is Expr AS Alias; Alias is nil when there is no AS.
// Text is the exact source text of Expr, which is the column name of an
// unaliased item in a result ("RETURN n.name" has the column "n.name").
// Text is not part of the canonical form: Equal ignores it.
type ProjectionItem struct {
	Pos
	Expr  Expr
	Alias *Variable
	Text  string `parse:"source"`
}

// Name returns the column name of the item: the alias if any, else Text.
func (it *ProjectionItem) Name() string {
	if it.Alias != nil {
		return it.Alias.Name
	}
	return it.Text
}

// SortItem is one ORDER BY key; ASC/ASCENDING (or nothing) gives
// Descending == false, DESC/DESCENDING gives true.
type SortItem struct {
	Pos
	Expr       Expr
	Descending bool
}

// Create is CREATE Pattern.
type Create struct {
	Pos
	Pattern *Pattern
}

// Set is SET item, item, …
type Set struct {
	Pos
	Items []SetItem
}

// SetItem is one item of a SET clause: *SetProperty, *SetAllProperties,
// *MergeProperties or *SetLabels.
type SetItem interface {
	Node
	setItemNode()
}

// SetProperty is Property = Value, e.g. n.name = 'x'.
type SetProperty struct {
	Pos
	Property *PropertyAccess
	Value    Expr
}

// SetAllProperties is Var = Value: replaces all properties of Var by the
// map (or entity) Value.
type SetAllProperties struct {
	Pos
	Var   *Variable
	Value Expr
}

// MergeProperties is Var += Value: adds the entries of the map Value.
type MergeProperties struct {
	Pos
	Var   *Variable
	Value Expr
}

// SetLabels is Var:L1:L2.
type SetLabels struct {
	Pos
	Var    *Variable
	Labels []string
}

// Remove is REMOVE item, item, …
type Remove struct {
	Pos
	Items []RemoveItem
}

// RemoveItem is *RemoveProperty or *RemoveLabels.
type RemoveItem interface {
	Node
	removeItemNode()
}

// RemoveProperty is REMOVE n.p.
type RemoveProperty struct {
	Pos
	Property *PropertyAccess
}

// RemoveLabels is REMOVE n:L1:L2.
type RemoveLabels struct {
	Pos
	Var    *Variable
	Labels []string
}

// Delete is DELETE e, … or DETACH DELETE e, … when Detach is set. The
// expressions are arbitrary (DELETE n:Person parses; the checker rejects it).
type Delete struct {
	Pos
	Detach bool
	Exprs  []Expr
}

func (*Match) clauseNode()  {}
func (*Unwind) clauseNode() {}
func (*With) clauseNode()   {}
func (*Return) clauseNode() {}
func (*Create) clauseNode() {}
func (*Set) clauseNode()    {}
func (*Remove) clauseNode() {}
func (*Delete) clauseNode() {}

func (*SetProperty) setItemNode()      {}
func (*SetAllProperties) setItemNode() {}
func (*MergeProperties) setItemNode()  {}
func (*SetLabels) setItemNode()        {}

func (*RemoveProperty) removeItemNode() {}
func (*RemoveLabels) removeItemNode()   {}
