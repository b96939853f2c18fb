package check

import (
	"github.com/gdi-go/gdi/cypher/parse"
)

// The TCK details of the semantic errors. Check reports them as a
// *parse.Error of Kind parse.SyntaxError (the TCK raises them as
// SyntaxErrors at compile time), or parse.TypeError for a property read on
// a value of a known type that has no properties, with one of these in
// Detail.
const (
	DetailUndefinedVariable               = "UndefinedVariable"
	DetailVariableAlreadyBound            = "VariableAlreadyBound"
	DetailVariableTypeConflict            = "VariableTypeConflict"
	DetailInvalidArgumentType             = "InvalidArgumentType"
	DetailInvalidArgumentExpression       = "InvalidArgumentExpression"
	DetailInvalidAggregation              = "InvalidAggregation"
	DetailNestedAggregation               = "NestedAggregation"
	DetailAmbiguousAggregationExpression  = "AmbiguousAggregationExpression"
	DetailNonConstantExpression           = "NonConstantExpression"
	DetailNegativeIntegerArgument         = "NegativeIntegerArgument"
	DetailNoSingleRelationshipType        = "NoSingleRelationshipType"
	DetailRequiresDirectedRelationship    = "RequiresDirectedRelationship"
	DetailCreatingVarLength               = "CreatingVarLength"
	DetailNoExpressionAlias               = "NoExpressionAlias"
	DetailColumnNameConflict              = "ColumnNameConflict"
	DetailInvalidDelete                   = "InvalidDelete"
	DetailInvalidParameterUse             = "InvalidParameterUse"
	DetailNoVariablesInScope              = "NoVariablesInScope"
	DetailRelationshipUniquenessViolation = "RelationshipUniquenessViolation"
	DetailUnknownFunction                 = "UnknownFunction"
	DetailDifferentColumnsInUnion         = "DifferentColumnsInUnion"
	DetailInvalidClauseComposition        = parse.DetailInvalidClauseComposition
)

// failure carries a semantic error from where it is found up to Check,
// which recovers it; this keeps the walking functions free of error plumbing.
type failure struct{ err *parse.Error }

// fail stops the check with a SyntaxError of the detail at pos.
func fail(pos parse.Pos, detail, format string, args ...any) {
	failKind(parse.SyntaxError, pos, detail, format, args...)
}

// failType stops the check with a TypeError of the detail at pos: a value
// whose type is known before the query runs is used where that type cannot
// be (the TCK's TypeError at compile time).
func failType(pos parse.Pos, detail, format string, args ...any) {
	failKind(parse.TypeError, pos, detail, format, args...)
}

func failKind(kind parse.ErrorKind, pos parse.Pos, detail, format string, args ...any) {
	panic(failure{parse.NewError(kind, detail, pos, format, args...)})
}

// recoverFailure turns a failure panic into *err; other panics go on.
func recoverFailure(err *error) {
	if r := recover(); r != nil {
		f, ok := r.(failure)
		if !ok {
			panic(r)
		}
		*err = f.err
	}
}
