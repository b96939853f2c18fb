package parse

import (
	"math"
	"strconv"
	"strings"
)

// Operator precedence, from loosest to tightest. The prefix operators sit
// between: NOT at precNot, unary minus and plus above precPow.
const (
	precOr   = 1 + iota // OR
	precXor             // XOR
	precAnd             // AND
	precNot             // NOT (prefix)
	precCmp             // = <> < <= > >= (chained)
	precPred            // IN, STARTS WITH, ENDS WITH, CONTAINS, IS [NOT] NULL
	precAdd             // + -
	precMul             // * / %
	precPow             // ^
)

type opKind int

const (
	opNone opKind = iota
	opBinary
	opCompare
	opIsNull
)

// operator describes the infix or postfix operator at the current token.
type operator struct {
	kind opKind
	prec int
	ntok int // number of tokens it spans (STARTS WITH: 2, IS NOT NULL: 3)
	bin  BinaryOp
	cmp  CompareOp
	not  bool // IS NOT NULL
}

var tokenOps = map[tokenKind]operator{
	tEq: {kind: opCompare, prec: precCmp, cmp: OpEq}, tNe: {kind: opCompare, prec: precCmp, cmp: OpNe},
	tLt: {kind: opCompare, prec: precCmp, cmp: OpLt}, tLe: {kind: opCompare, prec: precCmp, cmp: OpLe},
	tGt: {kind: opCompare, prec: precCmp, cmp: OpGt}, tGe: {kind: opCompare, prec: precCmp, cmp: OpGe},
	tPlus: {kind: opBinary, prec: precAdd, bin: OpAdd}, tMinus: {kind: opBinary, prec: precAdd, bin: OpSub},
	tStar: {kind: opBinary, prec: precMul, bin: OpMul}, tSlash: {kind: opBinary, prec: precMul, bin: OpDiv},
	tPercent: {kind: opBinary, prec: precMul, bin: OpMod}, tCaret: {kind: opBinary, prec: precPow, bin: OpPow},
}

var keywordOps = map[string]operator{
	"OR": {kind: opBinary, prec: precOr, bin: OpOr}, "XOR": {kind: opBinary, prec: precXor, bin: OpXor},
	"AND": {kind: opBinary, prec: precAnd, bin: OpAnd}, "IN": {kind: opBinary, prec: precPred, bin: OpIn},
	"CONTAINS": {kind: opBinary, prec: precPred, bin: OpContains},
}

// peekOperator returns the operator at the current token, if any.
func (p *parser) peekOperator() operator {
	t := p.tok()
	if op, ok := tokenOps[t.kind]; ok {
		op.ntok = 1
		return op
	}
	if t.kind == tRegex {
		panic(notSupported(t.pos, "regular expression match (=~)"))
	}
	if t.kind != tIdent {
		return operator{}
	}
	kw := strings.ToUpper(t.text)
	if op, ok := keywordOps[kw]; ok {
		op.ntok = 1
		return op
	}
	switch kw {
	case "STARTS", "ENDS":
		if !isKw(p.peek(1), "WITH") {
			p.i++
			p.fail("expected WITH after %s", kw)
		}
		return operator{kind: opBinary, prec: precPred, ntok: 2, bin: BinaryOp(kw + " WITH")}
	case "IS":
		if isKw(p.peek(1), "NULL") {
			return operator{kind: opIsNull, prec: precPred, ntok: 2}
		}
		if isKw(p.peek(1), "NOT") && isKw(p.peek(2), "NULL") {
			return operator{kind: opIsNull, prec: precPred, ntok: 3, not: true}
		}
		p.i++
		p.fail("expected NULL or NOT NULL after IS")
	}
	return operator{}
}

// parseExpr parses a full expression.
func (p *parser) parseExpr() Expr {
	p.enter()
	defer p.leave()
	return p.parseBinary(precOr)
}

// parseBinary parses an expression whose operators all bind at least as
// tightly as min, by precedence climbing. All binary operators are
// left-associative; comparisons form a chain; IS [NOT] NULL is postfix.
func (p *parser) parseBinary(min int) Expr {
	var x Expr
	if t := p.tok(); min <= precNot && isKw(t, "NOT") {
		p.next()
		p.enter()
		x = &Unary{Pos: t.pos, Op: OpNot, X: p.parseBinary(precNot)}
		p.leave()
	} else {
		x = p.parseUnary()
	}
	var chain *Comparison
	for {
		op := p.peekOperator()
		if op.kind == opNone || op.prec < min {
			return x
		}
		t := p.tok()
		p.i += op.ntok
		switch op.kind {
		case opIsNull:
			x = &IsNull{Pos: t.pos, X: x, Not: op.not}
		case opCompare:
			y := p.parseBinary(precCmp + 1)
			if chain != nil && x == Expr(chain) {
				chain.Operands = append(chain.Operands, y)
				chain.Ops = append(chain.Ops, op.cmp)
			} else {
				chain = &Comparison{Pos: t.pos, Operands: []Expr{x, y}, Ops: []CompareOp{op.cmp}}
				x = chain
			}
		default:
			x = &Binary{Pos: t.pos, Op: op.bin, L: x, R: p.parseBinary(op.prec + 1)}
		}
	}
}

// parseUnary parses prefix minus and plus. A minus directly followed by a
// number literal (not followed by a postfix operator) is folded into it.
func (p *parser) parseUnary() Expr {
	t := p.tok()
	if t.kind != tMinus && t.kind != tPlus {
		return p.parsePostfix()
	}
	p.next()
	if n := p.tok(); t.kind == tMinus && (n.kind == tInt || n.kind == tFloat) {
		switch p.peek(1).kind {
		case tDot, tLBracket, tColon:
		default:
			return p.parseNumber(t.pos, true)
		}
	}
	p.enter()
	defer p.leave()
	op := OpNeg
	if t.kind == tPlus {
		op = OpPlus
	}
	return &Unary{Pos: t.pos, Op: op, X: p.parseUnary()}
}

// parseNumber parses the number token at p, negated if neg (pos is then the
// position of the minus sign).
func (p *parser) parseNumber(pos Pos, neg bool) Expr {
	t := p.next()
	if !neg {
		pos = t.pos
	}
	if t.kind == tFloat {
		v, err := strconv.ParseFloat(t.text, 64)
		if err != nil && (math.IsInf(v, 0) || math.IsNaN(v)) {
			panic(NewError(SyntaxError, DetailFloatingPointOverflow, t.pos, "float literal %s is too large", t.text))
		} else if err != nil {
			panic(NewError(SyntaxError, DetailInvalidNumberLiteral, t.pos, "invalid number literal %q", t.text))
		}
		if neg {
			v = -v
		}
		return &FloatLit{Pos: pos, Value: v}
	}
	m, ierr := parseIntText(t.text)
	if ierr != nil {
		panic(NewError(SyntaxError, ierr.detail, t.pos, "%s %q", ierr.msg, t.text))
	}
	if m > math.MaxInt64 && !(neg && m == 1<<63) {
		sign := ""
		if neg {
			sign = "-"
		}
		panic(NewError(SyntaxError, DetailIntegerOverflow, pos, "integer %s%s does not fit in 64 bits", sign, t.text))
	}
	v := int64(m)
	if neg {
		v = -v
	}
	return &IntegerLit{Pos: pos, Value: v}
}

// parsePostfix parses an atom followed by property lookups, indexing and
// slicing, and an optional label predicate.
func (p *parser) parsePostfix() Expr {
	x := p.parsePrimary()
	for {
		t := p.tok()
		switch t.kind {
		case tDot:
			p.next()
			x = &PropertyAccess{Pos: t.pos, X: x, Key: p.schemaName("a property name after '.'")}
			continue
		case tLBracket:
			x = p.parseIndex(x)
			continue
		case tLBrace:
			if _, ok := x.(*Variable); ok {
				panic(notSupported(t.pos, "map projection"))
			}
		case tColon:
			lp := &LabelPredicate{Pos: t.pos, X: x}
			for p.accept(tColon) {
				lp.Labels = append(lp.Labels, p.schemaName("a label name after ':'"))
			}
			return lp
		}
		return x
	}
}

// parseIndex parses [i], [from..to], [..to], [from..] or [..] after x.
func (p *parser) parseIndex(x Expr) Expr {
	t := p.next()
	p.enter()
	defer p.leave()
	var from Expr
	if !p.is(tDotDot) {
		from = p.parseExpr()
		if p.accept(tRBracket) {
			return &Index{Pos: t.pos, X: x, Index: from}
		}
	}
	p.expect(tDotDot, "']' or '..' in the subscript")
	s := &Slice{Pos: t.pos, X: x, From: from}
	if !p.is(tRBracket) {
		s.To = p.parseExpr()
	}
	p.expect(tRBracket, "']' to close the slice")
	return s
}
