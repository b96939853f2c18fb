package parse

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

func tckDir(tb testing.TB) string {
	dir, err := findTCKDir()
	if err != nil {
		tb.Skipf("TCK features not available: %v", err)
	}
	return dir
}

func findTCKDir() (string, error) {
	dir := os.Getenv("GDI_TCK_FEATURES")
	if dir == "" {
		dir = defaultTCKDir
	}
	_, err := os.Stat(dir)
	return dir, err
}

// tckQuery is one query of a TCK scenario, with the outline's example row
// substituted.
type tckQuery struct {
	where string // file:line of the doc string, and the example row
	text  string
	setup bool   // from "having executed:" rather than "executing query:"
	want  string // for the scenario's main query: the detail of an expected compile-time SyntaxError
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
		qs = append(qs, readFeature(tb, f)...)
	}
	if len(qs) == 0 {
		tb.Fatalf("no TCK queries found under %s", dir)
	}
	return qs
}

// scenario is what readFeature collects for one Scenario or Scenario Outline.
type scenario struct {
	queries  []tckQuery
	want     string
	header   []string   // Examples header
	examples [][]string // Examples rows
}

// readFeature extracts the queries of a Gherkin feature file: the doc
// strings after "executing query:", "executing control query:" and "having
// executed:", with Scenario Outline placeholders <name> replaced by each row
// of the Examples tables.
func readFeature(tb testing.TB, path string) []tckQuery {
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var out []tckQuery
	var sc *scenario
	flush := func() {
		if sc == nil {
			return
		}
		out = append(out, sc.expand()...)
		sc = nil
	}
	lines := strings.Split(string(data), "\n")
	rel := filepath.Base(path)
	lastStep, inExamples := "", false
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		switch {
		case line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "@"):
		case strings.HasPrefix(line, "Scenario:"), strings.HasPrefix(line, "Scenario Outline:"):
			flush()
			sc, inExamples = &scenario{}, false
		case sc == nil:
		case strings.HasPrefix(line, `"""`):
			indent := strings.Index(lines[i], `"""`)
			start := i + 1
			var body []string
			for i++; i < len(lines) && strings.TrimSpace(lines[i]) != `"""`; i++ {
				l := lines[i]
				if len(l) >= indent && strings.TrimSpace(l[:indent]) == "" {
					l = l[indent:]
				}
				body = append(body, l)
			}
			q := tckQuery{where: fmt.Sprintf("%s:%d", rel, start), text: strings.Join(body, "\n")}
			switch {
			case strings.HasSuffix(lastStep, "having executed:"):
				q.setup = true
			case strings.HasSuffix(lastStep, "executing query:"), strings.HasSuffix(lastStep, "executing control query:"):
			default:
				continue // some other doc string
			}
			sc.queries = append(sc.queries, q)
		case strings.HasPrefix(line, "Examples:"):
			inExamples, sc.header = true, nil
		case strings.HasPrefix(line, "|"):
			if !inExamples {
				continue // a result or parameter table
			}
			cells := tableCells(line)
			if sc.header == nil {
				sc.header = cells
			} else {
				sc.examples = append(sc.examples, cells)
			}
		default:
			lastStep = line
			const syntaxErr = "Then a SyntaxError should be raised at compile time:"
			if strings.HasPrefix(line, syntaxErr) {
				sc.want = strings.TrimSpace(strings.TrimPrefix(line, syntaxErr))
			}
		}
	}
	flush()
	return out
}

// expand returns the scenario's queries, once per example row.
func (sc *scenario) expand() []tckQuery {
	finish := func(q tckQuery) tckQuery {
		if !q.setup {
			q.want = sc.want
		}
		return q
	}
	var out []tckQuery
	if len(sc.examples) == 0 {
		for _, q := range sc.queries {
			out = append(out, finish(q))
		}
		return out
	}
	for r, row := range sc.examples {
		for _, q := range sc.queries {
			q = finish(q)
			for c, h := range sc.header {
				if c < len(row) {
					q.text = strings.ReplaceAll(q.text, "<"+h+">", row[c])
				}
			}
			q.where = fmt.Sprintf("%s (example %d)", q.where, r+1)
			out = append(out, q)
		}
	}
	return out
}

// tableCells splits a Gherkin table row, honouring the escapes \|, \\ and \n.
func tableCells(line string) []string {
	var cells []string
	var cur strings.Builder
	line = strings.TrimSpace(line)
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

// syntacticDetails are the TCK error details that the parser itself must
// detect; the others (VariableAlreadyBound, UndefinedVariable, …) are
// semantic and left to the checker.
var syntacticDetails = map[string]bool{
	DetailUnexpectedSyntax: true, DetailInvalidNumberLiteral: true, DetailInvalidUnicodeLiteral: true,
	DetailIntegerOverflow: true, DetailFloatingPointOverflow: true, DetailInvalidRelationshipPattern: true,
}

// TestTCK parses every query of the TCK subset: queries expected to fail at
// compile time with a SyntaxError must give an error (or, for a semantic
// error, are counted as left to the checker); all others must parse or be
// reported NotSupported; every parsed query must round-trip through its
// canonical form.
func TestTCK(t *testing.T) {
	qs := readTCK(t, tckDir(t))
	var parsed, found, sameDetail, leftToChecker, setup int
	unsupported := map[string]int{}
	semantic := map[string]int{}
	for _, q := range qs {
		res, err, panicked := safeParse(q.text)
		if panicked {
			t.Errorf("%s: Parse panicked: %v\n%s", q.where, err, q.text)
			continue
		}
		if q.setup {
			setup++
		}
		var pe *Error
		if err != nil {
			pe = asError(t, err)
		}
		switch {
		case q.want != "" && pe != nil && pe.Kind == SyntaxError:
			found++
			if pe.Detail == q.want {
				sameDetail++
			}
		case q.want != "" && pe == nil:
			if syntacticDetails[q.want] {
				t.Errorf("%s: expected SyntaxError %s, but the query parsed:\n%s", q.where, q.want, q.text)
			}
			leftToChecker++
			semantic[q.want]++
		case pe != nil && pe.Kind == NotSupported:
			unsupported[pe.Construct]++
		case pe != nil:
			t.Errorf("%s: %v\n%s", q.where, err, q.text)
		default:
			parsed++
		}
		if res != nil {
			if msg := checkRoundTrip(res); msg != "" {
				t.Errorf("%s: %s", q.where, msg)
			}
		}
	}
	t.Logf("TCK: %d queries (%d scenario queries, %d setup queries): parsed %d, not supported %d %s, syntax errors expected and found %d (same TCK detail: %d), expected but left to later stages %d %s",
		len(qs), len(qs)-setup, setup, parsed, sum(unsupported), formatCounts(unsupported), found, sameDetail, leftToChecker, formatCounts(semantic))
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

func formatCounts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s: %d", k, m[k])
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// TestReadFeature checks the Gherkin reading on a small feature.
func TestReadFeature(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "x.feature")
	err := os.WriteFile(f, []byte(`Feature: X
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
    When executing query:
      """
      RETURN <a> AS x
      """
    Then a SyntaxError should be raised at compile time: InvalidArgumentType

    Examples:
      | a      |
      | 1      |
      | 'a\|b' |
`), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	qs := readFeature(t, f)
	want := []tckQuery{
		{text: "CREATE ()", setup: true},
		{text: "MATCH (n)\n  RETURN n"},
		{text: "RETURN 1 AS x", want: "InvalidArgumentType"},
		{text: "RETURN 'a|b' AS x", want: "InvalidArgumentType"},
	}
	if len(qs) != len(want) {
		t.Fatalf("got %d queries: %+v", len(qs), qs)
	}
	for i := range want {
		if qs[i].text != want[i].text || qs[i].setup != want[i].setup || qs[i].want != want[i].want {
			t.Errorf("query %d = %+v, want %+v", i, qs[i], want[i])
		}
	}
}
