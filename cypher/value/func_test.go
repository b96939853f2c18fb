package value

import (
	"math"
	"testing"
)

func call(name string, args ...Value) out { return r(Call(name, args)) }

func TestCallRegistry(t *testing.T) {
	check(t, []row{
		{"names are case-insensitive", call("TOUPPER", S("a")), S("A")},
		{"unknown function", call("foo", I(1)), UnknownFunction},
		{"engine functions are not here", call("labels", nd(1)), UnknownFunction},
		{"too few arguments", call("abs"), InvalidNumberOfArguments},
		{"too many arguments", call("abs", I(1), I(2)), InvalidNumberOfArguments},
		{"null argument gives null", call("abs", N), N},
		{"null in any position gives null", call("replace", S("a"), N, S("b")), N},
	})
	if !IsFunction("ToInteger") || IsFunction("count") || IsFunction("id") {
		t.Error("IsFunction: scalar functions only, engine ones excluded")
	}
}

func TestMathFunctions(t *testing.T) {
	check(t, []row{
		{"abs: int stays int", call("abs", I(-3)), I(3)},
		{"abs: float", call("abs", D(-1.5)), D(1.5)},
		{"abs: MinInt64 overflows", call("abs", I(math.MinInt64)), IntegerOverflow},
		{"abs: string is InvalidArgumentValue", call("abs", S("a")), InvalidArgumentValue},
		{"ceil: float result", call("ceil", D(1.1)), D(2)},
		{"ceil: of an int is a float", call("ceil", I(1)), D(1)},
		{"floor", call("floor", D(-1.1)), D(-2)},
		{"round: half away from zero", call("round", D(2.5)), D(3)},
		{"round: negative half away from zero", call("round", D(-1.5)), D(-2)},
		{"round: below half", call("round", D(-1.4)), D(-1)},
		{"round: of an int is a float", call("round", I(3)), D(3)},
		{"round: precision", call("round", D(3.141592), I(3)), D(3.142)},
		{"round: precision on the decimal form", call("round", D(2.675), I(2)), D(2.68)},
		{"round: carries", call("round", D(9.999), I(2)), D(10)},
		{"round: precision beyond the digits", call("round", D(1.5), I(5)), D(1.5)},
		{"round: negative precision", call("round", D(1234.5), I(-2)), D(1200)},
		{"round: tiny to zero", call("round", D(0.0004), I(2)), D(0)},
		{"round: NaN", call("round", NaN), NaN},
		{"round: non-integer precision", call("round", D(1), D(1)), InvalidArgumentValue},
		{"sign: int", call("sign", I(-5)), I(-1)},
		{"sign: float is an int", call("sign", D(0.5)), I(1)},
		{"sign: zero", call("sign", D(0)), I(0)},
		{"sqrt", call("sqrt", I(16)), D(4)},
		{"sqrt of a negative is NaN", call("sqrt", I(-1)), NaN},
		{"exp", call("exp", I(0)), D(1)},
		{"log of 0 is -Infinity", call("log", I(0)), D(math.Inf(-1))},
		{"log10", call("log10", I(1000)), D(3)},
		{"sin", call("sin", I(0)), D(0)},
		{"cos", call("cos", I(0)), D(1)},
		{"tan", call("tan", I(0)), D(0)},
		{"atan2", call("atan2", I(0), I(1)), D(0)},
		{"degrees", call("degrees", D(math.Pi)), D(180)},
		{"pi", call("pi"), D(math.Pi)},
		{"e", call("e"), D(math.E)},
		{"math of a list is InvalidArgumentValue", call("sqrt", L()), InvalidArgumentValue},
	})
}

func TestConversionFunctions(t *testing.T) {
	check(t, []row{
		// toInteger (TCK TypeConversion2)
		{"toInteger: int", call("toInteger", I(2)), I(2)},
		{"toInteger: float truncates", call("toInteger", D(2.9)), I(2)},
		{"toInteger: negative float truncates toward zero", call("toInteger", D(-2.9)), I(-2)},
		{"toInteger: string", call("toInteger", S("42")), I(42)},
		{"toInteger: float string truncates", call("toInteger", S("1.7")), I(1)},
		{"toInteger: string with exponent", call("toInteger", S("2e3")), I(2000)},
		{"toInteger: spaces trimmed", call("toInteger", S(" 42 ")), I(42)},
		{"toInteger: non-numeric string", call("toInteger", S("foo")), N},
		{"toInteger: empty string", call("toInteger", S("")), N},
		{"toInteger: no hexadecimal", call("toInteger", S("0x1F")), N},
		{"toInteger: no NaN string", call("toInteger", S("NaN")), N},
		{"toInteger: string beyond int64", call("toInteger", S("1e30")), N},
		{"toInteger: boolean", call("toInteger", T), I(1)},
		{"toInteger: NaN", call("toInteger", NaN), NumberOutOfRange},
		{"toInteger: float beyond int64", call("toInteger", D(1e19)), NumberOutOfRange},
		{"toInteger: list", call("toInteger", L()), InvalidArgumentValue},
		{"toInteger: map", call("toInteger", M()), InvalidArgumentValue},
		{"toInteger: node", call("toInteger", nd(1)), InvalidArgumentValue},
		{"toInteger: relationship", call("toInteger", rl(1, 1, 2)), InvalidArgumentValue},
		{"toInteger: path", call("toInteger", pth(t, 1)), InvalidArgumentValue},
		// toFloat (TCK TypeConversion3)
		{"toFloat: int", call("toFloat", I(3)), D(3)},
		{"toFloat: float", call("toFloat", D(3.4)), D(3.4)},
		{"toFloat: string", call("toFloat", S("5")), D(5)},
		{"toFloat: decimal string", call("toFloat", S("-.5e1")), D(-5)},
		{"toFloat: non-numeric", call("toFloat", S("foo")), N},
		{"toFloat: empty", call("toFloat", S("")), N},
		{"toFloat: boolean", call("toFloat", T), InvalidArgumentValue},
		{"toFloat: list", call("toFloat", L()), InvalidArgumentValue},
		// toString (TCK TypeConversion4)
		{"toString: int", call("toString", I(42)), S("42")},
		{"toString: float", call("toString", D(2.3)), S("2.3")},
		{"toString: whole float", call("toString", D(1)), S("1.0")},
		{"toString: infinity", call("toString", Inf), S("Infinity")},
		{"toString: boolean", call("toString", T), S("true")},
		{"toString: string", call("toString", S("apa")), S("apa")},
		{"toString: list", call("toString", L()), InvalidArgumentValue},
		{"toString: node", call("toString", nd(1)), InvalidArgumentValue},
		// toBoolean (TCK TypeConversion1)
		{"toBoolean: boolean", call("toBoolean", F), F},
		{"toBoolean: 'true'", call("toBoolean", S("true")), T},
		{"toBoolean: any case", call("toBoolean", S("FALSE")), F},
		{"toBoolean: empty string", call("toBoolean", S("")), N},
		{"toBoolean: ' tru '", call("toBoolean", S(" tru ")), N},
		{"toBoolean: 'f alse'", call("toBoolean", S("f alse")), N},
		{"toBoolean: int", call("toBoolean", I(0)), F},
		{"toBoolean: float", call("toBoolean", D(1)), InvalidArgumentValue},
		{"toBoolean: list", call("toBoolean", L()), InvalidArgumentValue},
		{"toBoolean: map", call("toBoolean", M()), InvalidArgumentValue},
	})
}

func TestListFunctions(t *testing.T) {
	l := L(I(1), I(2), I(3))
	ab := rl(7, 1, 2)
	check(t, []row{
		{"size: list", call("size", l), I(3)},
		{"size: string in code points", call("size", S("ǿ🧐")), I(2)},
		{"size: map", call("size", M()), InvalidArgumentValue},
		{"length: path", call("length", pth(t, 1, ab, 2)), I(1)},
		{"length: node path", call("length", pth(t, 1)), I(0)},
		{"length: list", call("length", l), InvalidArgumentValue},
		{"head", call("head", l), I(1)},
		{"head: empty", call("head", L()), N},
		{"last", call("last", l), I(3)},
		{"last: empty", call("last", L()), N},
		{"tail", call("tail", l), L(I(2), I(3))},
		{"tail: empty", call("tail", L()), L()},
		{"head: string", call("head", S("abc")), InvalidArgumentValue},
		{"range: inclusive", call("range", I(0), I(3)), L(I(0), I(1), I(2), I(3))},
		{"range: step", call("range", I(0), I(7), I(3)), L(I(0), I(3), I(6))},
		{"range: negative step", call("range", I(3), I(0), I(-2)), L(I(3), I(1))},
		{"range: empty", call("range", I(3), I(0)), L()},
		{"range: single", call("range", I(2), I(2)), L(I(2))},
		{"range: step 0", call("range", I(2), I(8), I(0)), NumberOutOfRange},
		{"range: float bound", call("range", I(0), D(2)), InvalidArgumentType},
		{"range: too long", call("range", I(math.MinInt64), I(math.MaxInt64)), NumberOutOfRange},
		{"reverse: list", call("reverse", l), L(I(3), I(2), I(1))},
		{"reverse: string by code point", call("reverse", S("ab🧐")), S("🧐ba")},
		{"reverse: number", call("reverse", I(1)), InvalidArgumentValue},
		{"coalesce: first non-null", call("coalesce", N, N, I(2), I(3)), I(2)},
		{"coalesce: all null", call("coalesce", N, N), N},
		{"coalesce: needs an argument", call("coalesce"), InvalidNumberOfArguments},
		{"keys: of a map, sorted", call("keys", M("b", I(1), "a", N)), L(S("a"), S("b"))},
		{"keys: of a number", call("keys", I(1)), InvalidArgumentValue},
		{"properties: of a map", call("properties", M("name", S("Popeye"), "level", I(9001))), M("name", S("Popeye"), "level", I(9001))},
		{"properties: of a list", call("properties", L(T, F)), InvalidArgumentValue},
		{"nodes: of a path", call("nodes", pth(t, 1, ab, 2)), L(nd(1), nd(2))},
		{"relationships: of a path", call("relationships", pth(t, 1, ab, 2)), L(ab)},
		{"nodes: of a node", call("nodes", nd(1)), InvalidArgumentValue},
	})
}

func TestStringFunctions(t *testing.T) {
	check(t, []row{
		{"toUpper", call("toUpper", S("abé")), S("ABÉ")},
		{"toLower", call("toLower", S("ABÉ")), S("abé")},
		{"trim", call("trim", S("  a b \t")), S("a b")},
		{"ltrim", call("ltrim", S("  a ")), S("a ")},
		{"rtrim", call("rtrim", S("  a ")), S("  a")},
		{"toUpper: number", call("toUpper", I(1)), InvalidArgumentValue},
		{"substring: from", call("substring", S("hello"), I(1)), S("ello")},
		{"substring: from and length", call("substring", S("hello"), I(1), I(3)), S("ell")},
		{"substring: code points", call("substring", S("🧐ab"), I(1), I(1)), S("a")},
		{"substring: length clamped", call("substring", S("hello"), I(3), I(10)), S("lo")},
		{"substring: start past the end", call("substring", S("hello"), I(10)), S("")},
		{"substring: negative start", call("substring", S("hello"), I(-1)), NumberOutOfRange},
		{"substring: negative length", call("substring", S("hello"), I(1), I(-1)), NumberOutOfRange},
		{"substring: float start", call("substring", S("hello"), D(1)), InvalidArgumentValue},
		{"left", call("left", S("hello"), I(3)), S("hel")},
		{"left: clamped", call("left", S("hi"), I(3)), S("hi")},
		{"left: negative", call("left", S("hi"), I(-1)), NumberOutOfRange},
		{"right", call("right", S("hello"), I(3)), S("llo")},
		{"right: clamped", call("right", S("hi"), I(5)), S("hi")},
		{"replace", call("replace", S("hello"), S("l"), S("L")), S("heLLo")},
		{"replace: empty search", call("replace", S("ab"), S(""), S("-")), S("-a-b-")},
		{"replace: number", call("replace", S("a1"), I(1), S("b")), InvalidArgumentValue},
		{"split", call("split", S("a,b,,c"), S(",")), L(S("a"), S("b"), S(""), S("c"))},
		{"split: empty delimiter", call("split", S("ab"), S("")), L(S("a"), S("b"))},
		{"split: no delimiter", call("split", S("abc"), S(",")), L(S("abc"))},
	})
}

// TestRangeArgumentKinds checks that range raises an ArgumentError
// (InvalidArgumentType) for a bound or step that is not an Integer,
// whichever argument it is.
func TestRangeArgumentKinds(t *testing.T) {
	for _, args := range [][]Value{
		{T, I(4)}, {I(0), D(-0.0)}, {I(0), I(9), S("2")}, {L(I(1)), I(3)}, {I(1), I(3), M("by", I(1))},
	} {
		_, err := Call("range", args)
		e, ok := err.(*Error)
		if !ok || e.Category != ArgumentError || e.Detail != InvalidArgumentType {
			t.Errorf("range%v: got %v, want ArgumentError (InvalidArgumentType)", args, err)
		}
	}
}
