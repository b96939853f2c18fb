package parse

import (
	"fmt"
	"strconv"
	"strings"
)

// Parse parses one openCypher statement (optionally ended by ';'). The error,
// if any, is an *Error.
func Parse(query string) (q *Query, err error) {
	p := newParser(query)
	defer p.recover(&err)
	q = p.parseQuery()
	return q, nil
}

// ParseExpr parses a single expression, e.g. "n.age + 1 > $min". The error,
// if any, is an *Error.
func ParseExpr(expr string) (e Expr, err error) {
	p := newParser(expr)
	defer p.recover(&err)
	e = p.parseExpr()
	if !p.is(tEOF) {
		p.fail("expected an operator or the end of the expression")
	}
	return e, nil
}

// maxDepth bounds the nesting of expressions and patterns, so that
// pathological input gives an error instead of exhausting the stack.
const maxDepth = 500

// parser is a recursive-descent parser over the token slice. Errors are
// raised by panicking with an *Error, recovered in Parse; this keeps the
// grammar functions short. Backtracking (for the few places where the
// grammar needs more than one token of look-ahead) resets p.i.
type parser struct {
	src    string
	toks   []token
	i      int
	depth  int
	failed map[attempt]bool // memoised failed attempts, see try
}

// attempt identifies a speculative parse at a token index.
type attempt struct {
	i    int
	kind int
}

const (
	attemptPattern = iota
	attemptComprehension
	attemptPatternWhere
)

func newParser(src string) *parser {
	return &parser{src: src, toks: lex(src), failed: map[attempt]bool{}}
}

func (p *parser) recover(err *error) {
	if r := recover(); r != nil {
		e, ok := r.(*Error)
		if !ok {
			panic(r)
		}
		*err = e
	}
}

// Token access.

func (p *parser) tok() *token { return &p.toks[p.i] }

func (p *parser) peek(n int) *token {
	if p.i+n >= len(p.toks) {
		return &p.toks[len(p.toks)-1]
	}
	return &p.toks[p.i+n]
}

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

// prevEnd is the byte offset just after the last consumed token.
func (p *parser) prevEnd() int {
	if p.i == 0 {
		return 0
	}
	return p.toks[p.i-1].end
}

func (p *parser) is(k tokenKind) bool { return p.tok().kind == k }

func (p *parser) accept(k tokenKind) bool {
	if p.is(k) {
		p.next()
		return true
	}
	return false
}

// expect consumes a token of kind k or fails with "expected <what>, found …".
func (p *parser) expect(k tokenKind, what string) token {
	if !p.is(k) {
		p.fail("expected %s", what)
	}
	return p.next()
}

func isKw(t *token, kw string) bool { return t.kind == tIdent && strings.EqualFold(t.text, kw) }

func (p *parser) isKw(kw string) bool { return isKw(p.tok(), kw) }

func (p *parser) acceptKw(kw string) bool {
	if p.isKw(kw) {
		p.next()
		return true
	}
	return false
}

func (p *parser) expectKw(kw, context string) token {
	if !p.isKw(kw) {
		p.fail("expected %s%s", kw, context)
	}
	return p.next()
}

// enter and leave bound the recursion depth.
func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		panic(NewError(SyntaxError, DetailUnexpectedSyntax, p.tok().pos, "query nested too deeply"))
	}
}

func (p *parser) leave() { p.depth-- }

// Errors.

// fail raises a SyntaxError at the current token: "<msg>, found <token>".
// If the current token is a lexical error, that error is raised instead.
func (p *parser) fail(format string, args ...any) {
	p.failDetail(DetailUnexpectedSyntax, format, args...)
}

func (p *parser) failDetail(detail, format string, args ...any) {
	t := p.tok()
	if t.kind == tIllegal {
		panic(t.err)
	}
	panic(NewError(SyntaxError, detail, t.pos, "%s, found %s", fmt.Sprintf(format, args...), describe(t)))
}

func (p *parser) failAt(pos Pos, detail, format string, args ...any) {
	panic(NewError(SyntaxError, detail, pos, format, args...))
}

// describe names a token for an error message.
func describe(t *token) string {
	if t.kind == tEOF {
		return "end of input"
	}
	s := t.text
	if r := []rune(s); len(r) > 30 {
		s = string(r[:30]) + "…"
	}
	return strconv.Quote(s)
}

// try runs f speculatively: on a parse error it restores the position and
// returns false, and remembers the failure so that the same attempt at the
// same token is not repeated (which keeps nested attempts linear).
func (p *parser) try(kind int, f func()) (ok bool) {
	key := attempt{p.i, kind}
	if p.failed[key] {
		return false
	}
	save, depth := p.i, p.depth
	defer func() {
		if r := recover(); r != nil {
			if _, isErr := r.(*Error); !isErr {
				panic(r)
			}
			p.i, p.depth = save, depth
			p.failed[key] = true
			ok = false
		}
	}()
	f()
	return true
}

// Names.

// reserved are the reserved words of openCypher 9: they cannot be used as
// variable, alias or function names unless back-quoted (they can be labels,
// relationship types and property keys).
var reserved = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`ALL ASC ASCENDING BY CREATE DELETE DESC DESCENDING
		DETACH EXISTS LIMIT MATCH MERGE ON OPTIONAL ORDER REMOVE RETURN SET SKIP WHERE
		WITH UNION UNWIND AND AS CONTAINS DISTINCT ENDS IN IS NOT OR STARTS XOR CASE
		ELSE END THEN WHEN CONSTRAINT DO FOR REQUIRE UNIQUE MANDATORY SCALAR OF ADD DROP
		TRUE FALSE NULL`) {
		reserved[w] = true
	}
}

func isReserved(word string) bool { return reserved[strings.ToUpper(word)] }

// isSymbolic reports whether t can be a variable: an unreserved name or a
// back-quoted one.
func isSymbolic(t *token) bool {
	return t.kind == tQuoted || (t.kind == tIdent && !isReserved(t.text))
}

func name(t *token) string {
	if t.kind == tQuoted {
		return t.val
	}
	return t.text
}

// variable parses a variable name; what describes it for errors.
func (p *parser) variable(what string) *Variable {
	t := p.tok()
	if !isSymbolic(t) {
		if t.kind == tIdent {
			p.fail("expected %s (%s is a reserved word; back-quote it to use it as a name)", what, strings.ToUpper(t.text))
		}
		p.fail("expected %s", what)
	}
	p.next()
	return &Variable{Pos: t.pos, Name: name(t)}
}

// schemaName parses a label, relationship type or property key: any name,
// reserved words included.
func (p *parser) schemaName(what string) string {
	t := p.tok()
	if t.kind == tIllegal && t.err.Detail == DetailInvalidNumberLiteral {
		// A name cannot start with a digit: where one is expected, 1B2 is
		// no bad number but text out of place.
		p.failAt(t.pos, DetailUnexpectedSyntax, "expected %s, found %q", what, t.text)
	}
	if t.kind != tIdent && t.kind != tQuoted {
		p.fail("expected %s", what)
	}
	p.next()
	return name(t)
}
