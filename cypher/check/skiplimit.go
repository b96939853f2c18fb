package check

import "github.com/gdi-go/gdi/cypher/parse"

// skipLimit checks the argument of SKIP or LIMIT (place): it is computed
// once, before any row, so it cannot refer to variables
// (NonConstantExpression); it must be an integer (InvalidArgumentType) and
// a literal cannot be negative (NegativeIntegerArgument). A parameter is
// checked at run time.
func (c *checker) skipLimit(e parse.Expr, place string) {
	if e == nil {
		return
	}
	if v := freeVariable(e); v != nil {
		fail(v.Pos, DetailNonConstantExpression, "%s cannot refer to variable %s", place, v.Name)
	}
	t := c.expr(e, newScope(nil), ctx{place: place})
	if negativeLiteral(e) {
		fail(e.Position(), DetailNegativeIntegerArgument, "%s cannot be negative", place)
	}
	if !t.accepts(TInteger) {
		fail(e.Position(), DetailInvalidArgumentType, "%s expects an integer, found %s", place, t)
	}
}

// negativeLiteral reports whether e is a negative integer literal, -5 or
// -(5).
func negativeLiteral(e parse.Expr) bool {
	if u, ok := e.(*parse.Unary); ok && u.Op == parse.OpNeg {
		n, ok := u.X.(*parse.IntegerLit)
		return ok && n.Value > 0
	}
	n, ok := e.(*parse.IntegerLit)
	return ok && n.Value < 0
}
