package main

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/gdi-go/gdi/cypher/parse"
	"github.com/gdi-go/gdi/cypher/value"
)

// paramFlag collects -param name=value flags.
type paramFlag struct{ m map[string]value.Value }

func (p *paramFlag) String() string { return "" }

// list writes the parameters, one "$name => value" a line, by name.
func (p *paramFlag) list() string {
	if len(p.m) == 0 {
		return "(no parameters)\n"
	}
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(p.m)) {
		fmt.Fprintf(&b, "$%s => %s\n", name, value.Format(p.m[name], nil))
	}
	return b.String()
}

func (p *paramFlag) Set(s string) error {
	name, text, ok := strings.Cut(s, "=")
	name = strings.TrimPrefix(strings.TrimSpace(name), "$")
	if !ok || name == "" {
		return fmt.Errorf("want name=value, not %q", s)
	}
	v, err := parseLiteral(text, false)
	if err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	if p.m == nil {
		p.m = map[string]value.Value{}
	}
	p.m[name] = v
	return nil
}

// parseLiteral reads a value in Cypher literal notation: numbers,
// strings, booleans, null, and lists and maps of them. With special, the
// floats NaN, Inf and -Inf of the TCK notation are values too.
func parseLiteral(text string, special bool) (value.Value, error) {
	e, err := parse.ParseExpr(text)
	if err != nil {
		return value.Value{}, err
	}
	return literalValue(e, special)
}

func literalValue(e parse.Expr, special bool) (value.Value, error) {
	switch e := e.(type) {
	case *parse.IntegerLit:
		return value.Int(e.Value), nil
	case *parse.FloatLit:
		return value.Float(e.Value), nil
	case *parse.StringLit:
		return value.Str(e.Value), nil
	case *parse.BoolLit:
		return value.Bool(e.Value), nil
	case *parse.NullLit:
		return value.Value{}, nil
	case *parse.ListLit:
		l := make([]value.Value, len(e.Elems))
		for i, x := range e.Elems {
			v, err := literalValue(x, special)
			if err != nil {
				return value.Value{}, err
			}
			l[i] = v
		}
		return value.NewList(l), nil
	case *parse.MapLit:
		m := make(map[string]value.Value, len(e.Entries))
		for _, x := range e.Entries {
			if _, dup := m[x.Key]; dup {
				return value.Value{}, fmt.Errorf("line %d, column %d: the key %s appears twice", x.Line, x.Column, x.Key)
			}
			v, err := literalValue(x.Value, special)
			if err != nil {
				return value.Value{}, err
			}
			m[x.Key] = v
		}
		return value.NewMap(m), nil
	case *parse.Unary:
		if e.Op == parse.OpNeg || e.Op == parse.OpPlus {
			v, err := literalValue(e.X, special)
			if err == nil && v.IsNumber() {
				switch {
				case e.Op == parse.OpPlus:
					return v, nil
				case v.Kind() == value.KindFloat:
					return value.Float(-v.Float()), nil
				case v.Int() != math.MinInt64:
					return value.Int(-v.Int()), nil
				}
			}
		}
	case *parse.Variable:
		if special {
			switch e.Name {
			case "NaN":
				return value.Float(math.NaN()), nil
			case "Inf", "Infinity":
				return value.Float(math.Inf(1)), nil
			}
		}
	}
	p := e.Position()
	return value.Value{}, fmt.Errorf("line %d, column %d: %s is not a literal (a number, string, boolean, null, list or map)", p.Line, p.Column, e)
}
