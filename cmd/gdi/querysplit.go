package main

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/gdi-go/gdi/cypher/parse"
)

// statement is one statement of a source text: its text, trimmed of the
// spaces and comments around it, and the byte offset of the text in the
// source.
type statement struct {
	text   string
	offset int
}

// splitter state.
const (
	inCode = iota
	inSingle
	inDouble
	inBackquote
	inLineComment
	inBlockComment
)

// split is src cut at the semicolons outside strings, back-quoted names
// and comments (splitStatements).
type split struct {
	stmts []statement // the statements ended by ';', empty ones left out
	rest  *statement  // what follows the last ';', if more than spaces and comments
	tail  int         // the offset after the last ';'
	open  bool        // src ends inside a string, a name or a block comment
}

// splitStatements splits src at the semicolons outside strings,
// back-quoted names and comments.
func splitStatements(src string) split {
	var sp split
	state, first, last := inCode, -1, -1 // first, last: the statement's code bytes
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch state {
		case inCode:
			switch {
			case c == ';':
				if first >= 0 {
					sp.stmts = append(sp.stmts, statement{src[first : last+1], first})
				}
				sp.tail, first, last = i+1, -1, -1
				continue
			case c == '/' && i+1 < len(src) && src[i+1] == '/':
				state, i = inLineComment, i+1
				continue
			case c == '/' && i+1 < len(src) && src[i+1] == '*':
				state, i = inBlockComment, i+1
				continue
			case c == '\'':
				state = inSingle
			case c == '"':
				state = inDouble
			case c == '`':
				state = inBackquote
			case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
				continue
			}
			if first < 0 {
				first = i
			}
			last = i
		case inSingle, inDouble:
			last = i
			switch {
			case c == '\\':
				i++
				last = min(i, len(src)-1)
			case c == '\'' && state == inSingle, c == '"' && state == inDouble:
				state = inCode
			}
		case inBackquote:
			last = i
			if c == '`' { // a doubled back-quote closes and opens again
				state = inCode
			}
		case inLineComment:
			if c == '\n' {
				state = inCode
			}
		case inBlockComment:
			if c == '*' && i+1 < len(src) && src[i+1] == '/' {
				state, i = inCode, i+1
			}
		}
	}
	sp.open = state == inSingle || state == inDouble || state == inBackquote || state == inBlockComment
	if first >= 0 {
		// An unclosed string or name runs to the end.
		if state == inSingle || state == inDouble || state == inBackquote {
			last = len(src) - 1
		}
		sp.rest = &statement{src[first : last+1], first}
	}
	return sp
}

// stmtError is the error of a statement, with its position in the source.
type stmtError struct{ msg string }

func (e *stmtError) Error() string { return e.msg }

// statementError describes err, the error of statement st of src: the
// line and column in src of a syntax or semantic error, the line where
// the statement starts otherwise. name names src (a file) or is empty.
func statementError(src, name string, st statement, err error) error {
	prefix := ""
	if name != "" {
		prefix = name + ": "
	}
	var pe *parse.Error
	if errors.As(err, &pe) {
		line, col := position(src, st.offset+pe.Offset)
		what := pe.Kind.String() // SyntaxError, or a TypeError the checker finds
		if pe.Kind == parse.NotSupported {
			what = "not supported"
		} else if pe.Detail != "" {
			what += " (" + pe.Detail + ")"
		}
		return &stmtError{fmt.Sprintf("%sline %d, column %d: %s: %s", prefix, line, col, what, pe.Msg)}
	}
	line, _ := position(src, st.offset)
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
