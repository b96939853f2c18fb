package check

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The openCypher TCK features are read in place from the shared test data;
// GDI_TCK_FEATURES names another directory to read instead.
const defaultTCKDir = "../../../shared/testdata/opencypher-tck/features"

// tckDir returns the TCK directory, or skips the test when it is missing.
func tckDir(tb testing.TB) string {
	dir := os.Getenv("GDI_TCK_FEATURES")
	if dir == "" {
		dir = defaultTCKDir
	}
	if _, err := os.Stat(dir); err != nil {
		tb.Skipf("TCK features not available: %v", err)
	}
	return dir
}

// tckQuery is one query of a TCK scenario, with the outline's example row
// substituted.
type tckQuery struct {
	where string // file:line of the doc string, and the example row
	text  string
	// want is, for the scenario's main query, the detail of the expected
	// compile-time SyntaxError; "" when the query must be accepted.
	want string
}

// readTCK reads the queries of all .feature files under dir.
func readTCK(tb testing.TB, dir string) []tckQuery {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".feature") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	sort.Strings(files)
	var qs []tckQuery
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		qs = append(qs, readFeature(filepath.Base(f), string(data))...)
	}
	if len(qs) == 0 {
		tb.Fatalf("no TCK queries found under %s", dir)
	}
	return qs
}

// scenario collects one Scenario or Scenario Outline.
type scenario struct {
	queries  []tckQuery
	setup    []bool // per query: from "having executed:"
	want     string
	header   []string
	examples [][]string
}

const syntaxErrorStep = "Then a SyntaxError should be raised at compile time:"

// readFeature extracts the doc strings after "executing query:",
// "executing control query:" and "having executed:" of a Gherkin feature,
// expanding Scenario Outlines with each row of their Examples.
func readFeature(name, text string) []tckQuery {
	var out []tckQuery
	var sc *scenario
	lines := strings.Split(text, "\n")
	lastStep, inExamples := "", false
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		switch {
		case line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "@"):
		case strings.HasPrefix(line, "Scenario"):
			out = append(out, sc.expand()...)
			sc, inExamples = &scenario{}, false
		case sc == nil:
		case strings.HasPrefix(line, `"""`):
			var body string
			body, i = docString(lines, i)
			if q, setup, ok := stepQuery(lastStep); ok {
				q.where, q.text = fmt.Sprintf("%s:%d", name, i), body
				sc.queries, sc.setup = append(sc.queries, q), append(sc.setup, setup)
			}
		case strings.HasPrefix(line, "Examples:"):
			inExamples, sc.header = true, nil
		case strings.HasPrefix(line, "|"):
			if inExamples && sc.header == nil {
				sc.header = tableCells(line)
			} else if inExamples {
				sc.examples = append(sc.examples, tableCells(line))
			}
		default:
			lastStep = line
			if strings.HasPrefix(line, syntaxErrorStep) {
				sc.want = strings.TrimSpace(strings.TrimPrefix(line, syntaxErrorStep))
			}
		}
	}
	return append(out, sc.expand()...)
}

// stepQuery tells whether the doc string after step is a query, and whether
// it is a setup query.
func stepQuery(step string) (q tckQuery, setup, ok bool) {
	switch {
	case strings.HasSuffix(step, "having executed:"):
		return q, true, true
	case strings.HasSuffix(step, "executing query:"), strings.HasSuffix(step, "executing control query:"):
		return q, false, true
	}
	return q, false, false
}

// docString reads the doc string opening at lines[i], removing its
// indentation, and returns it with the index of its closing line.
func docString(lines []string, i int) (string, int) {
	indent := strings.Index(lines[i], `"""`)
	var body []string
	for i++; i < len(lines) && strings.TrimSpace(lines[i]) != `"""`; i++ {
		l := lines[i]
		if len(l) >= indent && strings.TrimSpace(l[:indent]) == "" {
			l = l[indent:]
		}
		body = append(body, l)
	}
	return strings.Join(body, "\n"), i
}

// expand returns the scenario's queries, once per example row; the
// expected error applies to its non-setup queries.
func (sc *scenario) expand() []tckQuery {
	if sc == nil {
		return nil
	}
	rows := sc.examples
	if len(rows) == 0 {
		rows = [][]string{nil}
	}
	var out []tckQuery
	for r, row := range rows {
		for i, q := range sc.queries {
			if !sc.setup[i] {
				q.want = sc.want
			}
			for c, h := range sc.header {
				if c < len(row) {
					q.text = strings.ReplaceAll(q.text, "<"+h+">", row[c])
				}
			}
			if row != nil {
				q.where = fmt.Sprintf("%s (example %d)", q.where, r+1)
			}
			out = append(out, q)
		}
	}
	return out
}

// tableCells splits a Gherkin table row, honouring the escapes \|, \\ and \n.
func tableCells(line string) []string {
	var cells []string
	var cur strings.Builder
	for i := 1; i < len(line); i++ {
		switch ch := line[i]; {
		case ch == '\\' && i+1 < len(line):
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
		case ch == '|':
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(ch)
		}
	}
	return cells
}

// TestReadFeature checks the Gherkin reading on a small feature.
func TestReadFeature(t *testing.T) {
	qs := readFeature("x.feature", `Feature: X
  Scenario: [1] plain
    Given an empty graph
    And having executed:
      """
      CREATE ()
      """
    When executing query:
      """
      MATCH (n)
        RETURN n
      """
    Then the result should be, in any order:
      | n  |
      | () |

  Scenario Outline: [2] outline
    Given an empty graph
    And having executed:
      """
      CREATE (<a>)
      """
    When executing query:
      """
      RETURN <a> AS x
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

    Examples:
      | a      |
      | 1      |
      | 'a\|b' |
`)
	want := []tckQuery{
		{text: "CREATE ()"},
		{text: "MATCH (n)\n  RETURN n"},
		{text: "CREATE (1)"},
		{text: "RETURN 1 AS x", want: "InvalidArgumentType"},
		{text: "CREATE ('a|b')"},
		{text: "RETURN 'a|b' AS x", want: "InvalidArgumentType"},
	}
	if len(qs) != len(want) {
		t.Fatalf("got %d queries: %+v", len(qs), qs)
	}
	for i := range want {
		if qs[i].text != want[i].text || qs[i].want != want[i].want {
			t.Errorf("query %d = %+v, want %+v", i, qs[i], want[i])
		}
	}
}
