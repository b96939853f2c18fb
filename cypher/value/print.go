package value

import (
	"math"
	"strconv"
	"strings"
	"unicode"
)

// Printing in the TCK's result notation:
//
//	null  true  42  1.5  1.0  -0.0  1e308  NaN  Inf  -Inf  'it\'s'
//	[1, 'a']  {a: 1, `b c`: 2}  (:L {k: 1})  [:T {k: 1}]  <(:A)-[:T]->(:B)>
//
// Floats always show a decimal point or an exponent (so they read back as
// floats): plain decimals for magnitudes in [1e-7, 1e21), otherwise the
// shortest exponent form without '+'. Strings are single-quoted, with \
// and ' escaped by a backslash (and \n \r \t \b \f for the control
// characters that have escapes). Map entries come in ascending key order,
// a canonical form; keys that are not identifiers are back-quoted. Nodes
// and relationships are printed by a Printer the engine supplies, since
// their labels, types and properties live in the graph; paths print their
// elements with the relationships' arrows pointing the way each is
// traversed.

// Printer prints graph elements for Format. Node and Relationship return
// the TCK notation, e.g. "(:L {k: 1})" and "[:T {k: 1}]" (FormatNode and
// FormatRelationship build those from labels, type and properties).
type Printer interface {
	Node(n Node) string
	Relationship(r Relationship) string
}

// idPrinter, the Printer of String, prints identities only: (#5), [#1.2].
type idPrinter struct{}

func (idPrinter) Node(n Node) string {
	return "(#" + strconv.FormatUint(uint64(n.ID), 10) + ")"
}

func (idPrinter) Relationship(r Relationship) string {
	return "[#" + strconv.FormatUint(r.ID[0], 10) + "." + strconv.FormatUint(r.ID[1], 10) + "]"
}

// String returns v in the TCK's notation, with nodes and relationships
// shown by ID.
func (v Value) String() string { return Format(v, nil) }

// Format returns v in the TCK's notation, printing graph elements with p
// (by ID if p is nil).
func Format(v Value, p Printer) string {
	if p == nil {
		p = idPrinter{}
	}
	var b strings.Builder
	format(&b, v, p)
	return b.String()
}

func format(b *strings.Builder, v Value, p Printer) {
	switch v.kind {
	case KindNull:
		b.WriteString("null")
	case KindBoolean:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case KindInteger:
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case KindFloat:
		b.WriteString(formatFloat(v.f(), "Inf"))
	case KindString:
		quoteTo(b, v.Str())
	case KindList:
		formatList(b, v.List(), p)
	case KindMap:
		formatMap(b, v.Map(), p)
	case KindNode:
		b.WriteString(p.Node(v.Node()))
	case KindRelationship:
		b.WriteString(p.Relationship(v.Relationship()))
	case KindPath:
		formatPath(b, v.Path(), p)
	}
}

func formatList(b *strings.Builder, l []Value, p Printer) {
	b.WriteByte('[')
	for i, e := range l {
		if i > 0 {
			b.WriteString(", ")
		}
		format(b, e, p)
	}
	b.WriteByte(']')
}

func formatMap(b *strings.Builder, m Map, p Printer) {
	b.WriteByte('{')
	for i := 0; i < m.Len(); i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(formatName(m.key(i)))
		b.WriteString(": ")
		format(b, m.val(i), p)
	}
	b.WriteByte('}')
}

func formatPath(b *strings.Builder, path Path, p Printer) {
	b.WriteByte('<')
	b.WriteString(p.Node(path.Nodes[0]))
	for i, r := range path.Rels {
		if path.Forward(i) {
			b.WriteString("-" + p.Relationship(r) + "->")
		} else {
			b.WriteString("<-" + p.Relationship(r) + "-")
		}
		b.WriteString(p.Node(path.Nodes[i+1]))
	}
	b.WriteByte('>')
}

// FormatNode returns the TCK notation of a node with the given labels and
// properties, e.g. (:A:B {k: 1}), or () for neither.
func FormatNode(labels []string, props Map, p Printer) string {
	return "(" + element(labels, props, p) + ")"
}

// FormatRelationship returns the TCK notation of a relationship, e.g.
// [:T {k: 1}].
func FormatRelationship(typ string, props Map, p Printer) string {
	return "[" + element([]string{typ}, props, p) + "]"
}

func element(names []string, props Map, p Printer) string {
	var b strings.Builder
	for _, n := range names {
		b.WriteString(":" + formatName(n))
	}
	if props.Len() > 0 {
		if len(names) > 0 {
			b.WriteByte(' ')
		}
		formatMap(&b, props, p)
	}
	return b.String()
}

// quoteTo writes s to b single-quoted, with \ ' and control characters
// escaped.
func quoteTo(b *strings.Builder, s string) {
	b.Grow(len(s) + 2)
	b.WriteByte('\'')
	for _, r := range s {
		switch r {
		case '\\', '\'':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('\'')
}

// formatName returns a map key, label or type, back-quoted (with inner
// back-quotes doubled) unless it is an identifier.
func formatName(s string) string {
	for i, r := range s {
		if !(r == '_' || unicode.IsLetter(r) || (i > 0 && unicode.IsDigit(r))) {
			return "`" + strings.ReplaceAll(s, "`", "``") + "`"
		}
	}
	if s == "" {
		return "``"
	}
	return s
}

// formatFloat writes f so that it reads back as a Float; inf is the name
// of +Infinity ("Inf" in the TCK notation, "Infinity" in toString).
func formatFloat(f float64, inf string) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return inf
	case math.IsInf(f, -1):
		return "-" + inf
	}
	if a := math.Abs(f); a != 0 && (a < 1e-7 || a >= 1e21) {
		return strings.Replace(strconv.FormatFloat(f, 'e', -1, 64), "e+", "e", 1)
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// scalarString is toString of a Boolean, number or String (as used by
// toString and by string concatenation): 1, 1.5, 1.0, NaN, Infinity, true.
func scalarString(v Value) string {
	switch v.kind {
	case KindBoolean:
		return strconv.FormatBool(v.Bool())
	case KindInteger:
		return strconv.FormatInt(v.Int(), 10)
	case KindFloat:
		return formatFloat(v.f(), "Infinity")
	}
	return v.Str()
}
