package value

import (
	"strings"
)

// Scalar functions. Call evaluates the functions that depend on their
// arguments only; names are case-insensitive. Unless noted, a null
// argument makes the result null (coalesce excepted), and an argument of
// the wrong type raises TypeError (InvalidArgumentValue), the TCK's detail
// for a function rejecting a value at runtime.
//
// The engine provides the functions that read the graph or the session —
// id, labels, type, startNode, endNode, exists, keys and properties of
// nodes and relationships, rand, timestamp, date and the other temporal
// functions — and the aggregating functions go through NewAggregate; see
// EngineFunctions and IsAggregate.

type function struct {
	min, max int // number of arguments; max < 0 for no limit
	call     func(args []Value) (Value, error)
	nulls    bool // the function handles null arguments itself
}

// functions maps lower-case names to implementations; filled by the
// func_*.go files' init functions.
var functions = map[string]function{}

func register(name string, min, max int, call func([]Value) (Value, error)) {
	functions[strings.ToLower(name)] = function{min: min, max: max, call: call}
}

// registerNullable registers a function that sees null arguments.
func registerNullable(name string, min, max int, call func([]Value) (Value, error)) {
	functions[strings.ToLower(name)] = function{min: min, max: max, call: call, nulls: true}
}

// EngineFunctions lists functions of openCypher that Call does not
// evaluate because they need the graph or the session; keys and properties
// are here for their node and relationship arguments (Call handles maps).
var EngineFunctions = []string{
	"id", "labels", "type", "startNode", "endNode", "exists", "keys",
	"properties", "rand", "timestamp",
}

// IsFunction reports whether Call knows name.
func IsFunction(name string) bool {
	_, ok := functions[strings.ToLower(name)]
	return ok
}

// Call evaluates the scalar function name on args. An unknown name raises
// SyntaxError (UnknownFunction) and a wrong number of arguments SyntaxError
// (InvalidNumberOfArguments).
func Call(name string, args []Value) (Value, error) {
	f, ok := functions[strings.ToLower(name)]
	if !ok {
		return Null, newError(SyntaxError, UnknownFunction, "unknown function %s", name)
	}
	if len(args) < f.min || (f.max >= 0 && len(args) > f.max) {
		return Null, newError(SyntaxError, InvalidNumberOfArguments, "%s takes %s, got %d", name, arity(f), len(args))
	}
	if !f.nulls {
		for _, a := range args {
			if a.IsNull() {
				return Null, nil
			}
		}
	}
	return f.call(args)
}

func arity(f function) string {
	switch {
	case f.max < 0:
		return "at least " + itoa(f.min) + " arguments"
	case f.min == f.max:
		return itoa(f.min) + " arguments"
	}
	return itoa(f.min) + " to " + itoa(f.max) + " arguments"
}

func itoa(i int) string { return scalarString(Int(int64(i))) }

// argError is the error of a function given a value of the wrong type.
func argError(fn string, v Value) error {
	return newError(TypeError, InvalidArgumentValue, "%s cannot take a %s argument", fn, v.kind)
}

// rangeError is the error of a numeric argument outside its domain.
func rangeError(fn string, format string, args ...any) error {
	e := newError(ArgumentError, NumberOutOfRange, format, args...)
	e.Msg = fn + ": " + e.Msg
	return e
}

// intArg returns an Integer argument.
func intArg(fn string, v Value) (int64, error) {
	if v.kind != KindInteger {
		return 0, argError(fn, v)
	}
	return v.Int(), nil
}

// strArg returns a String argument.
func strArg(fn string, v Value) (string, error) {
	if v.kind != KindString {
		return "", argError(fn, v)
	}
	return v.Str(), nil
}
