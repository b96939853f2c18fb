package gdi

import (
	"errors"
	"fmt"
)

// Code is a GDI error code. Every Code is also an error class: the binding
// defines no codes beyond the classes of the specification, because a Go
// error chain carries the details that a C implementation would pack into
// extra codes.
//
// A Code is an error. The constants below are the sentinels that callers
// test with errors.Is; backends wrap them with context, for example with
// Errorf or fmt.Errorf("...: %w", gdi.ErrVertex).
//
// The numeric order follows the specification and is part of the contract:
//
//	Success < warnings <= WarnOther < errors < ErrTransactionCritical < LastCode
//
// so Code.IsWarning and Code.IsTransactionCritical are threshold tests.
type Code int

// Success and the warning classes. A function that returns a warning has
// done everything it was asked to do; its other results are valid.
const (
	// Success is the code of a call without error. Functions return nil,
	// never Success; it exists for ErrorClass and for completeness.
	Success Code = iota
	// WarnNonUniqueID: several vertices without labels share an
	// application-level ID.
	WarnNonUniqueID
	// WarnNotAllDataLoaded: a bulk load skipped some of the data.
	WarnNotAllDataLoaded
	// WarnOther: something happened that may need attention. It is the
	// last warning: every code up to it is a warning.
	WarnOther
)

// Error classes that leave the transaction usable (the "non-critical"
// errors). The grouping into preoperational, output and undefined errors is
// reported by Code.Category.
const (
	ErrAssert                Code = iota + WarnOther + 1 // invalid assert argument
	ErrBuffer                                            // invalid buffer
	ErrConstraint                                        // invalid constraint argument (for example a freed one)
	ErrCount                                             // invalid count argument
	ErrDatabase                                          // invalid database argument
	ErrDatatype                                          // invalid datatype argument
	ErrDate                                              // invalid Date value
	ErrDatetime                                          // invalid Datetime value
	ErrDecimal                                           // invalid Decimal value
	ErrDelimiter                                         // invalid CSV delimiter
	ErrEdge                                              // invalid edge argument (for example a freed EdgeHolder)
	ErrEdgeOrientation                                   // invalid edge orientation
	ErrErrorCode                                         // invalid error code argument
	ErrIndex                                             // invalid index argument
	ErrLabel                                             // invalid label argument
	ErrOp                                                // invalid operation argument
	ErrOpDatatypeMismatch                                // operation not defined for the datatype
	ErrPropertyType                                      // invalid property type argument
	ErrSize                                              // invalid size argument
	ErrStale                                             // an argument is stale
	ErrState                                             // invalid value of a state (enumeration) argument
	ErrSubconstraint                                     // invalid subconstraint argument
	ErrTime                                              // invalid Time value
	ErrTransaction                                       // invalid transaction argument
	ErrUID                                               // invalid UID argument
	ErrVertex                                            // invalid vertex argument (for example a freed VertexHolder)
	ErrArgument                                          // invalid argument of another kind
	ErrObjectMismatch                                    // objects of different databases (or transactions) mixed
	ErrUnknown                                           // unknown error
	ErrTruncate                                          // returned data truncated (never returned by this binding, see SPEC.md)
	ErrTransactionCommitFail                             // commit requested, transaction aborted instead
	ErrReadOnlyTransaction                               // write requested in a read-only transaction
	ErrConversion                                        // conversion between the two datatypes not allowed
	ErrRange                                             // an argument or value outside its valid range
	ErrNoProperty                                        // no such property on the object
	ErrPropertyExists                                    // property with that type and value already on the object
	ErrPropertyTypeExists                                // single-entity property already on the object
	ErrReadOnlyPropertyType                              // property type can only be changed by the library
	ErrNonUniqueID                                       // an object with that label and application-level ID exists
	ErrConsistency                                       // the operation would make the database inconsistent
	ErrOther                                             // known error not in this list
	ErrIntern                                            // internal backend error
	ErrNoMemory                                          // memory exhausted
	ErrResource                                          // a resource could not be acquired
	ErrEmptyName                                         // name is empty
	ErrNameExists                                        // name already used for this kind of object
	ErrNotSame                                           // collective arguments or call order differ between ranks
	ErrSizeLimit                                         // element count outside the property type's size limit
	ErrWrongType                                         // object type unsuitable for the operation
	ErrNoSuchFile                                        // file does not exist or cannot be opened
	ErrFileExists                                        // file exists
	ErrBadFile                                           // invalid file name
	ErrAccess                                            // permission denied
	ErrNoSpace                                           // not enough space
	ErrQuota                                             // quota exceeded
	ErrOutput                                            // error while producing output
	ErrReadOnlyFile                                      // read-only file or file system
	ErrFileInUse                                         // file in use by some process
	ErrFileFormat                                        // CSV file does not have the described layout
	ErrIO                                                // other I/O error

	// ErrTransactionCritical: the transaction can no longer commit. Every
	// code from here on is transaction-critical; Commit of that transaction
	// returns ErrTransactionCommitFail.
	ErrTransactionCritical
	// LastCode is larger than every code; it exists for sanity checks and
	// belongs to no category.
	LastCode
)

// Category is the state a failed call leaves behind (specification section
// 13).
type Category int

// Categories of error classes.
const (
	CategoryNone                Category = iota // Success and LastCode
	CategoryWarning                             // call succeeded; something needs attention
	CategoryPreoperational                      // nothing changed: no output, no new object, same transaction state
	CategoryOutput                              // output incomplete, nothing else changed
	CategoryTransactionCritical                 // outputs undefined; the transaction must abort
	CategoryCommitFailed                        // the transaction was rolled back and is gone
	CategoryUndefined                           // state of objects and database undefined
)

var categoryNames = [...]string{"none", "warning", "preoperational", "output", "transaction-critical", "commit-failed", "undefined"}

func (c Category) String() string {
	if c >= 0 && int(c) < len(categoryNames) {
		return categoryNames[c]
	}
	return fmt.Sprintf("Category(%d)", int(c))
}

var codeNames = [...]string{
	Success:                  "success",
	WarnNonUniqueID:          "warning: several vertices without labels share the application-level ID",
	WarnNotAllDataLoaded:     "warning: not all data was loaded",
	WarnOther:                "warning: a situation that may need attention",
	ErrAssert:                "invalid assert argument",
	ErrBuffer:                "invalid buffer",
	ErrConstraint:            "invalid constraint",
	ErrCount:                 "invalid count",
	ErrDatabase:              "invalid database",
	ErrDatatype:              "invalid datatype",
	ErrDate:                  "invalid date",
	ErrDatetime:              "invalid datetime",
	ErrDecimal:               "invalid decimal",
	ErrDelimiter:             "invalid delimiter",
	ErrEdge:                  "invalid edge",
	ErrEdgeOrientation:       "invalid edge orientation",
	ErrErrorCode:             "invalid error code",
	ErrIndex:                 "invalid index",
	ErrLabel:                 "invalid label",
	ErrOp:                    "invalid operation",
	ErrOpDatatypeMismatch:    "operation not defined for the datatype",
	ErrPropertyType:          "invalid property type",
	ErrSize:                  "invalid size",
	ErrStale:                 "stale argument",
	ErrState:                 "invalid state argument",
	ErrSubconstraint:         "invalid subconstraint",
	ErrTime:                  "invalid time",
	ErrTransaction:           "invalid transaction",
	ErrUID:                   "invalid UID",
	ErrVertex:                "invalid vertex",
	ErrArgument:              "invalid argument",
	ErrObjectMismatch:        "objects belong to different databases or transactions",
	ErrUnknown:               "unknown error",
	ErrTruncate:              "data truncated",
	ErrTransactionCommitFail: "transaction aborted instead of committed",
	ErrReadOnlyTransaction:   "write in a read-only transaction",
	ErrConversion:            "conversion not allowed",
	ErrRange:                 "value out of range",
	ErrNoProperty:            "no such property",
	ErrPropertyExists:        "property with that value exists",
	ErrPropertyTypeExists:    "single-entity property exists",
	ErrReadOnlyPropertyType:  "read-only property type",
	ErrNonUniqueID:           "application-level ID not unique for the label",
	ErrConsistency:           "operation would cause an inconsistency",
	ErrOther:                 "other error",
	ErrIntern:                "internal error",
	ErrNoMemory:              "out of memory",
	ErrResource:              "resource unavailable",
	ErrEmptyName:             "empty name",
	ErrNameExists:            "name exists",
	ErrNotSame:               "collective arguments differ between ranks",
	ErrSizeLimit:             "count outside the size limit",
	ErrWrongType:             "wrong type of object",
	ErrNoSuchFile:            "no such file",
	ErrFileExists:            "file exists",
	ErrBadFile:               "bad file name",
	ErrAccess:                "permission denied",
	ErrNoSpace:               "no space left",
	ErrQuota:                 "quota exceeded",
	ErrOutput:                "output error",
	ErrReadOnlyFile:          "read-only file",
	ErrFileInUse:             "file in use",
	ErrFileFormat:            "bad file format",
	ErrIO:                    "I/O error",
	ErrTransactionCritical:   "transaction-critical error",
	LastCode:                 "last code",
}

// Valid reports whether c is one of the defined codes, Success and LastCode
// included.
func (c Code) Valid() bool { return c >= Success && c <= LastCode }

// Error returns the error string of the code: GDI_GetErrorString. It is
// "gdi: " followed by a short description, and never longer than
// MaxErrorString-1 bytes. An unknown code yields the string of
// ErrErrorCode.
func (c Code) Error() string {
	if !c.Valid() {
		return "gdi: " + codeNames[ErrErrorCode] + fmt.Sprintf(" (%d)", int(c))
	}
	return "gdi: " + codeNames[c]
}

// String is the same as Error.
func (c Code) String() string { return c.Error() }

// Class returns the error class of c: GDI_GetErrorClass for a code. In this
// binding every valid code is a class, so a valid code maps onto itself; an
// invalid one maps to ErrErrorCode.
func (c Code) Class() Code {
	if !c.Valid() {
		return ErrErrorCode
	}
	return c
}

// IsWarning reports whether c is a warning: Success < c <= WarnOther.
func (c Code) IsWarning() bool { return c > Success && c <= WarnOther }

// IsError reports whether c is a real error: the call did not do what it
// was asked to do.
func (c Code) IsError() bool { return c > WarnOther && c < LastCode }

// IsTransactionCritical reports whether c makes the enclosing transaction
// fail: ErrTransactionCritical <= c < LastCode.
func (c Code) IsTransactionCritical() bool {
	return c >= ErrTransactionCritical && c < LastCode
}

// Category returns the state a call that failed with c leaves behind.
func (c Code) Category() Category {
	switch {
	case !c.Valid(), c == Success, c == LastCode:
		return CategoryNone
	case c.IsWarning():
		return CategoryWarning
	case c.IsTransactionCritical():
		return CategoryTransactionCritical
	}
	switch c {
	case ErrQuota, ErrTruncate, ErrOutput:
		return CategoryOutput
	case ErrTransactionCommitFail:
		return CategoryCommitFailed
	case ErrIntern, ErrOther, ErrIO, ErrUnknown:
		return CategoryUndefined
	}
	return CategoryPreoperational
}

// Codes returns every valid code in ascending order, Success and LastCode
// included.
func Codes() []Code {
	cs := make([]Code, 0, int(LastCode)+1)
	for c := Success; c <= LastCode; c++ {
		cs = append(cs, c)
	}
	return cs
}

// Error is an error with a class and a message. Backends may return it (via
// Errorf) or any other error that wraps a Code; callers should not rely on
// the concrete type but use errors.Is, ErrorClass and IsWarning.
type Error struct {
	Code Code   // the class
	Msg  string // what happened, without the "gdi: " prefix
	Err  error  // an optional cause, for example an rma error
}

// Errorf returns an *Error of class c with a formatted message. A %w verb
// in format records the cause, which errors.Is and errors.As also see.
func Errorf(c Code, format string, args ...any) error {
	e := fmt.Errorf(format, args...)
	return &Error{Code: c, Msg: e.Error(), Err: errors.Unwrap(e)}
}

func (e *Error) Error() string {
	if e.Msg == "" {
		return e.Code.Error()
	}
	return e.Code.Error() + ": " + e.Msg
}

// Unwrap returns the class first, so that errors.Is(err, e.Code) holds and
// ErrorClass finds the class before any code inside the cause.
func (e *Error) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Code}
	}
	return []error{e.Code, e.Err}
}

// ErrorClass returns the error class of err: GDI_GetErrorClass for a Go
// error. It is Success for nil and the class of the first Code found by
// errors.As in the chain of err otherwise. An error that carries no Code
// (which a conforming backend never returns) has the class ErrErrorCode,
// as an unknown code has in the specification.
func ErrorClass(err error) Code {
	if err == nil {
		return Success
	}
	var c Code
	if errors.As(err, &c) {
		return c.Class()
	}
	return ErrErrorCode
}

// IsWarning reports whether err is a warning: non-nil, and of a warning
// class. A call that returns a warning succeeded.
func IsWarning(err error) bool { return ErrorClass(err).IsWarning() }

// Failed reports whether err means that the call failed: err is non-nil and
// not a warning. It is the usual test after a GDI call.
func Failed(err error) bool { return err != nil && !IsWarning(err) }

// IsTransactionCritical reports whether err dooms the enclosing
// transaction. It holds if any Code in the chain of err is critical, so a
// backend may join ErrTransactionCritical with a more telling cause.
func IsTransactionCritical(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, ErrTransactionCritical) {
		return true
	}
	return ErrorClass(err).IsTransactionCritical()
}
