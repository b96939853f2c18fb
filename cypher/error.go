package cypher

import (
	"errors"
	"fmt"

	"github.com/gdi-go/gdi/cypher/parse"
	"github.com/gdi-go/gdi/cypher/value"
)

// Error is the error of Run: a Cypher error with the TCK's category and
// detail, or a failure of the database (no category), or a construct
// outside the engine's subset (NotSupported).
type Error struct {
	Category    string // TCK error type: SyntaxError, TypeError, EntityNotFound, …
	Detail      string // TCK detail: UndefinedVariable, DeletedEntityAccess, …
	Msg         string
	Unsupported bool
	Err         error // the original error on the rank that met it; nil on the others
}

func (e *Error) Error() string {
	switch {
	case e.Unsupported:
		return "not supported: " + e.Msg
	case e.Category != "":
		return fmt.Sprintf("%s (%s): %s", e.Category, e.Detail, e.Msg)
	}
	return e.Msg
}

// Unwrap returns the original error.
func (e *Error) Unwrap() error { return e.Err }

// TCKCategory returns the TCK's error type, e.g. "SyntaxError".
func (e *Error) TCKCategory() string { return e.Category }

// TCKDetail returns the TCK's detail, e.g. "UndefinedVariable".
func (e *Error) TCKDetail() string { return e.Detail }

// NotSupported reports whether the statement uses a construct outside the
// subset the engine implements.
func (e *Error) NotSupported() bool { return e.Unsupported }

// The categories and details the engine raises itself.
const (
	catEntityNotFound   = "EntityNotFound"
	catConstraint       = "ConstraintVerificationFailed"
	catParameterMissing = "ParameterMissing"
	catTypeError        = "TypeError"
	catArgumentError    = "ArgumentError"
	catSyntaxError      = "SyntaxError"
	catSemanticError    = "SemanticError"
)

// cypherError returns an engine error of a category and detail.
func cypherError(cat, detail, format string, args ...any) *Error {
	return &Error{Category: cat, Detail: detail, Msg: fmt.Sprintf(format, args...)}
}

// notSupported returns the error of a construct outside the subset.
func notSupported(format string, args ...any) *Error {
	return &Error{Unsupported: true, Msg: fmt.Sprintf(format, args...)}
}

// wrapError turns any error of a statement into an *Error.
func wrapError(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var pe *parse.Error
	if errors.As(err, &pe) {
		if pe.Kind == parse.NotSupported {
			return &Error{Unsupported: true, Msg: pe.Error(), Err: err}
		}
		return &Error{Category: pe.Kind.String(), Detail: pe.Detail, Msg: pe.Error(), Err: err}
	}
	var ve *value.Error
	if errors.As(err, &ve) {
		return &Error{Category: string(ve.Category), Detail: string(ve.Detail), Msg: ve.Msg, Err: err}
	}
	return &Error{Msg: err.Error(), Err: err}
}
