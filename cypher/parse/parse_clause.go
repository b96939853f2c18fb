package parse

import "strings"

// parseQuery parses single queries joined by UNION [ALL] and an optional ';'.
func (p *parser) parseQuery() *Query {
	q := &Query{Pos: p.tok().pos}
	q.Parts = append(q.Parts, p.parseSingleQuery())
	for p.isKw("UNION") {
		u := &Union{Pos: p.next().pos, All: p.acceptKw("ALL")}
		q.Unions = append(q.Unions, u)
		q.Parts = append(q.Parts, p.parseSingleQuery())
	}
	p.accept(tSemicolon)
	if !p.is(tEOF) {
		p.fail("expected the end of the query")
	}
	return q
}

func (p *parser) atQueryEnd() bool {
	return p.is(tEOF) || p.is(tSemicolon) || p.isKw("UNION")
}

// parseSingleQuery parses clauses up to UNION, ';' or the end, enforcing the
// clause composition of the openCypher grammar (see SingleQuery).
func (p *parser) parseSingleQuery() *SingleQuery {
	sq := &SingleQuery{Pos: p.tok().pos}
	var lastUpdate Clause // the last updating clause since the last WITH
	for !p.atQueryEnd() {
		if n := len(sq.Clauses); n > 0 {
			if _, ok := sq.Clauses[n-1].(*Return); ok {
				p.fail("expected UNION or the end of the query after RETURN")
			}
		}
		c := p.parseClause()
		switch c.(type) {
		case *Match, *Unwind:
			if lastUpdate != nil {
				p.failAt(c.Position(), DetailInvalidClauseComposition,
					"WITH is required between %s and %s", clauseName(lastUpdate), clauseName(c))
			}
		case *Create, *Set, *Remove, *Delete:
			lastUpdate = c
		case *With:
			lastUpdate = nil
		}
		sq.Clauses = append(sq.Clauses, c)
	}
	if len(sq.Clauses) == 0 {
		p.fail("expected a clause such as MATCH, CREATE or RETURN")
	}
	switch last := sq.Clauses[len(sq.Clauses)-1]; last.(type) {
	case *Return, *Create, *Set, *Remove, *Delete:
	default:
		p.failAt(last.Position(), DetailInvalidClauseComposition,
			"a query cannot end with %s: it must end with RETURN or an updating clause", clauseName(last))
	}
	return sq
}

// clauseName names a clause for messages.
func clauseName(c Clause) string {
	switch c := c.(type) {
	case *Match:
		if c.Optional {
			return "OPTIONAL MATCH"
		}
		return "MATCH"
	case *Unwind:
		return "UNWIND"
	case *With:
		return "WITH"
	case *Return:
		return "RETURN"
	case *Create:
		return "CREATE"
	case *Set:
		return "SET"
	case *Remove:
		return "REMOVE"
	case *Delete:
		if c.Detach {
			return "DETACH DELETE"
		}
		return "DELETE"
	}
	return "clause"
}

// unsupportedClauses maps clause keywords outside the subset to the name of
// the construct reported in the NotSupported error.
var unsupportedClauses = map[string]string{
	"MERGE": "MERGE", "CALL": "CALL", "FOREACH": "FOREACH", "LOAD": "LOAD CSV",
	"USING": "USING PERIODIC COMMIT", "START": "START", "EXPLAIN": "EXPLAIN",
	"PROFILE": "PROFILE", "USE": "USE", "SHOW": "SHOW", "FINISH": "FINISH",
	"INSERT": "INSERT", "DROP": "DROP", "ALTER": "ALTER", "GRANT": "GRANT",
	"DENY": "DENY", "REVOKE": "REVOKE", "TERMINATE": "TERMINATE",
}

// schemaCommands are words after CREATE that start a schema or
// administration command rather than a pattern.
var schemaCommands = map[string]bool{
	"INDEX": true, "CONSTRAINT": true, "OR": true, "DATABASE": true, "USER": true,
	"ROLE": true, "ALIAS": true, "COMPOSITE": true, "LOOKUP": true, "FULLTEXT": true,
	"TEXT": true, "RANGE": true, "POINT": true, "VECTOR": true, "BTREE": true,
}

func (p *parser) parseClause() Clause {
	t := p.tok()
	if t.kind != tIdent {
		p.fail("expected a clause such as MATCH, CREATE or RETURN")
	}
	switch kw := strings.ToUpper(t.text); kw {
	case "MATCH":
		p.next()
		return p.parseMatch(t.pos, false)
	case "OPTIONAL":
		p.next()
		if p.isKw("CALL") {
			panic(notSupported(t.pos, "OPTIONAL CALL"))
		}
		p.expectKw("MATCH", " after OPTIONAL")
		return p.parseMatch(t.pos, true)
	case "UNWIND":
		p.next()
		return p.parseUnwind(t.pos)
	case "WITH":
		p.next()
		w := &With{Pos: t.pos, Projection: p.parseProjection()}
		if p.acceptKw("WHERE") {
			w.Where = p.parseExpr()
		}
		return w
	case "RETURN":
		p.next()
		return &Return{Pos: t.pos, Projection: p.parseProjection()}
	case "CREATE":
		p.next()
		if n := p.tok(); n.kind == tIdent && schemaCommands[strings.ToUpper(n.text)] && p.peek(1).kind != tEq {
			panic(notSupported(t.pos, "CREATE "+strings.ToUpper(n.text)))
		}
		return &Create{Pos: t.pos, Pattern: p.parsePattern()}
	case "SET":
		p.next()
		return p.parseSet(t.pos)
	case "REMOVE":
		p.next()
		return p.parseRemove(t.pos)
	case "DELETE":
		p.next()
		return p.parseDelete(t.pos, false)
	case "DETACH":
		p.next()
		p.expectKw("DELETE", " after DETACH")
		return p.parseDelete(t.pos, true)
	default:
		if c, ok := unsupportedClauses[kw]; ok {
			panic(notSupported(t.pos, c))
		}
	}
	p.fail("expected a clause such as MATCH, CREATE or RETURN")
	return nil
}

func (p *parser) parseMatch(pos Pos, optional bool) *Match {
	m := &Match{Pos: pos, Optional: optional, Pattern: p.parsePattern()}
	if p.isKw("USING") {
		panic(notSupported(p.tok().pos, "USING (planner hint)"))
	}
	if p.acceptKw("WHERE") {
		m.Where = p.parseExpr()
	}
	return m
}

func (p *parser) parseUnwind(pos Pos) *Unwind {
	u := &Unwind{Pos: pos, Expr: p.parseExpr()}
	p.expectKw("AS", " after the UNWIND expression")
	u.Var = p.variable("a variable after AS")
	return u
}

// parseProjection parses the body of WITH and RETURN.
func (p *parser) parseProjection() *Projection {
	pr := &Projection{Pos: p.tok().pos, Distinct: p.acceptKw("DISTINCT")}
	if p.accept(tStar) {
		pr.Star = true
	}
	if !pr.Star || p.accept(tComma) {
		for {
			pr.Items = append(pr.Items, p.parseProjectionItem())
			if !p.accept(tComma) {
				break
			}
		}
	}
	if t := p.tok(); isKw(t, "ORDER") {
		p.next()
		p.expectKw("BY", " after ORDER")
		for {
			pr.OrderBy = append(pr.OrderBy, p.parseSortItem())
			if !p.accept(tComma) {
				break
			}
		}
	}
	if p.acceptKw("SKIP") {
		pr.Skip = p.parseExpr()
	}
	if p.acceptKw("LIMIT") {
		pr.Limit = p.parseExpr()
	}
	return pr
}

func (p *parser) parseProjectionItem() *ProjectionItem {
	t := p.tok()
	it := &ProjectionItem{Pos: t.pos, Expr: p.parseExpr()}
	it.Text = p.src[t.pos.Offset:p.prevEnd()]
	if p.acceptKw("AS") {
		it.Alias = p.variable("an alias after AS")
	}
	return it
}

func (p *parser) parseSortItem() *SortItem {
	s := &SortItem{Pos: p.tok().pos, Expr: p.parseExpr()}
	switch {
	case p.acceptKw("DESC"), p.acceptKw("DESCENDING"):
		s.Descending = true
	case p.acceptKw("ASC"), p.acceptKw("ASCENDING"):
	}
	return s
}

// parseSet parses SET items. The target is parsed as a postfix expression
// (atom, property lookups, labels) and then classified.
func (p *parser) parseSet(pos Pos) *Set {
	s := &Set{Pos: pos}
	for {
		t := p.tok()
		target := p.parsePostfix()
		switch x := target.(type) {
		case *LabelPredicate:
			v, ok := x.X.(*Variable)
			if !ok {
				p.failAt(t.pos, DetailUnexpectedSyntax, "expected a variable before the labels in SET")
			}
			s.Items = append(s.Items, &SetLabels{Pos: t.pos, Var: v, Labels: x.Labels})
		case *PropertyAccess:
			p.expect(tEq, "'=' after the property in SET")
			s.Items = append(s.Items, &SetProperty{Pos: t.pos, Property: x, Value: p.parseExpr()})
		case *Variable:
			switch {
			case p.accept(tEq):
				s.Items = append(s.Items, &SetAllProperties{Pos: t.pos, Var: x, Value: p.parseExpr()})
			case p.accept(tPlusEq):
				s.Items = append(s.Items, &MergeProperties{Pos: t.pos, Var: x, Value: p.parseExpr()})
			default:
				p.fail("expected '=', '+=' or a label after the variable in SET")
			}
		default:
			p.failAt(t.pos, DetailUnexpectedSyntax, "expected a property, a variable or labels to SET")
		}
		if !p.accept(tComma) {
			return s
		}
	}
}

func (p *parser) parseRemove(pos Pos) *Remove {
	r := &Remove{Pos: pos}
	for {
		t := p.tok()
		switch x := p.parsePostfix().(type) {
		case *LabelPredicate:
			v, ok := x.X.(*Variable)
			if !ok {
				p.failAt(t.pos, DetailUnexpectedSyntax, "expected a variable before the labels in REMOVE")
			}
			r.Items = append(r.Items, &RemoveLabels{Pos: t.pos, Var: v, Labels: x.Labels})
		case *PropertyAccess:
			r.Items = append(r.Items, &RemoveProperty{Pos: t.pos, Property: x})
		default:
			p.failAt(t.pos, DetailUnexpectedSyntax, "expected a property or labels to REMOVE")
		}
		if !p.accept(tComma) {
			return r
		}
	}
}

func (p *parser) parseDelete(pos Pos, detach bool) *Delete {
	d := &Delete{Pos: pos, Detach: detach}
	for {
		d.Exprs = append(d.Exprs, p.parseExpr())
		if !p.accept(tComma) {
			return d
		}
	}
}
