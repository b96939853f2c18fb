package check

import (
	"slices"

	"github.com/gdi-go/gdi/cypher/parse"
)

// Config parameterises the checker.
type Config struct {
	// Functions are the known functions keyed by lower-case name; nil means
	// Builtins. A call of any other function is an UnknownFunction error.
	Functions map[string]Func
}

// Check checks q with the default Config.
func Check(q *parse.Query) (*Info, error) {
	return Config{}.Check(q)
}

// Check checks the semantics of q, which the parser accepted. It returns
// what it learnt for the planner, or the first semantic error as a
// *parse.Error of Kind parse.SyntaxError (or parse.TypeError) with the TCK
// detail in Detail.
func (cfg Config) Check(q *parse.Query) (info *Info, err error) {
	c := &checker{funcs: cfg.Functions}
	if c.funcs == nil {
		c.funcs = Builtins
	}
	defer recoverFailure(&err)
	return c.query(q), nil
}

// checker holds the state of one Check.
type checker struct {
	funcs map[string]Func
}

// query checks the single queries and how UNION joins them: all UNION or
// all UNION ALL, and the same column names in every part.
func (c *checker) query(q *parse.Query) *Info {
	for _, u := range q.Unions {
		if u.All != q.Unions[0].All {
			fail(u.Pos, DetailInvalidClauseComposition, "UNION and UNION ALL cannot be mixed")
		}
	}
	info := &Info{}
	for i, part := range q.Parts {
		pi, cols := c.singleQuery(part)
		info.Parts = append(info.Parts, pi)
		if i == 0 {
			info.Columns = cols
		} else if !sameNames(cols, info.Columns) {
			fail(q.Unions[i-1].Pos, DetailDifferentColumnsInUnion,
				"all parts of a UNION must return the same column names")
		}
	}
	return info
}

// sameNames reports whether a and b hold the same names, in any order.
func sameNames(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
