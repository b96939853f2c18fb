package parse

import (
	"cmp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokenKind is the kind of a lexical token.
type tokenKind int

const (
	tEOF       tokenKind = iota
	tIllegal             // a lexical error; token.err says which
	tIdent               // unescaped name or keyword (keywords are not separate kinds)
	tQuoted              // `back-quoted name`; never a keyword
	tInt                 // integer literal; text is the source, e.g. "0x1F"
	tFloat               // float literal
	tString              // string literal; val is the decoded value
	tParam               // $name or $0; val is the name
	tLParen              // (
	tRParen              // )
	tLBracket            // [
	tRBracket            // ]
	tLBrace              // {
	tRBrace              // }
	tComma               // ,
	tDot                 // .
	tDotDot              // ..
	tColon               // :
	tSemicolon           // ;
	tPipe                // |
	tEq                  // =
	tNe                  // <>
	tLt                  // <
	tGt                  // >
	tLe                  // <=
	tGe                  // >=
	tRegex               // =~
	tPlusEq              // +=
	tPlus                // +
	tMinus               // -
	tStar                // *
	tSlash               // /
	tPercent             // %
	tCaret               // ^
)

// token is one lexical token.
type token struct {
	kind tokenKind
	pos  Pos
	end  int    // byte offset just after the token
	text string // source text of the token
	val  string // decoded value of tString, tQuoted and tParam
	err  *Error // for tIllegal
	open bool   // a tIllegal string, back-quoted name or block comment the source ends inside
}

// lexer splits a query into tokens. Errors become a tIllegal token, after
// which lexing stops, so that the parser reports errors in source order.
type lexer struct {
	src  string
	off  int // byte offset of the next rune
	line int
	col  int
}

// lex returns the tokens of src, ending with tEOF (after a tIllegal, if any).
func lex(src string) []token {
	lx := &lexer{src: src, line: 1, col: 1}
	var toks []token
	for {
		t := lx.next()
		toks = append(toks, t)
		switch t.kind {
		case tEOF:
			return toks
		case tIllegal:
			return append(toks, token{kind: tEOF, pos: lx.pos(), end: lx.off})
		}
	}
}

func (lx *lexer) pos() Pos { return Pos{Line: lx.line, Column: lx.col, Offset: lx.off} }

// peek returns the rune n runes ahead (0 is the next rune), or -1 at the end.
func (lx *lexer) peek(n int) rune {
	off := lx.off
	for ; n > 0 && off < len(lx.src); n-- {
		_, w := utf8.DecodeRuneInString(lx.src[off:])
		off += w
	}
	if off >= len(lx.src) {
		return -1
	}
	r, _ := utf8.DecodeRuneInString(lx.src[off:])
	return r
}

// advance consumes one rune.
func (lx *lexer) advance() rune {
	if lx.off >= len(lx.src) {
		return -1
	}
	r, w := utf8.DecodeRuneInString(lx.src[lx.off:])
	lx.off += w
	if r == '\n' {
		lx.line++
		lx.col = 1
	} else {
		lx.col++
	}
	return r
}

func (lx *lexer) make(kind tokenKind, start Pos) token {
	return token{kind: kind, pos: start, end: lx.off, text: lx.src[start.Offset:lx.off]}
}

func (lx *lexer) illegal(start, at Pos, detail, format string, args ...any) token {
	t := lx.make(tIllegal, start)
	t.err = NewError(SyntaxError, detail, at, format, args...)
	return t
}

func isIdentStart(r rune) bool { return r == '_' || unicode.IsLetter(r) }
func isIdentPart(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r)
}
func isDigit(r rune) bool { return r >= '0' && r <= '9' }

// skipSpace skips white space and comments; it returns an error token for an
// unterminated block comment.
func (lx *lexer) skipSpace() *token {
	for {
		r := lx.peek(0)
		switch {
		case r >= 0 && unicode.IsSpace(r):
			lx.advance()
		case r == '/' && lx.peek(1) == '/':
			for r := lx.peek(0); r >= 0 && r != '\n'; r = lx.peek(0) {
				lx.advance()
			}
		case r == '/' && lx.peek(1) == '*':
			start := lx.pos()
			lx.advance()
			lx.advance()
			for !(lx.peek(0) == '*' && lx.peek(1) == '/') {
				if lx.advance() < 0 {
					t := lx.illegal(start, start, DetailUnexpectedSyntax, "unterminated comment")
					t.open = true
					return &t
				}
			}
			lx.advance()
			lx.advance()
		default:
			return nil
		}
	}
}

// punct maps two- and one-character punctuation to token kinds; two-character
// entries are tried first.
var punct2 = map[string]tokenKind{
	"..": tDotDot, "<>": tNe, "<=": tLe, ">=": tGe, "=~": tRegex, "+=": tPlusEq,
}

var punct1 = map[rune]tokenKind{
	'(': tLParen, ')': tRParen, '[': tLBracket, ']': tRBracket, '{': tLBrace, '}': tRBrace,
	',': tComma, '.': tDot, ':': tColon, ';': tSemicolon, '|': tPipe, '=': tEq, '<': tLt,
	'>': tGt, '+': tPlus, '-': tMinus, '*': tStar, '/': tSlash, '%': tPercent, '^': tCaret,
}

func (lx *lexer) next() token {
	if t := lx.skipSpace(); t != nil {
		return *t
	}
	start := lx.pos()
	r := lx.peek(0)
	switch {
	case r < 0:
		return lx.make(tEOF, start)
	case isIdentStart(r):
		for isIdentPart(lx.peek(0)) {
			lx.advance()
		}
		return lx.make(tIdent, start)
	case isDigit(r) || (r == '.' && isDigit(lx.peek(1))):
		return lx.number(start)
	case r == '\'' || r == '"':
		return lx.str(start)
	case r == '`':
		t, _ := lx.quoted(start, tQuoted)
		return t
	case r == '$':
		return lx.param(start)
	}
	if lx.off+1 < len(lx.src) {
		if k, ok := punct2[lx.src[lx.off:lx.off+2]]; ok {
			lx.advance()
			lx.advance()
			return lx.make(k, start)
		}
	}
	if k, ok := punct1[r]; ok {
		lx.advance()
		return lx.make(k, start)
	}
	lx.advance()
	detail := DetailUnexpectedSyntax
	if r >= utf8.RuneSelf {
		// A character outside ASCII that starts no token, e.g. a Unicode
		// dash written for '-'.
		detail = DetailInvalidUnicodeCharacter
	}
	return lx.illegal(start, start, detail, "unexpected character %q", r)
}

// quoted lexes a back-quoted name; a doubled back-quote stands for one.
func (lx *lexer) quoted(start Pos, kind tokenKind) (token, bool) {
	lx.advance()
	var b strings.Builder
	for {
		r := lx.advance()
		switch {
		case r < 0:
			t := lx.illegal(start, start, DetailUnexpectedSyntax, "unterminated back-quoted name")
			t.open = true
			return t, false
		case r == '`' && lx.peek(0) == '`':
			lx.advance()
			b.WriteRune('`')
		case r == '`':
			t := lx.make(kind, start) // `` is a valid, empty name
			t.val = b.String()
			return t, true
		default:
			b.WriteRune(r)
		}
	}
}

// param lexes $name, $`name` or $0.
func (lx *lexer) param(start Pos) token {
	lx.advance()
	r := lx.peek(0)
	switch {
	case isIdentStart(r) || isDigit(r):
		for isIdentPart(lx.peek(0)) {
			lx.advance()
		}
		t := lx.make(tParam, start)
		t.val = t.text[1:]
		if isDigit(r) {
			for _, c := range t.val {
				if !isDigit(c) {
					return lx.illegal(start, start, DetailUnexpectedSyntax, "invalid parameter name %q", t.text)
				}
			}
		}
		return t
	case r == '`':
		t, ok := lx.quoted(lx.pos(), tParam)
		if ok {
			t.pos, t.text = start, lx.src[start.Offset:lx.off]
		}
		return t
	}
	return lx.illegal(start, start, DetailUnexpectedSyntax, "expected a parameter name after '$'")
}

// number lexes an integer or float literal. A literal running into letters or
// digits that do not belong to it (0x1G, 1B2, 0x) is an InvalidNumberLiteral.
func (lx *lexer) number(start Pos) token {
	kind := tInt
	digits := func(ok func(rune) bool) int {
		n := 0
		for ok(lx.peek(0)) {
			lx.advance()
			n++
		}
		return n
	}
	r1 := lx.peek(1)
	switch {
	case lx.peek(0) == '0' && (r1 == 'x' || r1 == 'X'):
		lx.advance()
		lx.advance()
		if digits(isHex) == 0 {
			return lx.badNumber(start)
		}
	case lx.peek(0) == '0' && (r1 == 'o' || r1 == 'O'):
		lx.advance()
		lx.advance()
		if digits(isOctal) == 0 {
			return lx.badNumber(start)
		}
	default:
		digits(isDigit)
		if lx.peek(0) == '.' && isDigit(lx.peek(1)) {
			kind = tFloat
			lx.advance()
			digits(isDigit)
		}
		if e := lx.peek(0); e == 'e' || e == 'E' {
			n := 1
			if s := lx.peek(1); s == '-' || s == '+' {
				n = 2
			}
			if isDigit(lx.peek(n)) {
				kind = tFloat
				for ; n > 0; n-- {
					lx.advance()
				}
				digits(isDigit)
			}
		}
	}
	if isIdentPart(lx.peek(0)) {
		return lx.badNumber(start)
	}
	return lx.make(kind, start)
}

func (lx *lexer) badNumber(start Pos) token {
	for isIdentPart(lx.peek(0)) {
		lx.advance()
	}
	return lx.illegal(start, start, DetailInvalidNumberLiteral, "invalid number literal %q", lx.src[start.Offset:lx.off])
}

func isHex(r rune) bool   { return isDigit(r) || (r >= 'a' && r <= 'f') || (r >= 'A' && r <= 'F') }
func isOctal(r rune) bool { return r >= '0' && r <= '7' }

// str lexes a string literal in single or double quotes, decoding the escapes
// \\ \' \" \b \f \n \r \t and \uXXXX (letters case-insensitive, so \UXXXX
// too; exactly four hex digits, as in Neo4j).
// A UTF-16 surrogate pair written as two \u escapes is combined. After a
// bad escape the literal is still read to its closing quote, so that the
// token ends where the string does (SplitStatements relies on it); the
// error is the first bad escape's.
func (lx *lexer) str(start Pos) token {
	quote := lx.advance()
	var b strings.Builder
	var bad *Error
	for {
		escPos := lx.pos()
		r := lx.advance()
		switch {
		case r < 0:
			t := lx.illegal(start, start, DetailUnexpectedSyntax, "unterminated string literal")
			t.open, t.err = true, cmp.Or(bad, t.err) // errors in source order
			return t
		case r == quote && bad != nil:
			t := lx.make(tIllegal, start)
			t.err = bad
			return t
		case r == quote:
			t := lx.make(tString, start)
			t.val = b.String()
			return t
		case r != '\\':
			b.WriteRune(r)
			continue
		}
		if t, ok := lx.escape(start, escPos, &b); !ok {
			if t.open {
				t.err = cmp.Or(bad, t.err)
				return t
			}
			bad = cmp.Or(bad, t.err)
		}
	}
}

// escape decodes the escape sequence after a backslash into b; on error it
// returns the error token and false.
func (lx *lexer) escape(start, escPos Pos, b *strings.Builder) (token, bool) {
	e := lx.advance()
	switch e {
	case '\\', '\'', '"':
		b.WriteRune(e)
	case 'b', 'B':
		b.WriteByte('\b')
	case 'f', 'F':
		b.WriteByte('\f')
	case 'n', 'N':
		b.WriteByte('\n')
	case 'r', 'R':
		b.WriteByte('\r')
	case 't', 'T':
		b.WriteByte('\t')
	case 'u', 'U':
		c, ok := lx.unicodeEscape(e)
		if ok && c >= 0xD800 && c < 0xDC00 && lx.peek(0) == '\\' && (lx.peek(1) == 'u' || lx.peek(1) == 'U') {
			save := *lx
			lx.advance()
			if lo, ok2 := lx.unicodeEscape(lx.advance()); ok2 && lo >= 0xDC00 && lo < 0xE000 {
				c = (c-0xD800)<<10 + (lo - 0xDC00) + 0x10000
			} else {
				*lx = save
			}
		}
		if !ok || !utf8.ValidRune(c) {
			return lx.illegal(start, escPos, DetailInvalidUnicodeLiteral, "invalid unicode escape in string literal"), false
		}
		b.WriteRune(c)
	case -1:
		t := lx.illegal(start, start, DetailUnexpectedSyntax, "unterminated string literal")
		t.open = true
		return t, false
	default:
		return lx.illegal(start, escPos, DetailUnexpectedSyntax, "invalid escape sequence \\%c in string literal", e), false
	}
	return token{}, true
}

// unicodeEscape reads the four hex digits after \u.
func (lx *lexer) unicodeEscape(u rune) (rune, bool) {
	const n = 4
	if u != 'u' && u != 'U' {
		return 0, false
	}
	for i := 0; i < n; i++ {
		if !isHex(lx.peek(i)) {
			return 0, false
		}
	}
	s := lx.src[lx.off : lx.off+n]
	for i := 0; i < n; i++ {
		lx.advance()
	}
	v, err := strconv.ParseUint(s, 16, 32)
	if err != nil {
		return 0, false
	}
	return rune(v), true
}
