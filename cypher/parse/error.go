package parse

import "fmt"

// ErrorKind classifies a parse error.
type ErrorKind int

const (
	// SyntaxError: the text is not a valid query of the openCypher grammar
	// (or has an invalid literal). It corresponds to the TCK's SyntaxError
	// raised at compile time.
	SyntaxError ErrorKind = iota + 1
	// NotSupported: the text uses a construct of Cypher that this parser
	// recognises but does not implement (MERGE, CALL, …). The construct is
	// named in Error.Construct. It is never a claim that the query is valid.
	NotSupported
	// TypeError: a value of a statically known type where that type cannot
	// be used (a property read on a number, a string, a list, …). The parser
	// never returns it; the semantic checker (cypher/check) does, as the
	// TCK's TypeError raised at compile time.
	TypeError
)

func (k ErrorKind) String() string {
	switch k {
	case SyntaxError:
		return "SyntaxError"
	case NotSupported:
		return "NotSupported"
	case TypeError:
		return "TypeError"
	}
	return fmt.Sprintf("ErrorKind(%d)", int(k))
}

// TCK error details that the parser can tell apart. A SyntaxError always has
// one of them in Error.Detail.
const (
	DetailUnexpectedSyntax           = "UnexpectedSyntax"
	DetailInvalidNumberLiteral       = "InvalidNumberLiteral"
	DetailInvalidUnicodeLiteral      = "InvalidUnicodeLiteral"
	DetailInvalidUnicodeCharacter    = "InvalidUnicodeCharacter"
	DetailIntegerOverflow            = "IntegerOverflow"
	DetailFloatingPointOverflow      = "FloatingPointOverflow"
	DetailInvalidRelationshipPattern = "InvalidRelationshipPattern"
	DetailInvalidClauseComposition   = "InvalidClauseComposition"
)

// Error is the error returned by Parse. Line and Column (1-based, Column in
// runes) and Offset (0-based, bytes) locate the offending token.
type Error struct {
	Kind      ErrorKind
	Detail    string // TCK detail for a SyntaxError, e.g. "InvalidNumberLiteral"
	Construct string // for NotSupported: the construct, e.g. "MERGE"
	Line      int
	Column    int
	Offset    int
	Msg       string // message without the position
}

// Error returns "line L, column C: message".
func (e *Error) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// Pos returns the position of the error.
func (e *Error) Pos() Pos { return Pos{Line: e.Line, Column: e.Column, Offset: e.Offset} }

// NewError returns an error of kind and detail at pos, for the parser and
// for the later stages that report errors in the same form.
func NewError(kind ErrorKind, detail string, pos Pos, format string, args ...any) *Error {
	return &Error{
		Kind:   kind,
		Detail: detail,
		Line:   pos.Line,
		Column: pos.Column,
		Offset: pos.Offset,
		Msg:    fmt.Sprintf(format, args...),
	}
}

func notSupported(pos Pos, construct string) *Error {
	e := NewError(NotSupported, "", pos, "%s is not supported", construct)
	e.Construct = construct
	return e
}
