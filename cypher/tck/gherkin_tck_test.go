package tck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadTCK reads every feature of the TCK: the scenarios and outline
// rows must be those that a plain count of the files finds, every step
// must be recognised, and every cell of the expected results and the
// parameters must read in the value notation.
func TestReadTCK(t *testing.T) {
	dir := tckDir(t)
	features, err := ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	scs := Scenarios(features)
	plain, rows := countByLines(t, dir)
	var outlineRows int
	forms := map[Form]int{}
	for _, sc := range scs {
		if sc.Example > 0 {
			outlineRows++
		}
		for _, st := range sc.Steps {
			forms[st.Form]++
			checkStep(t, sc, st)
		}
	}
	if len(scs)-outlineRows != plain || outlineRows != rows {
		t.Errorf("read %d scenarios and %d outline rows, the files hold %d and %d", len(scs)-outlineRows, outlineRows, plain, rows)
	}
	if os.Getenv("GDI_TCK_FEATURES") == "" && (len(features) != 90 || len(scs) != 1380) {
		t.Errorf("the shared TCK subset has 90 features and 1380 scenarios to run, read %d and %d", len(features), len(scs))
	}
	t.Logf("%d features, %d scenarios to run (%d scenarios, %d outline rows); steps by form: %v",
		len(features), len(scs), len(scs)-outlineRows, outlineRows, forms)
}

// checkStep fails on a step the reader did not recognise, and on a cell of
// an expected result or a parameter that does not read.
func checkStep(t *testing.T, sc *Scenario, st Step) {
	t.Helper()
	switch st.Form {
	case FormUnknown:
		t.Errorf("%s: %s", sc.ID(), st.Problem)
	case FormResult:
		for _, r := range st.Table[1:] {
			for _, c := range r {
				if _, err := ParseValue(c); err != nil {
					t.Errorf("%s line %d: %v", sc.ID(), st.Line, err)
				}
			}
		}
	case FormParameters:
		if _, err := Params(st.Table); err != nil {
			t.Errorf("%s line %d: %v", sc.ID(), st.Line, err)
		}
	case FormSideEffects:
		if _, err := ExpectedSideEffects(st.Table); err != nil {
			t.Errorf("%s line %d: %v", sc.ID(), st.Line, err)
		}
	}
}

// countByLines counts, independently of the reader, the plain scenarios
// and the Examples rows of the feature files under dir.
func countByLines(t *testing.T, dir string) (plain, rows int) {
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".feature") {
			return err
		}
		data, err := os.ReadFile(p)
		inExamples, header := false, false
		for _, l := range strings.Split(string(data), "\n") {
			l = strings.TrimSpace(l)
			switch {
			case strings.HasPrefix(l, "Scenario:"):
				plain++
				inExamples = false
			case strings.HasPrefix(l, "Scenario Outline:"), strings.HasPrefix(l, "@"):
				inExamples = false
			case strings.HasPrefix(l, "Examples:"):
				inExamples, header = true, false
			case inExamples && strings.HasPrefix(l, "|") && header:
				rows++
			case inExamples && strings.HasPrefix(l, "|"):
				header = true
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return plain, rows
}
