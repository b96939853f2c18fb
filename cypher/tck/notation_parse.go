package tck

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ParseValue reads one value in the TCK's notation:
//
//	null  true  42  -1.5  1e308  NaN  Inf  -Inf  'it\'s'  [1, 'a']
//	{k: 1, `odd key`: 2}  (:A:B {k: 1})  [:T {k: 1}]  <(:A)-[:T]->(:B)<-[:U]-()>
//
// Spaces between tokens do not matter.
func ParseValue(s string) (Val, error) {
	p := &notationParser{s: s}
	v, err := p.value()
	if err == nil {
		p.space()
		if p.i < len(p.s) {
			err = p.errorf("unexpected %q after the value", p.s[p.i:])
		}
	}
	if err != nil {
		return Val{}, fmt.Errorf("cannot read %q: %w", s, err)
	}
	return v, nil
}

type notationParser struct {
	s string
	i int
}

func (p *notationParser) errorf(format string, args ...any) error {
	return fmt.Errorf("at offset %d: %s", p.i, fmt.Sprintf(format, args...))
}

func (p *notationParser) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

// peek returns the next byte after spaces, 0 at the end.
func (p *notationParser) peek() byte {
	p.space()
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

// accept consumes tok (after spaces) if it comes next.
func (p *notationParser) accept(tok string) bool {
	p.space()
	if strings.HasPrefix(p.s[p.i:], tok) {
		p.i += len(tok)
		return true
	}
	return false
}

func (p *notationParser) expect(tok string) error {
	if !p.accept(tok) {
		return p.errorf("expected %q", tok)
	}
	return nil
}

func (p *notationParser) value() (Val, error) {
	switch p.peek() {
	case '\'':
		s, err := p.stringLit()
		return Val{Kind: KindString, Str: s}, err
	case '[':
		save := p.i
		p.i++
		if p.peek() == ':' {
			p.i = save
			return p.entity(KindRel)
		}
		p.i = save
		return p.list()
	case '{':
		m, err := p.mapLit()
		return Val{Kind: KindMap, Props: m}, err
	case '(':
		return p.entity(KindNode)
	case '<':
		return p.path()
	case 0:
		return Val{}, p.errorf("missing value")
	}
	return p.scalar()
}

func (p *notationParser) list() (Val, error) {
	v := Val{Kind: KindList, Elems: []Val{}}
	p.accept("[")
	if p.accept("]") {
		return v, nil
	}
	for {
		e, err := p.value()
		if err != nil {
			return v, err
		}
		v.Elems = append(v.Elems, e)
		if p.accept("]") {
			return v, nil
		}
		if err := p.expect(","); err != nil {
			return v, err
		}
	}
}

func (p *notationParser) mapLit() (map[string]Val, error) {
	m := map[string]Val{}
	if err := p.expect("{"); err != nil {
		return nil, err
	}
	if p.accept("}") {
		return m, nil
	}
	for {
		k, err := p.name()
		if err != nil {
			return nil, err
		}
		if _, dup := m[k]; dup {
			return nil, p.errorf("duplicate key %q", k)
		}
		if err := p.expect(":"); err != nil {
			return nil, err
		}
		if m[k], err = p.value(); err != nil {
			return nil, err
		}
		if p.accept("}") {
			return m, nil
		}
		if err := p.expect(","); err != nil {
			return nil, err
		}
	}
}

// The tokens of scalars: numbers and words (null, true, NaN, -Inf, …).
var (
	numberRE = regexp.MustCompile(`^-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?`)
	wordRE   = regexp.MustCompile(`^-?[A-Za-z_][0-9A-Za-z_]*`)
)

var keywords = map[string]Val{
	"null": {}, "true": {Kind: KindBool, Bool: true}, "false": {Kind: KindBool},
	"NaN": {Kind: KindFloat, Float: math.NaN()},
	"Inf": {Kind: KindFloat, Float: math.Inf(1)}, "-Inf": {Kind: KindFloat, Float: math.Inf(-1)},
	"Infinity": {Kind: KindFloat, Float: math.Inf(1)}, "-Infinity": {Kind: KindFloat, Float: math.Inf(-1)},
}

// scalar reads null, a boolean or a number: integers are written without
// a decimal point or an exponent, floats with one (or NaN, Inf, -Inf).
func (p *notationParser) scalar() (Val, error) {
	if w := wordRE.FindString(p.s[p.i:]); w != "" {
		v, ok := keywords[w]
		if !ok {
			return Val{}, p.errorf("unknown word %q", w)
		}
		p.i += len(w)
		return v, nil
	}
	w := numberRE.FindString(p.s[p.i:])
	if w == "" {
		return Val{}, p.errorf("unexpected %q", p.s[p.i:])
	}
	p.i += len(w)
	if !strings.ContainsAny(w, ".eE") {
		n, err := strconv.ParseInt(w, 10, 64)
		return Val{Kind: KindInt, Int: n}, err
	}
	f, err := strconv.ParseFloat(w, 64)
	return Val{Kind: KindFloat, Float: f}, err
}

// stringLit reads a single-quoted string: \\ \' \" \n \r \t \b \f and
// \uXXXX are escapes, another backslash stands for itself.
func (p *notationParser) stringLit() (string, error) {
	var b strings.Builder
	for p.i++; p.i < len(p.s); {
		r, size := utf8.DecodeRuneInString(p.s[p.i:])
		switch {
		case r == '\'':
			p.i++
			return b.String(), nil
		case r == '\\' && p.i+1 < len(p.s):
			p.escape(&b)
		default:
			b.WriteRune(r)
			p.i += size
		}
	}
	return "", p.errorf("unterminated string")
}

var unescaped = map[byte]rune{'\\': '\\', '\'': '\'', '"': '"', 'n': '\n', 'r': '\r', 't': '\t', 'b': '\b', 'f': '\f'}

// escape reads the escape at p.i (a backslash and more) into b.
func (p *notationParser) escape(b *strings.Builder) {
	c := p.s[p.i+1]
	if r, ok := unescaped[c]; ok {
		b.WriteRune(r)
		p.i += 2
		return
	}
	if c == 'u' && p.i+6 <= len(p.s) {
		if n, err := strconv.ParseUint(p.s[p.i+2:p.i+6], 16, 32); err == nil {
			b.WriteRune(rune(n))
			p.i += 6
			return
		}
	}
	b.WriteByte('\\')
	p.i++
}

// name reads a map key, label or type: an identifier or a back-quoted
// name (“ in it stands for `).
func (p *notationParser) name() (string, error) {
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '`' {
		return p.quotedName()
	}
	start := p.i
	for p.i < len(p.s) {
		r, size := utf8.DecodeRuneInString(p.s[p.i:])
		if !isNameRune(r) {
			break
		}
		p.i += size
	}
	if p.i == start {
		return "", p.errorf("expected a name")
	}
	return p.s[start:p.i], nil
}

func (p *notationParser) quotedName() (string, error) {
	var b strings.Builder
	for p.i++; p.i < len(p.s); p.i++ {
		if p.s[p.i] != '`' {
			b.WriteByte(p.s[p.i])
			continue
		}
		if p.i+1 < len(p.s) && p.s[p.i+1] == '`' {
			b.WriteByte('`')
			p.i++
			continue
		}
		p.i++
		return b.String(), nil
	}
	return "", p.errorf("unterminated back-quoted name")
}

func isNameRune(r rune) bool {
	return r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r)
}
