package main

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/gdi-go/gdi/cypher/parse"
)

// stmtError is the error of a statement, with its position in the source.
type stmtError struct{ msg string }

func (e *stmtError) Error() string { return e.msg }

// statementError describes err, the error of statement st of src: the
// line and column in src of a syntax or semantic error, the line where
// the statement starts otherwise. name names src (a file) or is empty.
func statementError(src, name string, st parse.Piece, err error) error {
	prefix := ""
	if name != "" {
		prefix = name + ": "
	}
	var pe *parse.Error
	if errors.As(err, &pe) {
		line, col := position(src, st.Offset+pe.Offset)
		what := pe.Kind.String() // SyntaxError, or a TypeError the checker finds
		if pe.Kind == parse.NotSupported {
			what = "not supported"
		} else if pe.Detail != "" {
			what += " (" + pe.Detail + ")"
		}
		return &stmtError{fmt.Sprintf("%sline %d, column %d: %s: %s", prefix, line, col, what, pe.Msg)}
	}
	line, _ := position(src, st.Offset)
	return &stmtError{fmt.Sprintf("%sstatement at line %d: %v", prefix, line, err)}
}

// position returns the 1-based line and column (in runes) of byte offset
// at of src.
func position(src string, at int) (line, col int) {
	at = max(0, min(at, len(src)))
	before := src[:at]
	line = strings.Count(before, "\n") + 1
	col = utf8.RuneCountInString(before[strings.LastIndexByte(before, '\n')+1:]) + 1
	return line, col
}
