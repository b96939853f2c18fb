package parse

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

func (pr *printer) exprList(es []Expr) {
	for i, e := range es {
		pr.comma(i)
		pr.expr(e)
	}
}

// isOperator reports whether e prints with an operator at its top level and
// so is parenthesized as an operand. Negative number literals count as
// operators only where a leading minus would be misread (postfix operands
// and unary operands), which the callers handle.
func isOperator(e Expr) bool {
	switch e.(type) {
	case *Unary, *Binary, *Comparison, *IsNull, *LabelPredicate:
		return true
	}
	return false
}

func isNegativeNumber(e Expr) bool {
	switch e := e.(type) {
	case *IntegerLit:
		return e.Value < 0
	case *FloatLit:
		return math.Signbit(e.Value)
	}
	return false
}

// operand prints e, parenthesized if it is an operator expression.
func (pr *printer) operand(e Expr) {
	if isOperator(e) {
		pr.paren(e)
		return
	}
	pr.expr(e)
}

// postfixOperand prints the operand of ., [], and labels.
func (pr *printer) postfixOperand(e Expr) {
	if isOperator(e) || isNegativeNumber(e) {
		pr.paren(e)
		return
	}
	pr.expr(e)
}

func (pr *printer) paren(e Expr) {
	pr.s("(")
	pr.expr(e)
	pr.s(")")
}

func (pr *printer) expr(e Expr) {
	switch e := e.(type) {
	case *Variable:
		pr.s(quoteName(e.Name))
	case *Parameter:
		pr.s("$", quoteParam(e.Name))
	case *IntegerLit:
		pr.s(strconv.FormatInt(e.Value, 10))
	case *FloatLit:
		pr.s(formatFloat(e.Value))
	case *StringLit:
		pr.s(quoteString(e.Value))
	case *BoolLit:
		pr.s(strings.ToLower(strconv.FormatBool(e.Value)))
	case *NullLit:
		pr.s("null")
	case *ListLit:
		pr.s("[")
		pr.exprList(e.Elems)
		pr.s("]")
	case *MapLit:
		pr.s("{")
		for i, en := range e.Entries {
			pr.comma(i)
			pr.node(en)
		}
		pr.s("}")
	case *PropertyAccess:
		pr.postfixOperand(e.X)
		pr.s(".", quoteName(e.Key))
	case *Index:
		pr.postfixOperand(e.X)
		pr.s("[")
		pr.expr(e.Index)
		pr.s("]")
	case *Slice:
		pr.postfixOperand(e.X)
		pr.s("[")
		if e.From != nil {
			pr.expr(e.From)
		}
		pr.s("..")
		if e.To != nil {
			pr.expr(e.To)
		}
		pr.s("]")
	case *LabelPredicate:
		pr.postfixOperand(e.X)
		pr.labels(e.Labels)
	default:
		pr.compound(e)
	}
}

// compound prints the operator and composite expressions.
func (pr *printer) compound(e Expr) {
	switch e := e.(type) {
	case *Unary:
		if e.Op == OpNot {
			pr.s("NOT ")
			pr.operand(e.X)
			return
		}
		pr.s(string(e.Op))
		switch e.X.(type) {
		case *IntegerLit, *FloatLit:
			pr.paren(e.X)
		default:
			pr.operand(e.X)
		}
	case *Binary:
		pr.operand(e.L)
		pr.s(" ", string(e.Op), " ")
		pr.operand(e.R)
	case *Comparison:
		for i, x := range e.Operands {
			if i > 0 {
				pr.s(" ", string(e.Ops[i-1]), " ")
			}
			pr.operand(x)
		}
	case *IsNull:
		pr.operand(e.X)
		if e.Not {
			pr.s(" IS NOT NULL")
		} else {
			pr.s(" IS NULL")
		}
	case *FunctionCall:
		pr.s(quoteFunctionName(e.Name), "(")
		if e.Distinct {
			pr.s("DISTINCT ")
		}
		pr.exprList(e.Args)
		pr.s(")")
	case *CountStar:
		pr.s("count(*)")
	case *Case:
		pr.caseExpr(e)
	case *ListComprehension:
		pr.comprehension(e)
	}
}

func (pr *printer) caseExpr(e *Case) {
	pr.s("CASE")
	if e.Subject != nil {
		pr.s(" ")
		pr.expr(e.Subject)
	}
	for _, w := range e.Whens {
		pr.s(" ")
		pr.node(w)
	}
	if e.Else != nil {
		pr.s(" ELSE ")
		pr.expr(e.Else)
	}
	pr.s(" END")
}

func (pr *printer) comprehension(e *ListComprehension) {
	if e.Quantifier != "" {
		pr.s(e.Quantifier, "(", quoteName(e.Var.Name), " IN ")
		pr.expr(e.List)
		pr.s(" WHERE ")
		pr.expr(e.Where)
		pr.s(")")
		return
	}
	pr.s("[", quoteName(e.Var.Name), " IN ")
	pr.expr(e.List)
	if e.Where != nil {
		pr.s(" WHERE ")
		pr.expr(e.Where)
	}
	if e.Map != nil {
		pr.s(" | ")
		pr.expr(e.Map)
	}
	pr.s("]")
}

// formatFloat prints a float so that it lexes back as the same float: it
// always has a '.' or an exponent, and the exponent has no '+'.
func formatFloat(v float64) string {
	switch {
	case math.IsNaN(v):
		return "(0.0 / 0.0)"
	case math.IsInf(v, 1):
		return "(1.0 / 0.0)"
	case math.IsInf(v, -1):
		return "(-1.0 / 0.0)"
	}
	s := strconv.FormatFloat(v, 'g', -1, 64)
	s = strings.Replace(s, "e+", "e", 1)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// quoteString prints a string literal in single quotes.
func quoteString(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for _, r := range s {
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case '\'':
			b.WriteString(`\'`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if r < 0x20 || r == 0x7f {
				b.WriteString(`\u`)
				h := strconv.FormatInt(int64(r), 16)
				b.WriteString(strings.Repeat("0", 4-len(h)) + h)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// isPlainName reports whether s lexes as a single unescaped identifier.
func isPlainName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == utf8.RuneError || (i == 0 && !isIdentStart(r)) || !isIdentPart(r) {
			return false
		}
	}
	return true
}

// quoteName prints a name (variable, label, type, key), back-quoted if it
// is not a plain identifier or is a reserved word.
func quoteName(s string) string {
	if isPlainName(s) && !isReserved(s) {
		return s
	}
	return "`" + strings.ReplaceAll(s, "`", "``") + "`"
}

// quoteParam prints a parameter name after '$'.
func quoteParam(s string) string {
	if isPlainName(s) {
		return s
	}
	digits := s != ""
	for _, r := range s {
		digits = digits && isDigit(r)
	}
	if digits {
		return s
	}
	return "`" + strings.ReplaceAll(s, "`", "``") + "`"
}

// specialFunctions are names that the parser treats specially when followed
// by '(' (list predicates, reduce, shortest paths); a function call with such
// a name is printed back-quoted so that it reparses as a plain call.
var specialFunctions = map[string]bool{
	"all": true, "any": true, "none": true, "single": true, "filter": true,
	"extract": true, "reduce": true, "shortestpath": true, "allshortestpaths": true,
}

func quoteFunctionName(name string) string {
	parts := strings.Split(name, ".")
	for i, p := range parts {
		switch {
		case len(parts) == 1 && strings.EqualFold(p, "exists"):
		case len(parts) == 1 && specialFunctions[strings.ToLower(p)]:
			parts[i] = "`" + strings.ReplaceAll(p, "`", "``") + "`"
		default:
			parts[i] = quoteName(p)
		}
	}
	return strings.Join(parts, ".")
}
