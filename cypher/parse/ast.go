package parse

// Pos is a position in the query text. Line and Column are 1-based and
// Column counts runes (not bytes) from the start of the line; Offset is the
// 0-based byte offset into the query string.
//
// Every AST node embeds a Pos, which gives it the Position method of the Node
// interface. It is the position of the node's first token, except for infix
// and postfix operator nodes (*Binary, *Comparison, *IsNull, *PropertyAccess,
// *Index, *Slice, *LabelPredicate), where it is the position of the operator
// token (".", "[", ":", "IS", …), which is where errors about them point.
type Pos struct {
	Line   int
	Column int
	Offset int
}

// Position returns p; it is promoted to every node that embeds a Pos.
func (p Pos) Position() Pos { return p }

// IsValid reports whether p was set by the parser.
func (p Pos) IsValid() bool { return p.Line > 0 }

// Node is implemented by every AST node.
type Node interface {
	// Position is the position of the node's first token (of its operator
	// for infix and postfix operators).
	Position() Pos
	// String prints the node in canonical Cypher; see Format.
	String() string
}

// Query is a whole statement: one or more single queries joined by UNION or
// UNION ALL. For a query without UNION, Parts has one element and Unions is
// empty; otherwise len(Unions) == len(Parts)-1 and Unions[i] joins Parts[i]
// and Parts[i+1]. Mixing UNION and UNION ALL is accepted by the parser and is
// left to the semantic checker.
type Query struct {
	Pos
	Parts  []*SingleQuery
	Unions []*Union
}

// Union is one UNION keyword between two single queries.
type Union struct {
	Pos
	All bool // UNION ALL
}

// SingleQuery is a sequence of clauses, in order. A multi-part query (one
// with WITH) is represented flat: the WITH clauses are elements of Clauses.
//
// The parser guarantees the clause composition of the openCypher grammar:
// Clauses is not empty; it ends with a *Return or an updating clause
// (*Create, *Set, *Remove, *Delete); a *Return appears only last; and a
// reading clause (*Match, *Unwind) never directly follows an updating clause
// without a *With in between.
type SingleQuery struct {
	Pos
	Clauses []Clause
}
