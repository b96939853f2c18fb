package parse

import "strings"

// parsePrimary parses an atom: a literal, parameter, variable, function
// call, CASE, list or map, list comprehension or parenthesized expression.
func (p *parser) parsePrimary() Expr {
	t := p.tok()
	switch t.kind {
	case tInt, tFloat:
		return p.parseNumber(t.pos, false)
	case tString:
		p.next()
		return &StringLit{Pos: t.pos, Value: t.val}
	case tParam:
		p.next()
		return &Parameter{Pos: t.pos, Name: t.val}
	case tLBracket:
		return p.parseListOrComprehension()
	case tLBrace:
		return p.parseMap()
	case tLParen:
		return p.parseParenthesized()
	case tIdent:
		if e := p.parseKeywordAtom(); e != nil {
			return e
		}
		return p.parseNameAtom()
	case tQuoted:
		return p.parseNameAtom()
	}
	p.fail("expected an expression")
	return nil
}

// parseParenthesized parses ( expr ), after making sure that the text is not
// a pattern expression such as (a)-->(b), which is outside the subset.
func (p *parser) parseParenthesized() Expr {
	t := p.tok()
	if ok, _ := p.tryRelationshipsPattern(); ok {
		panic(notSupported(t.pos, "pattern expression"))
	}
	p.next()
	p.enter()
	defer p.leave()
	e := p.parseExpr()
	p.expect(tRParen, "')' to close the parenthesized expression")
	return e
}

// tryRelationshipsPattern reports whether a node pattern followed by at
// least one relationship and node pattern parses at the current position;
// end is the token index after it. The position is left unchanged.
func (p *parser) tryRelationshipsPattern() (ok bool, end int) {
	save := p.i
	ok = p.try(attemptPattern, func() {
		p.parseNodePattern()
		if !p.atRelStart() {
			p.fail("expected a relationship pattern")
		}
		for p.atRelStart() {
			p.parseRelPattern()
			p.parseNodePattern()
		}
		end = p.i
	})
	p.i = save
	return ok, end
}

// quantifiers are the list predicate functions written name(x IN list
// WHERE p); listFunctions are the older forms of list comprehensions,
// which the subset lacks.
var (
	quantifiers   = map[string]bool{"all": true, "any": true, "none": true, "single": true}
	listFunctions = map[string]string{"filter": "FILTER(…)", "extract": "EXTRACT(…)"}
)

// parseKeywordAtom parses the atoms that start with a keyword (true, false,
// null, CASE, count(*)) and reports the unsupported ones; it returns nil if
// the name at p is an ordinary variable or function name.
func (p *parser) parseKeywordAtom() Expr {
	t := p.tok()
	kw := strings.ToUpper(t.text)
	n1, n2 := p.peek(1), p.peek(2)
	switch {
	case kw == "TRUE" || kw == "FALSE":
		p.next()
		return &BoolLit{Pos: t.pos, Value: kw == "TRUE"}
	case kw == "NULL":
		p.next()
		return &NullLit{Pos: t.pos}
	case kw == "CASE":
		return p.parseCase()
	case kw == "COUNT" && n1.kind == tLParen && n2.kind == tStar && p.peek(3).kind == tRParen:
		p.i += 4
		return &CountStar{Pos: t.pos}
	case n1.kind == tLBrace && (kw == "EXISTS" || kw == "COUNT" || kw == "COLLECT"):
		panic(notSupported(t.pos, kw+" subquery"))
	case n1.kind == tLParen && quantifiers[strings.ToLower(kw)] && isSymbolic(n2) && isKw(p.peek(3), "IN"):
		return p.parseQuantifier()
	case n1.kind == tLParen && listFunctions[strings.ToLower(kw)] != "" && isSymbolic(n2) && isKw(p.peek(3), "IN"):
		panic(notSupported(t.pos, listFunctions[strings.ToLower(kw)]))
	case n1.kind == tLParen && kw == "REDUCE" && isSymbolic(n2) && p.peek(3).kind == tEq:
		panic(notSupported(t.pos, "REDUCE(…)"))
	case n1.kind == tLParen && (kw == "SHORTESTPATH" || kw == "ALLSHORTESTPATHS"):
		panic(notSupported(t.pos, t.text+"()"))
	}
	return nil
}

// parseNameAtom parses a variable or a function call name(args), where the
// name may have a namespace: ns.name(args).
func (p *parser) parseNameAtom() Expr {
	t := p.tok()
	j := p.i + 1
	for p.toks[j].kind == tDot && (p.toks[j+1].kind == tIdent || p.toks[j+1].kind == tQuoted) {
		j += 2
	}
	if p.toks[j].kind != tLParen {
		return p.variable("an expression")
	}
	parts := make([]string, 0, (j-p.i+1)/2)
	for p.i < j {
		n := p.next()
		if n.kind != tDot {
			parts = append(parts, name(&n))
		}
	}
	fname := strings.Join(parts, ".")
	if t.kind == tIdent && len(parts) == 1 && isReserved(fname) && !strings.EqualFold(fname, "EXISTS") {
		p.i--
		p.fail("expected an expression (%s is a reserved word; back-quote it to use it as a function name)", strings.ToUpper(fname))
	}
	return p.parseCallArgs(t.pos, fname)
}

// parseCallArgs parses ([DISTINCT] args) of a function call.
func (p *parser) parseCallArgs(pos Pos, fname string) *FunctionCall {
	p.next()
	p.enter()
	defer p.leave()
	fc := &FunctionCall{Pos: pos, Name: fname, Distinct: p.acceptKw("DISTINCT")}
	if !p.is(tRParen) {
		for {
			fc.Args = append(fc.Args, p.parseExpr())
			if !p.accept(tComma) {
				break
			}
		}
	}
	p.expect(tRParen, "')' or ',' after the function argument")
	return fc
}

// parseCase parses both forms of CASE.
func (p *parser) parseCase() Expr {
	c := &Case{Pos: p.next().pos}
	p.enter()
	defer p.leave()
	if !p.isKw("WHEN") {
		c.Subject = p.parseExpr()
	}
	for p.isKw("WHEN") {
		w := &CaseWhen{Pos: p.next().pos, When: p.parseExpr()}
		p.expectKw("THEN", " after the WHEN expression")
		w.Then = p.parseExpr()
		c.Whens = append(c.Whens, w)
	}
	if len(c.Whens) == 0 {
		p.fail("expected WHEN in CASE")
	}
	if p.acceptKw("ELSE") {
		c.Else = p.parseExpr()
	}
	p.expectKw("END", " to close CASE")
	return c
}

// parseListOrComprehension parses [a, b], [x IN l WHERE p | e], and reports
// pattern comprehensions [(a)-->(b) | e] as not supported. As in the
// openCypher grammar, [x IN l] is a list comprehension, not a list literal.
func (p *parser) parseListOrComprehension() Expr {
	t := p.tok()
	n1, n2 := p.peek(1), p.peek(2)
	if n1.kind == tLParen || (isSymbolic(n1) && n2.kind == tEq) {
		save := p.i
		p.next()
		if n1.kind != tLParen {
			p.i += 2
		}
		if p.is(tLParen) {
			if ok, end := p.tryRelationshipsPattern(); ok {
				if e := &p.toks[end]; e.kind == tPipe || isKw(e, "WHERE") {
					panic(notSupported(t.pos, "pattern comprehension"))
				}
			}
		}
		p.i = save
	}
	if isSymbolic(n1) && isKw(n2, "IN") {
		if lc := p.tryComprehension(); lc != nil {
			return lc
		}
	}
	p.next()
	p.enter()
	defer p.leave()
	l := &ListLit{Pos: t.pos}
	if p.accept(tRBracket) {
		return l
	}
	for {
		l.Elems = append(l.Elems, p.parseExpr())
		if !p.accept(tComma) {
			break
		}
	}
	p.expect(tRBracket, "',' or ']' in the list")
	return l
}

// tryComprehension parses [x IN list WHERE p | e] if the text after the list
// expression is WHERE, '|' or ']'; otherwise it restores the position and
// returns nil so that the text is parsed as a list literal.
func (p *parser) tryComprehension() *ListComprehension {
	var lc *ListComprehension
	ok := p.try(attemptComprehension, func() {
		t := p.next()
		p.enter()
		defer p.leave()
		lc = &ListComprehension{Pos: t.pos, Var: p.variable("a variable")}
		p.next()
		lc.List = p.parseExpr()
		if !p.isKw("WHERE") && !p.is(tPipe) && !p.is(tRBracket) {
			p.fail("expected WHERE, '|' or ']' in the list comprehension")
		}
	})
	if !ok {
		return nil
	}
	p.enter()
	defer p.leave()
	if p.acceptKw("WHERE") {
		lc.Where = p.parseExpr()
	}
	if p.accept(tPipe) {
		lc.Map = p.parseExpr()
	}
	p.expect(tRBracket, "']' to close the list comprehension")
	return lc
}

// parseQuantifier parses the list predicate q(x IN list WHERE p), where q
// is all, any, none or single.
func (p *parser) parseQuantifier() *ListComprehension {
	t := p.next()
	p.next()
	p.enter()
	defer p.leave()
	lc := &ListComprehension{Pos: t.pos, Quantifier: strings.ToLower(t.text), Var: p.variable("a variable")}
	p.next()
	lc.List = p.parseExpr()
	p.expectKw("WHERE", " in the list predicate")
	lc.Where = p.parseExpr()
	p.expect(tRParen, "')' to close the list predicate")
	return lc
}

// parseMap parses a map literal {key: value, …}.
func (p *parser) parseMap() *MapLit {
	m := &MapLit{Pos: p.next().pos}
	p.enter()
	defer p.leave()
	if p.accept(tRBrace) {
		return m
	}
	for {
		kt := p.tok()
		e := &MapEntry{Pos: kt.pos, Key: p.schemaName("a property key name in the map")}
		p.expect(tColon, "':' after the key in the map")
		e.Value = p.parseExpr()
		m.Entries = append(m.Entries, e)
		if !p.accept(tComma) {
			break
		}
	}
	p.expect(tRBrace, "',' or '}' in the map")
	return m
}
