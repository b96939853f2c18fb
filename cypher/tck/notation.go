package tck

import (
	"math"
	"sort"
	"strconv"
	"strings"
)

// Kind is the kind of a Val.
type Kind uint8

// The kinds of the TCK's value notation.
const (
	KindNull Kind = iota
	KindBool
	KindInt
	KindFloat
	KindString
	KindList
	KindMap
	KindNode
	KindRel
	KindPath
)

// Val is a value written in the TCK's notation, parsed into a canonical
// tree: node labels sorted and without duplicates, maps keyed by name.
// Val is what expected and actual cells are compared as (Equal).
type Val struct {
	Kind   Kind
	Bool   bool
	Int    int64
	Float  float64        // NaN, ±Inf and -0.0 included
	Str    string         // KindString; the type of a KindRel
	Labels []string       // KindNode
	Elems  []Val          // KindList; KindPath: node, rel, node, …, node
	Props  map[string]Val // KindMap; the properties of a KindNode or KindRel
	Back   []bool         // KindPath: per relationship, whether written <-[…]-
}

// String writes v back in the notation, canonically: labels and map keys
// sorted, floats in the shortest form that reads back the same.
func (v Val) String() string {
	var b strings.Builder
	v.write(&b)
	return b.String()
}

func (v Val) write(b *strings.Builder) {
	switch v.Kind {
	case KindNull:
		b.WriteString("null")
	case KindBool:
		b.WriteString(strconv.FormatBool(v.Bool))
	case KindInt:
		b.WriteString(strconv.FormatInt(v.Int, 10))
	case KindFloat:
		b.WriteString(formatFloat(v.Float))
	case KindString:
		b.WriteString(quote(v.Str))
	case KindList:
		b.WriteByte('[')
		for i, e := range v.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			e.write(b)
		}
		b.WriteByte(']')
	case KindMap:
		writeMap(b, v.Props)
	case KindNode, KindRel:
		v.writeEntity(b)
	case KindPath:
		v.writePath(b)
	}
}

func (v Val) writeEntity(b *strings.Builder) {
	open, close := "(", ")"
	if v.Kind == KindRel {
		open, close = "[", "]"
		b.WriteString(open + ":" + quoteName(v.Str))
	} else {
		b.WriteString(open)
		for _, l := range v.Labels {
			b.WriteString(":" + quoteName(l))
		}
	}
	if len(v.Props) > 0 {
		if v.Kind == KindRel || len(v.Labels) > 0 {
			b.WriteByte(' ')
		}
		writeMap(b, v.Props)
	}
	b.WriteString(close)
}

func (v Val) writePath(b *strings.Builder) {
	b.WriteByte('<')
	for i, e := range v.Elems {
		switch {
		case i%2 == 0:
			e.write(b)
		case v.Back[i/2]:
			b.WriteString("<-")
			e.write(b)
			b.WriteByte('-')
		default:
			b.WriteByte('-')
			e.write(b)
			b.WriteString("->")
		}
	}
	b.WriteByte('>')
}

func writeMap(b *strings.Builder, m map[string]Val) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quoteName(k) + ": ")
		m[k].write(b)
	}
	b.WriteByte('}')
}

// formatFloat writes f so that it reads back as a float: with a decimal
// point or an exponent, or as NaN, Inf, -Inf.
func formatFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Inf"
	case math.IsInf(f, -1):
		return "-Inf"
	}
	s := strings.Replace(strconv.FormatFloat(f, 'g', -1, 64), "e+", "e", 1)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// quote writes a string literal: single quotes, with \ and ' escaped and
// the control characters that have escapes written as them.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for _, r := range s {
		if esc, ok := escapeOf[r]; ok {
			b.WriteString(esc)
		} else {
			b.WriteRune(r)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

var escapeOf = map[rune]string{
	'\\': `\\`, '\'': `\'`, '\n': `\n`, '\r': `\r`, '\t': `\t`, '\b': `\b`, '\f': `\f`,
}

// quoteName writes a map key, label or type, back-quoted unless it is an
// identifier.
func quoteName(s string) string {
	if isIdentifier(s) {
		return s
	}
	return "`" + strings.ReplaceAll(s, "`", "``") + "`"
}

func isIdentifier(s string) bool {
	for i, r := range s {
		if !isNameRune(r) || (i == 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}
