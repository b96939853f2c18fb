package tck

import (
	"fmt"
	"slices"
	"strings"
)

// row is one row of a result, as written and as read.
type row struct {
	text []string
	vals []Val
}

func (r row) String() string { return "| " + strings.Join(r.text, " | ") + " |" }

// CheckResult compares the result of a statement with the table of a
// "Then the result should be" step, whose first row is the header: the
// columns must be the header's, in its order; the rows must be the same
// multiset (or sequence, when inOrder), cells compared by Equal. It
// returns nil when they agree, else an error saying how they differ.
func CheckResult(got *Result, table [][]string, inOrder, listsUnordered bool) error {
	if !slices.Equal(got.Columns, table[0]) {
		return fmt.Errorf("columns %q, want %q", got.Columns, table[0])
	}
	want, err := readRows(table[1:], len(table[0]), "expected")
	if err != nil {
		return err
	}
	have, err := readRows(got.Rows, len(got.Columns), "result")
	if err != nil {
		return err
	}
	if inOrder {
		return compareInOrder(have, want, listsUnordered)
	}
	return compareAnyOrder(have, want, listsUnordered)
}

// CheckEmpty checks the result of a "Then the result should be empty"
// step: no rows (the columns do not matter).
func CheckEmpty(got *Result) error {
	if len(got.Rows) > 0 {
		return fmt.Errorf("got %d rows, want none; the first: | %s |", len(got.Rows), strings.Join(got.Rows[0], " | "))
	}
	return nil
}

// readRows parses the cells of rows, which must have width cells each.
func readRows(rows [][]string, width int, what string) ([]row, error) {
	out := make([]row, len(rows))
	for i, r := range rows {
		if len(r) != width {
			return nil, fmt.Errorf("%s row %d has %d cells for %d columns", what, i+1, len(r), width)
		}
		out[i].text = r
		for j, cell := range r {
			v, err := ParseValue(cell)
			if err != nil {
				return nil, fmt.Errorf("%s row %d, column %d: %w", what, i+1, j+1, err)
			}
			out[i].vals = append(out[i].vals, v)
		}
	}
	return out, nil
}

func sameRow(a, b row, listsUnordered bool) bool {
	return sameSequence(a.vals, b.vals, listsUnordered)
}
