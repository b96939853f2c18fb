package value

import (
	"strings"
	"unicode"
)

// String functions. Positions and lengths count code points; a negative
// one raises ArgumentError (NumberOutOfRange), one past the end is
// clamped. White space is Unicode white space.
func init() {
	for name, f := range map[string]func(string) string{
		"toUpper": strings.ToUpper, "upper": strings.ToUpper,
		"toLower": strings.ToLower, "lower": strings.ToLower,
		"trim":  strings.TrimSpace,
		"ltrim": func(s string) string { return strings.TrimLeftFunc(s, unicode.IsSpace) },
		"rtrim": func(s string) string { return strings.TrimRightFunc(s, unicode.IsSpace) },
	} {
		register(name, 1, 1, stringFunc(name, f))
	}
	register("substring", 2, 3, substring)
	register("left", 2, 2, left)
	register("right", 2, 2, right)
	register("replace", 3, 3, replace)
	register("split", 2, 2, split)
}

func stringFunc(name string, f func(string) string) func([]Value) (Value, error) {
	return func(args []Value) (Value, error) {
		s, err := strArg(name, args[0])
		if err != nil {
			return Null, err
		}
		return Str(f(s)), nil
	}
}

// countArg returns a non-negative Integer argument, clamped to limit.
func countArg(fn string, v Value, limit int) (int, error) {
	n, err := intArg(fn, v)
	if err != nil {
		return 0, err
	}
	if n < 0 {
		return 0, rangeError(fn, "negative argument %d", n)
	}
	return int(min(n, int64(limit))), nil
}

// substring(s, start[, length]): the code points of s from start on, at
// most length of them.
func substring(args []Value) (Value, error) {
	s, err := strArg("substring", args[0])
	if err != nil {
		return Null, err
	}
	r := []rune(s)
	start, err := countArg("substring", args[1], len(r))
	if err != nil {
		return Null, err
	}
	end := len(r)
	if len(args) == 3 {
		n, err := countArg("substring", args[2], len(r)-start)
		if err != nil {
			return Null, err
		}
		end = start + n
	}
	return Str(string(r[start:end])), nil
}

// left(s, n): the first n code points of s.
func left(args []Value) (Value, error) {
	s, err := strArg("left", args[0])
	if err != nil {
		return Null, err
	}
	r := []rune(s)
	n, err := countArg("left", args[1], len(r))
	if err != nil {
		return Null, err
	}
	return Str(string(r[:n])), nil
}

// right(s, n): the last n code points of s.
func right(args []Value) (Value, error) {
	s, err := strArg("right", args[0])
	if err != nil {
		return Null, err
	}
	r := []rune(s)
	n, err := countArg("right", args[1], len(r))
	if err != nil {
		return Null, err
	}
	return Str(string(r[len(r)-n:])), nil
}

// stringArgs returns the arguments of a function of strings only.
func stringArgs(fn string, args []Value) ([]string, error) {
	s := make([]string, len(args))
	for i, a := range args {
		var err error
		if s[i], err = strArg(fn, a); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// replace(s, search, replacement): every occurrence of search replaced (an
// empty search matches between every two code points and at both ends).
func replace(args []Value) (Value, error) {
	s, err := stringArgs("replace", args)
	if err != nil {
		return Null, err
	}
	return Str(strings.ReplaceAll(s[0], s[1], s[2])), nil
}

// split(s, delimiter): the pieces of s between delimiters, empty ones
// included; an empty delimiter splits into code points.
func split(args []Value) (Value, error) {
	s, err := stringArgs("split", args)
	if err != nil {
		return Null, err
	}
	parts := strings.Split(s[0], s[1])
	l := make([]Value, len(parts))
	for i, p := range parts {
		l[i] = Str(p)
	}
	return NewList(l), nil
}
