package cypher

import (
	"strings"

	"github.com/gdi-go/gdi/cypher/value"
)

// explainResult returns the plan as a one-column result, "plan", a line
// per operator in pipeline order; the operators of an OPTIONAL MATCH are
// indented under Optional, the parts of a UNION follow each other under a
// Union line, and Gather marks where the rows of every rank's share go to
// rank 0 (collective.go).
func explainResult(pl *plan) *Result {
	var lines []string
	for i, part := range pl.parts {
		if i > 0 {
			if pl.union {
				lines = append(lines, "Union")
			} else {
				lines = append(lines, "Union all")
			}
		}
		if c := pl.collective; c != nil {
			lines = explainOps(lines, c.head, "")
			lines = append(lines, "Gather")
			lines = explainOps(lines, c.tail, "")
			continue
		}
		lines = explainOps(lines, part.ops, "")
	}
	res := &Result{Columns: []string{"plan"}, Plan: lines}
	for _, l := range lines {
		res.Rows = append(res.Rows, []value.Value{value.Str(l)})
	}
	return res
}

func explainOps(lines []string, ops []operator, indent string) []string {
	for _, op := range ops {
		text := op.explain()
		if text == "" {
			continue
		}
		lines = append(lines, indent+text)
		if o, ok := op.(*optionalOp); ok {
			lines = explainOps(lines, o.inner, indent+"  ")
		}
	}
	return lines
}

// Explain returns the EXPLAIN lines of a result of an EXPLAIN statement.
func (r *Result) Explain() string {
	var b strings.Builder
	for _, row := range r.Rows {
		b.WriteString(row[0].Str())
		b.WriteByte('\n')
	}
	return b.String()
}
