package tck

import (
	"errors"
	"strings"
)

// steps returns the step list being filled: the Background's or the
// current scenario's.
func (r *reader) steps() *[]Step {
	switch {
	case r.inBack:
		return &r.background
	case r.cur != nil:
		return &r.cur.steps
	}
	return nil
}

func (r *reader) step(kw, text string) error {
	steps := r.steps()
	if steps == nil || r.inExamples {
		return errors.New("step outside a scenario")
	}
	*steps = append(*steps, Step{Line: r.i + 1, Keyword: kw, Text: text})
	return nil
}

// lastStep returns the step that a table or doc string belongs to.
func (r *reader) lastStep() (*Step, error) {
	steps := r.steps()
	if steps == nil || len(*steps) == 0 {
		return nil, errors.New("table or doc string without a step")
	}
	return &(*steps)[len(*steps)-1], nil
}

func (r *reader) tableRow(l string) error {
	cells := tableCells(l)
	if r.inExamples {
		ex := &r.cur.examples[len(r.cur.examples)-1]
		if ex.header == nil {
			ex.header = cells
			return nil
		}
		ex.rows, ex.lines = append(ex.rows, cells), append(ex.lines, r.i+1)
		return nil
	}
	st, err := r.lastStep()
	if err != nil {
		return err
	}
	st.Table = append(st.Table, cells)
	return nil
}

// docString reads the doc string that opens at line r.i, removing the
// indentation of its fence from each line, and leaves r.i on its closing
// fence.
func (r *reader) docString() error {
	st, err := r.lastStep()
	if err != nil {
		return err
	}
	if st.HasDoc || st.Table != nil {
		return errors.New("second argument to a step")
	}
	open := r.lines[r.i]
	indent := len(open) - len(strings.TrimLeft(open, " \t"))
	fence := strings.TrimSpace(open)[:3]
	var body []string
	for r.i++; r.i < len(r.lines); r.i++ {
		l := strings.TrimRight(r.lines[r.i], "\r")
		if strings.TrimSpace(l) == fence {
			st.Doc, st.HasDoc = strings.Join(body, "\n"), true
			return nil
		}
		if len(l) >= indent && strings.TrimSpace(l[:indent]) == "" {
			l = l[indent:]
		}
		body = append(body, l)
	}
	return errors.New("unterminated doc string")
}

// tableCells splits a table row into its trimmed cells, honouring the
// escapes \|, \\ and \n; another backslash is kept as it is.
func tableCells(line string) []string {
	line = strings.TrimSpace(line)
	var cells []string
	var cur strings.Builder
	for i := 1; i < len(line); i++ {
		switch c := line[i]; {
		case c == '\\' && i+1 < len(line):
			i++
			switch line[i] {
			case 'n':
				cur.WriteByte('\n')
			case '|', '\\':
				cur.WriteByte(line[i])
			default:
				cur.WriteByte('\\')
				cur.WriteByte(line[i])
			}
		case c == '|':
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	return cells
}

// finish ends the scenario being read, adding it (expanded) to the
// feature.
func (r *reader) finish() error {
	t := r.cur
	r.cur, r.inExamples = nil, false
	if t == nil {
		return nil
	}
	scs, err := t.expand(r.feat, r.background)
	if err != nil {
		return err
	}
	r.feat.Scenarios = append(r.feat.Scenarios, scs...)
	return nil
}
