package cypher

import (
	"math/rand/v2"
	"strings"
	"time"

	"github.com/gdi-go/gdi/cypher/parse"
	"github.com/gdi-go/gdi/cypher/value"
	"github.com/gdi-go/gdi/gdi"
)

// aggSpec is one aggregating call of a projection: the Aggregate operator
// folds its arguments per group and stores the result in slot.
type aggSpec struct {
	name     string
	distinct bool
	star     bool
	args     []expr
	slot     int
	text     string
}

// call compiles a function call: an aggregating one, one the engine
// provides (it needs the graph), or a scalar function of cypher/value.
func (c *compiler) call(e *parse.FunctionCall) (expr, error) {
	name := strings.ToLower(e.Name)
	if value.IsAggregate(name) {
		return c.aggregate(name, e.Distinct, e.Args, false)
	}
	if name == "exists" {
		return c.exists(e)
	}
	args, err := c.compileAll(e.Args)
	if err != nil {
		return nil, err
	}
	fn := engineFunctions[name]
	if fn == nil && !value.IsFunction(name) {
		return nil, notSupported("function %s (temporal, spatial and other functions outside the subset)", e.Name)
	}
	if fn == nil {
		fn = func(_ *execution, vs []value.Value) (value.Value, error) { return value.Call(name, vs) }
	}
	return func(x *execution, r row) (value.Value, error) {
		vs, err := evalAll(x, r, args)
		if err != nil {
			return value.Null, err
		}
		return fn(x, vs)
	}, nil
}

// aggregate registers an aggregating call and returns the read of its
// result.
func (c *compiler) aggregate(name string, distinct bool, args []parse.Expr, star bool) (expr, error) {
	if c.aggs == nil {
		return nil, cypherError(catSyntaxError, "InvalidAggregation", "%s is an aggregating function, not allowed here", name)
	}
	inner := *c
	inner.aggs = nil
	fs, err := inner.compileAll(args)
	if err != nil {
		return nil, err
	}
	spec := &aggSpec{name: name, distinct: distinct, star: star, args: fs, slot: c.slots.fresh(), text: aggText(name, distinct, args, star)}
	*c.aggs = append(*c.aggs, spec)
	s := spec.slot
	return func(_ *execution, r row) (value.Value, error) { return r[s], nil }, nil
}

func aggText(name string, distinct bool, args []parse.Expr, star bool) string {
	if star {
		return "count(*)"
	}
	var parts []string
	for _, a := range args {
		parts = append(parts, parse.Format(a))
	}
	d := ""
	if distinct {
		d = "DISTINCT "
	}
	return name + "(" + d + strings.Join(parts, ", ") + ")"
}

func (c *compiler) exists(e *parse.FunctionCall) (expr, error) {
	if len(e.Args) != 1 {
		return nil, cypherError(catSyntaxError, "InvalidNumberOfArguments", "exists takes one argument")
	}
	f, err := c.compile(e.Args[0])
	if err != nil {
		return nil, err
	}
	return func(x *execution, r row) (value.Value, error) {
		v, err := f(x, r)
		return value.Bool(!v.IsNull()), err
	}, nil
}

type engineFunc func(x *execution, args []value.Value) (value.Value, error)

// engineFunctions are the functions of value.EngineFunctions but exists
// (compiled apart), keyed by lower-case name.
var engineFunctions = map[string]engineFunc{
	"id":         graphFunc("id", fnID),
	"labels":     graphFunc("labels", fnLabels),
	"type":       graphFunc("type", fnType),
	"startnode":  graphFunc("startNode", fnStartNode),
	"endnode":    graphFunc("endNode", fnEndNode),
	"keys":       graphFunc("keys", fnKeys),
	"properties": graphFunc("properties", fnProperties),
	"rand": func(_ *execution, args []value.Value) (value.Value, error) {
		if len(args) != 0 {
			return value.Null, cypherError(catSyntaxError, "InvalidNumberOfArguments", "rand takes no argument")
		}
		return value.Float(rand.Float64()), nil
	},
	"timestamp": func(_ *execution, args []value.Value) (value.Value, error) {
		if len(args) != 0 {
			return value.Null, cypherError(catSyntaxError, "InvalidNumberOfArguments", "timestamp takes no argument")
		}
		return value.Int(time.Now().UnixMilli()), nil
	},
}

// graphFunc wraps a function of one graph argument: a null argument gives
// null, a wrong count of arguments is an error.
func graphFunc(name string, fn func(x *execution, v value.Value) (value.Value, error)) engineFunc {
	return func(x *execution, args []value.Value) (value.Value, error) {
		if len(args) != 1 {
			return value.Null, cypherError(catSyntaxError, "InvalidNumberOfArguments", "%s takes one argument", name)
		}
		if args[0].IsNull() {
			return value.Null, nil
		}
		return fn(x, args[0])
	}
}

func argError(fn string, v value.Value) error {
	return cypherError(catTypeError, "InvalidArgumentValue", "%s cannot take a %v argument", fn, v.Kind())
}

func fnID(_ *execution, v value.Value) (value.Value, error) {
	switch v.Kind() {
	case value.KindNode:
		return value.Int(int64(v.Node().ID)), nil
	case value.KindRelationship:
		id := v.Relationship().ID
		return value.Int(int64(id[0] ^ id[1]<<48)), nil
	}
	return value.Null, argError("id", v)
}

func fnLabels(x *execution, v value.Value) (value.Value, error) {
	if v.Kind() != value.KindNode {
		return value.Null, argError("labels", v)
	}
	h, err := x.st.vertex(v.Node().ID)
	if err != nil {
		return value.Null, err
	}
	ls, err := x.st.labels(h)
	out := make([]value.Value, len(ls))
	for i, l := range ls {
		out[i] = value.Str(l)
	}
	return value.NewList(out), err
}

func fnType(x *execution, v value.Value) (value.Value, error) {
	if v.Kind() != value.KindRelationship {
		return value.Null, argError("type", v)
	}
	h, err := x.st.edgeEvenDeleted(v.Relationship().ID)
	if err != nil {
		return value.Null, err
	}
	t, err := x.st.relType(h)
	return value.Str(t), err
}

func fnStartNode(_ *execution, v value.Value) (value.Value, error) {
	if v.Kind() != value.KindRelationship {
		return value.Null, argError("startNode", v)
	}
	return value.NodeValue(value.Node{ID: v.Relationship().Start}), nil
}

func fnEndNode(_ *execution, v value.Value) (value.Value, error) {
	if v.Kind() != value.KindRelationship {
		return value.Null, argError("endNode", v)
	}
	return value.NodeValue(value.Node{ID: v.Relationship().End}), nil
}

func fnProperties(x *execution, v value.Value) (value.Value, error) {
	h, err := x.st.holder(v)
	if err != nil {
		return value.Null, err
	}
	if h == nil {
		return value.Call("properties", []value.Value{v})
	}
	return x.st.properties(h)
}

func fnKeys(x *execution, v value.Value) (value.Value, error) {
	h, err := x.st.holder(v)
	if err != nil {
		return value.Null, err
	}
	if h == nil {
		return value.Call("keys", []value.Value{v})
	}
	props, err := x.st.properties(h)
	keys := props.Map().Keys()
	out := make([]value.Value, len(keys))
	for i, k := range keys {
		out[i] = value.Str(k)
	}
	return value.NewList(out), err
}

// nodeOf returns the node UID of a node value.
func nodeOf(v value.Value) gdi.VertexUID { return gdi.VertexUID(v.Node().ID) }
