package cypher

import (
	"github.com/gdi-go/gdi/cypher/value"
)

// runOps runs a pipeline on rows.
func runOps(x *execution, ops []operator, rows []row) ([]row, error) {
	for _, op := range ops {
		if err := x.ctx.Err(); err != nil {
			return nil, err
		}
		var err error
		if rows, err = op.run(x, rows); err != nil {
			return nil, err
		}
	}
	return rows, nil
}

// filterOp keeps the rows whose predicate is true (not false, not null).
type filterOp struct {
	pred expr
	text string
}

func (o *filterOp) run(x *execution, in []row) ([]row, error) {
	out := in[:0:0]
	for _, r := range in {
		v, err := o.pred(x, r)
		if err != nil {
			return nil, err
		}
		if v.IsTrue() {
			out = append(out, r)
		}
	}
	return out, nil
}

func (o *filterOp) explain() string { return "Filter " + o.text }

// unwindOp makes a row per element of a list; null gives none and any
// other value one row holding it.
type unwindOp struct {
	list expr
	slot int
	text string
}

func (o *unwindOp) run(x *execution, in []row) ([]row, error) {
	var out []row
	for _, r := range in {
		v, err := o.list(x, r)
		if err != nil {
			return nil, err
		}
		elems := []value.Value{v}
		switch {
		case v.IsNull():
			elems = nil
		case v.Kind() == value.KindList:
			elems = v.List()
		}
		for _, e := range elems {
			rr := append(row(nil), r...)
			rr[o.slot] = e
			out = append(out, rr)
		}
	}
	return out, nil
}

func (o *unwindOp) explain() string { return "Unwind " + o.text }

// optionalOp runs its pipeline on each row alone, and passes the row on
// with the pattern's new variables null when the pipeline gives nothing.
type optionalOp struct {
	inner []operator
}

func (o *optionalOp) run(x *execution, in []row) ([]row, error) {
	var out []row
	for _, r := range in {
		rs, err := runOps(x, o.inner, []row{append(row(nil), r...)}) // r goes on if they give nothing
		if err != nil {
			return nil, err
		}
		if len(rs) == 0 {
			rs = []row{r}
		}
		out = append(out, rs...)
	}
	return out, nil
}

func (o *optionalOp) explain() string { return "Optional" }
