package check

import "github.com/gdi-go/gdi/cypher/parse"

// ctx says where an expression is checked.
type ctx struct {
	// place names the clause or part of it, for messages ("WHERE", "SET", …).
	place string
	// aggregates allows aggregating functions: set for the items of WITH and
	// RETURN, and for their ORDER BY when they aggregate.
	aggregates bool
	// inAggregate is set inside the arguments of an aggregating function.
	inAggregate bool
	// columns, when set, are the columns of the projection that an ORDER BY
	// or a WITH … WHERE follows: a subexpression equal to a column's
	// expression stands for that column and is not checked again.
	columns []*ItemInfo
}

// expr checks e in the scope sc and returns its static type.
func (c *checker) expr(e parse.Expr, sc *scope, x ctx) Type {
	for _, col := range x.columns {
		if parse.Equal(e, col.Expr) {
			return col.Type
		}
	}
	switch e := e.(type) {
	case *parse.Variable:
		return c.variable(e, sc).Type
	case *parse.PropertyAccess:
		return c.property(e, sc, x)
	case *parse.Index:
		return c.index(e, sc, x)
	case *parse.Unary:
		return c.unary(e, sc, x)
	case *parse.Binary:
		return c.binary(e, sc, x)
	case *parse.FunctionCall:
		return c.call(e, sc, x)
	case *parse.CountStar:
		if _, ok := c.function("count"); !ok {
			fail(e.Pos, DetailUnknownFunction, "unknown function count")
		}
		c.aggregation(e.Pos, x)
		return TInteger
	case *parse.Case:
		return c.caseExpr(e, sc, x)
	case *parse.ListComprehension:
		return c.comprehension(e, sc, x)
	}
	for _, s := range parse.Children(e) {
		c.expr(s, sc, x)
	}
	return leafType(e)
}

// leafType is the type of the expressions whose type does not depend on
// their operands.
func leafType(e parse.Expr) Type {
	switch e.(type) {
	case *parse.IntegerLit:
		return TInteger
	case *parse.FloatLit:
		return TFloat
	case *parse.StringLit:
		return TString
	case *parse.BoolLit, *parse.LabelPredicate, *parse.Comparison, *parse.IsNull:
		return TBoolean
	case *parse.NullLit:
		return TNull
	case *parse.ListLit:
		return TList
	case *parse.MapLit:
		return TMap
	}
	return TAny // parameters, slicing
}

// variable returns the variable v refers to; it must be in scope.
func (c *checker) variable(v *parse.Variable, sc *scope) Var {
	b, ok := sc.lookup(v.Name)
	if !ok {
		fail(v.Pos, DetailUndefinedVariable, "variable %s is not defined", v.Name)
	}
	return b
}

// predicate checks a condition (WHERE, a comprehension's WHERE): it must
// be able to be a boolean.
func (c *checker) predicate(e parse.Expr, sc *scope, x ctx) {
	if t := c.expr(e, sc, x); !t.accepts(TBoolean) {
		fail(e.Position(), DetailInvalidArgumentType, "%s expects a boolean, found %s", x.place, t)
	}
}

// boolean checks an operand of NOT, AND, OR or XOR.
func (c *checker) boolean(e parse.Expr, op string, sc *scope, x ctx) {
	if t := c.expr(e, sc, x); !t.accepts(TBoolean) {
		fail(e.Position(), DetailInvalidArgumentType, "%s expects a boolean operand, found %s", op, t)
	}
}

func (c *checker) unary(e *parse.Unary, sc *scope, x ctx) Type {
	if e.Op == parse.OpNot {
		c.boolean(e.X, "NOT", sc, x)
		return TBoolean
	}
	return arithmetic(c.operand(e.X, string(e.Op), sc, x), TInteger)
}

func (c *checker) binary(e *parse.Binary, sc *scope, x ctx) Type {
	switch e.Op {
	case parse.OpAnd, parse.OpOr, parse.OpXor:
		c.boolean(e.L, string(e.Op), sc, x)
		c.boolean(e.R, string(e.Op), sc, x)
		return TBoolean
	case parse.OpIn:
		c.expr(e.L, sc, x)
		if t := c.expr(e.R, sc, x); !t.accepts(TList) {
			fail(e.R.Position(), DetailInvalidArgumentType, "IN expects a list, found %s", t)
		}
		return TBoolean
	case parse.OpStartsWith, parse.OpEndsWith, parse.OpContains:
		c.expr(e.L, sc, x)
		c.expr(e.R, sc, x)
		return TBoolean
	}
	t := arithmetic(c.operand(e.L, string(e.Op), sc, x), c.operand(e.R, string(e.Op), sc, x))
	if e.Op == parse.OpPow && t != TAny {
		return TFloat
	}
	return t
}

// arithmeticOperands gives the types the operands of an arithmetic
// operator may have: - * / apply to numbers and to temporal values and
// durations (TOther), % and ^ to numbers alone. + also concatenates
// strings and lists, and accepts anything.
var arithmeticOperands = map[string]Type{
	"-": TNumber | TOther, "*": TNumber | TOther, "/": TNumber | TOther,
	"%": TNumber, "^": TNumber,
}

// operand checks an operand of the arithmetic operator op (unary or
// binary) and returns its type: one that op cannot apply to is
// InvalidArgumentType.
func (c *checker) operand(e parse.Expr, op string, sc *scope, x ctx) Type {
	t := c.expr(e, sc, x)
	if allowed, ok := arithmeticOperands[op]; ok && !t.accepts(allowed) {
		fail(e.Position(), DetailInvalidArgumentType, "%s expects a number, found %s", op, t)
	}
	return t
}

func (c *checker) caseExpr(e *parse.Case, sc *scope, x ctx) Type {
	if e.Subject != nil {
		c.expr(e.Subject, sc, x)
	}
	var t Type
	for _, w := range e.Whens {
		c.expr(w.When, sc, x)
		t |= c.expr(w.Then, sc, x)
	}
	if e.Else == nil {
		return t | TNull
	}
	return t | c.expr(e.Else, sc, x)
}

// comprehension checks [v IN list WHERE p | m] and the list predicates
// q(v IN list WHERE p); v is local to p and m, which cannot aggregate (they
// are computed per element). Over a list literal, v has the types of its
// elements.
func (c *checker) comprehension(e *parse.ListComprehension, sc *scope, x ctx) Type {
	t, elem := c.listOperand(e.List, sc, x)
	if !t.accepts(TList) {
		fail(e.List.Position(), DetailInvalidArgumentType, "IN of a list comprehension expects a list, found %s", t)
	}
	local := newScope(sc)
	local.bind(Var{Name: e.Var.Name, Kind: KindValue, Type: elem})
	x.place, x.aggregates = "a list comprehension", false
	if e.Where != nil {
		c.predicate(e.Where, local, x)
	}
	if e.Map != nil {
		c.expr(e.Map, local, x)
	}
	if e.Quantifier != "" {
		return TBoolean | TNull
	}
	return TList
}

// listOperand checks the list of a comprehension and returns its type and
// that of its elements: the union of the elements' types for a non-empty
// list literal (not standing for a column), Any otherwise.
func (c *checker) listOperand(e parse.Expr, sc *scope, x ctx) (list, elem Type) {
	lit, ok := e.(*parse.ListLit)
	if !ok || len(lit.Elems) == 0 || isColumn(e, x) {
		return c.expr(e, sc, x), TAny
	}
	for _, el := range lit.Elems {
		elem |= c.expr(el, sc, x)
	}
	return TList, elem
}

// isColumn reports whether e is the expression of a column of x.
func isColumn(e parse.Expr, x ctx) bool {
	for _, col := range x.columns {
		if parse.Equal(e, col.Expr) {
			return true
		}
	}
	return false
}

// property checks X.key: X must be able to have properties (a map, a node,
// a relationship, a temporal value, …). Reading a property of a variable
// that a pattern bound to a path or to the relationships of a
// variable-length relationship misuses the pattern: a SyntaxError. Reading
// one of a value known to be a number, a boolean, a string or a list is a
// TypeError.
func (c *checker) property(e *parse.PropertyAccess, sc *scope, x ctx) Type {
	t := c.expr(e.X, sc, x)
	if t.accepts(TMap | TEntity | TOther) {
		return TAny
	}
	if v, ok := e.X.(*parse.Variable); ok && boundToPathOrRelationships(v, sc) {
		fail(e.Pos, DetailInvalidArgumentType, "property access on %s, which is a %s", v.Name, t)
	}
	failType(e.Pos, DetailInvalidArgumentType, "property access on a value of type %s", t)
	return TAny
}

// boundToPathOrRelationships reports whether v is a path or a list of
// relationships of a variable-length pattern.
func boundToPathOrRelationships(v *parse.Variable, sc *scope) bool {
	b, _ := sc.lookup(v.Name)
	return b.Kind == KindPath || b.Kind == KindRelationshipList
}

// index checks X[i]: a list takes an integer index, a map, a node or a
// relationship a string key (otherwise a TypeError, as at run time).
func (c *checker) index(e *parse.Index, sc *scope, x ctx) Type {
	xt, it := c.expr(e.X, sc, x)&^TNull, c.expr(e.Index, sc, x)
	switch {
	case xt == TList && !it.accepts(TInteger):
		failType(e.Index.Position(), DetailInvalidArgumentType, "a list index must be an integer, found %s", it)
	case xt != 0 && xt&^(TMap|TEntity) == 0 && !it.accepts(TString):
		failType(e.Index.Position(), DetailInvalidArgumentType, "a map key must be a string, found %s", it)
	}
	return TAny
}
