package cypher

import (
	"encoding/binary"
	"slices"
	"strings"

	"github.com/gdi-go/gdi/cypher/value"
)

// projectOp writes the items' values into the columns' slots; the items
// are all evaluated before any is written. It writes into the rows it is
// given: an operator owns the rows it gets, as every operator that emits
// a row emits a row of its own or one it was given, once.
type projectOp struct {
	items []expr
	cols  []int
	names []string
}

func (o *projectOp) run(x *execution, in []row) ([]row, error) {
	vs := make([]value.Value, len(o.items))
	for _, r := range in {
		for j, f := range o.items {
			v, err := f(x, r)
			if err != nil {
				return nil, err
			}
			vs[j] = v
		}
		for j, s := range o.cols {
			r[s] = vs[j]
		}
	}
	return in, nil
}

func (o *projectOp) explain() string { return "Project " + strings.Join(o.names, ", ") }

// cutOp keeps the columns of a projection and clears every other slot.
type cutOp struct{ cols []int }

func (o *cutOp) run(x *execution, in []row) ([]row, error) {
	keep := make([]bool, x.width)
	for _, s := range o.cols {
		keep[s] = true
	}
	for _, r := range in {
		for s := range r {
			if s >= len(keep) || !keep[s] {
				r[s] = value.Null
			}
		}
	}
	return in, nil
}

func (o *cutOp) explain() string { return "" }

// rowKey is the grouping key of the values of slots: equivalent values
// give equal keys.
func rowKey(r row, slots []int) string {
	var b []byte
	for _, s := range slots {
		k := value.AppendKey(nil, r[s])
		b = binary.AppendUvarint(b, uint64(len(k)))
		b = append(b, k...)
	}
	return string(b)
}

// distinctOp keeps the first row of each set of rows with equivalent
// columns.
type distinctOp struct{ cols []int }

func (o *distinctOp) run(_ *execution, in []row) ([]row, error) {
	seen := map[string]bool{}
	var out []row
	for _, r := range in {
		k := rowKey(r, o.cols)
		if !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	return out, nil
}

func (o *distinctOp) explain() string { return "Distinct" }

// sortOp orders rows by its keys, stably.
type sortOp struct {
	keys []expr
	desc []bool
	text string
}

func (o *sortOp) run(x *execution, in []row) ([]row, error) {
	type keyed struct {
		r  row
		ks []value.Value
	}
	rows := make([]keyed, len(in))
	for i, r := range in {
		ks, err := evalAll(x, r, o.keys)
		if err != nil {
			return nil, err
		}
		rows[i] = keyed{r, ks}
	}
	slices.SortStableFunc(rows, func(a, b keyed) int {
		for i := range o.keys {
			c := value.Compare(a.ks[i], b.ks[i])
			if o.desc[i] {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return 0
	})
	out := make([]row, len(rows))
	for i, k := range rows {
		out[i] = k.r
	}
	return out, nil
}

func (o *sortOp) explain() string { return "Sort " + o.text }

// sliceOp is SKIP n or LIMIT n.
type sliceOp struct {
	n    expr
	skip bool
	text string
}

func (o *sliceOp) run(x *execution, in []row) ([]row, error) {
	v, err := o.n(x, nil)
	if err != nil {
		return nil, err
	}
	what := "LIMIT"
	if o.skip {
		what = "SKIP"
	}
	if v.Kind() != value.KindInteger {
		if v.Kind() == value.KindFloat && v.Float() == float64(int64(v.Float())) && v.Float() >= 0 {
			v = value.Int(int64(v.Float()))
		} else {
			return nil, cypherError(catSyntaxError, "InvalidArgumentType", "%s needs a non-negative integer, not %v", what, v)
		}
	}
	n := v.Int()
	if n < 0 {
		return nil, cypherError(catSyntaxError, "NegativeIntegerArgument", "%s needs a non-negative integer, not %d", what, n)
	}
	if n > int64(len(in)) {
		n = int64(len(in))
	}
	if o.skip {
		return in[n:], nil
	}
	return in[:n], nil
}

func (o *sliceOp) explain() string {
	if o.skip {
		return "Skip " + o.text
	}
	return "Limit " + o.text
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}
