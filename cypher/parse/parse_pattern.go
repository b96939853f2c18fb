package parse

import (
	"math"
	"strconv"
	"strings"
)

// parsePattern parses comma-separated path patterns.
func (p *parser) parsePattern() *Pattern {
	pat := &Pattern{Pos: p.tok().pos}
	for {
		pat.Parts = append(pat.Parts, p.parsePatternPart())
		if !p.accept(tComma) {
			return pat
		}
	}
}

// parsePatternPart parses [var =] (node) (rel (node))*.
func (p *parser) parsePatternPart() *PatternPart {
	part := &PatternPart{Pos: p.tok().pos}
	if isSymbolic(p.tok()) && p.peek(1).kind == tEq {
		part.Var = p.variable("a path variable")
		p.next()
	}
	if t := p.tok(); t.kind == tIdent && p.peek(1).kind == tLParen {
		switch strings.ToLower(t.text) {
		case "shortestpath", "allshortestpaths":
			panic(notSupported(t.pos, t.text+"()"))
		}
	}
	part.Nodes = append(part.Nodes, p.parseNodePattern())
	for p.atRelStart() {
		part.Rels = append(part.Rels, p.parseRelPattern())
		part.Nodes = append(part.Nodes, p.parseNodePattern())
	}
	return part
}

// atRelStart reports whether a relationship pattern starts here: "-" or "<-".
func (p *parser) atRelStart() bool {
	return p.is(tMinus) || (p.is(tLt) && p.peek(1).kind == tMinus)
}

// parseNodePattern parses (var:Label {props}).
func (p *parser) parseNodePattern() *NodePattern {
	t := p.expect(tLParen, "'(' to start a node pattern")
	if p.is(tLParen) {
		panic(notSupported(t.pos, "parenthesized path pattern"))
	}
	p.enter()
	defer p.leave()
	n := &NodePattern{Pos: t.pos}
	if isSymbolic(p.tok()) {
		n.Var = p.variable("a node variable")
	}
	for p.accept(tColon) {
		n.Labels = append(n.Labels, p.schemaName("a label name after ':'"))
	}
	if len(n.Labels) > 0 && p.is(tPipe) {
		panic(notSupported(p.tok().pos, "label expression"))
	}
	n.Properties = p.parseProperties()
	p.checkPatternWhere("node", tRParen)
	if n.Var == nil && len(n.Labels) == 0 && n.Properties == nil && p.tok().kind == tIdent {
		p.fail("expected a variable, ':', properties or ')' in the node pattern (%s is a reserved word; back-quote it to use it as a name)", strings.ToUpper(p.tok().text))
	}
	p.expect(tRParen, "')' after the node pattern")
	return n
}

// parseProperties parses the optional property map or parameter of a node
// or relationship pattern.
func (p *parser) parseProperties() Expr {
	switch t := p.tok(); t.kind {
	case tLBrace:
		return p.parseMap()
	case tParam:
		p.next()
		return &Parameter{Pos: t.pos, Name: t.val}
	}
	return nil
}

// parseRelPattern parses -[detail]-> and its variants.
func (p *parser) parseRelPattern() *RelPattern {
	r := &RelPattern{Pos: p.tok().pos}
	left := p.accept(tLt)
	p.expect(tMinus, "'-' after '<' in the relationship pattern")
	if p.is(tLBracket) {
		p.parseRelDetail(r)
	}
	if !p.is(tMinus) {
		p.failDetail(DetailInvalidRelationshipPattern, "expected '-' to continue the relationship pattern")
	}
	p.next()
	right := p.accept(tGt)
	switch {
	case left && right:
		r.Direction = BothArrows
	case left:
		r.Direction = RightToLeft
	case right:
		r.Direction = LeftToRight
	default:
		r.Direction = Undirected
	}
	return r
}

// parseRelDetail parses [var:T1|T2 *min..max {props}].
func (p *parser) parseRelDetail(r *RelPattern) {
	p.next()
	p.enter()
	defer p.leave()
	if isSymbolic(p.tok()) {
		r.Var = p.variable("a relationship variable")
	}
	if p.accept(tColon) {
		r.Types = append(r.Types, p.relType())
		for p.accept(tPipe) {
			p.accept(tColon)
			r.Types = append(r.Types, p.relType())
		}
	}
	if p.is(tStar) {
		r.Length = p.parseRange()
	}
	r.Properties = p.parseProperties()
	p.checkPatternWhere("relationship", tRBracket)
	if !p.is(tRBracket) {
		p.failDetail(DetailInvalidRelationshipPattern, "expected ']' after the relationship pattern detail")
	}
	p.next()
}

// checkPatternWhere reports (n WHERE cond) and -[r WHERE cond]- (Cypher 5)
// as not supported when the WHERE is indeed followed by an expression and
// the closing bracket; otherwise the caller reports the missing bracket.
func (p *parser) checkPatternWhere(what string, closing tokenKind) {
	t := p.tok()
	if !isKw(t, "WHERE") {
		return
	}
	if p.try(attemptPatternWhere, func() {
		p.next()
		p.parseExpr()
		if !p.is(closing) {
			p.fail("expected the end of the pattern")
		}
	}) {
		panic(notSupported(t.pos, "WHERE inside a "+what+" pattern"))
	}
}

func (p *parser) relType() string {
	if t := p.tok(); t.kind != tIdent && t.kind != tQuoted {
		p.failDetail(DetailInvalidRelationshipPattern, "expected a relationship type name")
	}
	return name(ptrTok(p.next()))
}

func ptrTok(t token) *token { return &t }

// parseRange parses *, *n, *n..m, *..m, *n.. .
func (p *parser) parseRange() *Range {
	r := &Range{Pos: p.next().pos}
	if p.is(tInt) {
		v := p.rangeBound()
		r.Min, r.Max = &v, &v
	}
	if p.accept(tDotDot) {
		r.Max = nil
		if p.is(tInt) {
			v := p.rangeBound()
			r.Max = &v
		}
	}
	return r
}

func (p *parser) rangeBound() int64 {
	t := p.next()
	v, err := parseIntText(t.text)
	if err != nil {
		panic(NewError(SyntaxError, err.detail, t.pos, "%s %q", err.msg, t.text))
	}
	if v > math.MaxInt64 {
		panic(NewError(SyntaxError, DetailIntegerOverflow, t.pos, "integer %s is too large", t.text))
	}
	return int64(v)
}

type intError struct{ detail, msg string }

// parseIntText converts the text of an integer token to its magnitude:
// decimal, 0x hexadecimal, 0o octal, or (openCypher 9) 0-prefixed octal.
func parseIntText(text string) (uint64, *intError) {
	base, digits := 10, text
	switch {
	case len(text) > 1 && (text[1] == 'x' || text[1] == 'X'):
		base, digits = 16, text[2:]
	case len(text) > 1 && (text[1] == 'o' || text[1] == 'O'):
		base, digits = 8, text[2:]
	case len(text) > 1 && text[0] == '0':
		base, digits = 8, text[1:]
	}
	v, err := strconv.ParseUint(digits, base, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, &intError{DetailIntegerOverflow, "integer is too large:"}
		}
		return 0, &intError{DetailInvalidNumberLiteral, "invalid number literal"}
	}
	return v, nil
}
