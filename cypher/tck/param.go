package tck

import (
	"fmt"

	"github.com/gdi-go/gdi/cypher/value"
)

// ParamValue reads a parameter's value, written in the TCK's notation, as
// a value.Value. Parameters are null, booleans, integers, floats, strings,
// and lists and maps of them: nodes, relationships and paths are refused.
func ParamValue(s string) (value.Value, error) {
	v, err := ParseValue(s)
	if err != nil {
		return value.Null, err
	}
	return toValue(v)
}

func toValue(v Val) (value.Value, error) {
	switch v.Kind {
	case KindNull:
		return value.Null, nil
	case KindBool:
		return value.Bool(v.Bool), nil
	case KindInt:
		return value.Int(v.Int), nil
	case KindFloat:
		return value.Float(v.Float), nil
	case KindString:
		return value.Str(v.Str), nil
	case KindList:
		elems := make([]value.Value, len(v.Elems))
		for i, e := range v.Elems {
			var err error
			if elems[i], err = toValue(e); err != nil {
				return value.Null, err
			}
		}
		return value.NewList(elems), nil
	case KindMap:
		m := make(map[string]value.Value, len(v.Props))
		for k, e := range v.Props {
			var err error
			if m[k], err = toValue(e); err != nil {
				return value.Null, err
			}
		}
		return value.NewMap(m), nil
	}
	return value.Null, fmt.Errorf("%s cannot be a parameter", v)
}

// Params reads the table of "And parameters are:", | name | value | rows.
func Params(table [][]string) (map[string]value.Value, error) {
	params := make(map[string]value.Value, len(table))
	for _, row := range table {
		if len(row) != 2 {
			return nil, fmt.Errorf("parameter row %q has %d cells, want 2", row, len(row))
		}
		v, err := ParamValue(row[1])
		if err != nil {
			return nil, fmt.Errorf("parameter %s: %w", row[0], err)
		}
		params[row[0]] = v
	}
	return params, nil
}
