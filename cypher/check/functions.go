package check

import (
	"strings"

	"github.com/gdi-go/gdi/cypher/parse"
)

// Func describes a function known to the checker.
type Func struct {
	// Aggregate marks an aggregating function (count, sum, …), computed over
	// the rows of a group.
	Aggregate bool
	// NonDeterministic marks a function whose result varies between calls
	// with the same arguments (rand); it may not appear inside an
	// aggregation.
	NonDeterministic bool
	// Arg is the set of types accepted by the first argument, or 0 when the
	// checker does not restrict it.
	Arg Type
	// Result is the type of the result, TAny when not known.
	Result Type
	// PropertyArg requires the argument to be a property access, as for
	// exists(n.prop) (InvalidArgumentExpression otherwise).
	PropertyArg bool
}

// Builtins are the functions of openCypher 9, keyed by lower-case name
// (function names are case-insensitive). Config.Functions replaces them.
var Builtins = map[string]Func{
	// aggregating
	"count": {Aggregate: true, Result: TInteger}, "collect": {Aggregate: true, Result: TList},
	"sum": {Aggregate: true, Result: TAny}, "avg": {Aggregate: true, Result: TAny},
	"min": {Aggregate: true, Result: TAny}, "max": {Aggregate: true, Result: TAny},
	"percentiledisc": {Aggregate: true, Result: TAny}, "percentilecont": {Aggregate: true, Result: TFloat},
	"stdev": {Aggregate: true, Result: TFloat}, "stdevp": {Aggregate: true, Result: TFloat},
	// graph
	"labels": {Arg: TNode, Result: TList}, "type": {Arg: TRelationship, Result: TString},
	"id":         {Arg: TEntity, Result: TInteger},
	"properties": {Arg: TEntity | TMap, Result: TMap}, "keys": {Arg: TEntity | TMap, Result: TList},
	"startnode": {Arg: TRelationship, Result: TNode}, "endnode": {Arg: TRelationship, Result: TNode},
	"nodes": {Arg: TPath, Result: TList}, "relationships": {Arg: TPath, Result: TList},
	"length": {Arg: TPath | TString | TList, Result: TInteger},
	"exists": {PropertyArg: true, Result: TBoolean},
	// scalar and list
	"size": {Arg: TList | TString, Result: TInteger}, "head": {Result: TAny}, "last": {Result: TAny},
	"tail": {Result: TList}, "range": {Result: TList}, "reverse": {Result: TAny},
	"coalesce": {Result: TAny}, "timestamp": {Result: TInteger},
	"tointeger": {Result: TInteger}, "tofloat": {Result: TFloat},
	"tostring": {Result: TString}, "toboolean": {Result: TBoolean},
	// numeric
	"abs": {Result: TAny}, "ceil": {Result: TFloat}, "floor": {Result: TFloat},
	"round": {Result: TFloat}, "sign": {Result: TInteger}, "rand": {NonDeterministic: true, Result: TFloat},
	"sqrt": {Result: TFloat}, "exp": {Result: TFloat}, "log": {Result: TFloat}, "log10": {Result: TFloat},
	"e": {Result: TFloat}, "pi": {Result: TFloat},
	"sin": {Result: TFloat}, "cos": {Result: TFloat}, "tan": {Result: TFloat}, "cot": {Result: TFloat},
	"asin": {Result: TFloat}, "acos": {Result: TFloat}, "atan": {Result: TFloat}, "atan2": {Result: TFloat},
	"degrees": {Result: TFloat}, "radians": {Result: TFloat}, "haversin": {Result: TFloat},
	// string
	"toupper": {Result: TString}, "tolower": {Result: TString}, "trim": {Result: TString},
	"ltrim": {Result: TString}, "rtrim": {Result: TString}, "substring": {Result: TString},
	"left": {Result: TString}, "right": {Result: TString}, "replace": {Result: TString},
	"split": {Result: TList},
	// temporal
	"date": {Result: TOther}, "time": {Result: TOther}, "localtime": {Result: TOther},
	"datetime": {Result: TOther}, "localdatetime": {Result: TOther}, "duration": {Result: TOther},
	"date.truncate": {Result: TOther}, "time.truncate": {Result: TOther},
	"localtime.truncate": {Result: TOther}, "datetime.truncate": {Result: TOther},
	"localdatetime.truncate": {Result: TOther}, "datetime.fromepoch": {Result: TOther},
	"datetime.fromepochmillis": {Result: TOther}, "duration.between": {Result: TOther},
	"duration.inmonths": {Result: TOther}, "duration.indays": {Result: TOther},
	"duration.inseconds": {Result: TOther},
}

// function looks name up case-insensitively.
func (c *checker) function(name string) (Func, bool) {
	f, ok := c.funcs[strings.ToLower(name)]
	return f, ok
}

// call checks a function call: the function must be known, an aggregating
// one must be allowed here, and the first argument must be of a type the
// function accepts.
func (c *checker) call(e *parse.FunctionCall, sc *scope, x ctx) Type {
	f, ok := c.function(e.Name)
	if !ok {
		fail(e.Pos, DetailUnknownFunction, "unknown function %s", e.Name)
	}
	if f.NonDeterministic && x.inAggregate {
		fail(e.Pos, DetailNonConstantExpression, "%s() is not allowed inside an aggregation", e.Name)
	}
	if f.Aggregate {
		c.aggregation(e.Pos, x)
		x.inAggregate = true
	}
	for i, a := range e.Args {
		if _, ok := a.(*parse.PropertyAccess); f.PropertyArg && !ok {
			fail(a.Position(), DetailInvalidArgumentExpression, "the argument of %s() must be a property", e.Name)
		}
		t := c.expr(a, sc, x)
		if i == 0 && f.Arg != 0 && !t.accepts(f.Arg) {
			fail(a.Position(), DetailInvalidArgumentType, "%s() expects %s, found %s", e.Name, f.Arg, t)
		}
	}
	return f.Result
}
