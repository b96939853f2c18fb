package conformance

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCoverage checks that every routine of SPEC.md's table whose Go
// counterpart is a method or function of package gdi is exercised by the
// suite: its name appears as a call in the suite's source. Pure functions
// of package gdi (tested in gdi itself) count when the suite calls them
// too, and must otherwise be listed in pureTested.
func TestCoverage(t *testing.T) {
	spec, err := os.ReadFile("../SPEC.md")
	if err != nil {
		t.Fatal(err)
	}
	src := suiteSource(t)
	row := regexp.MustCompile("(?m)^\\| (GDI_\\w+) \\| ([^|]+) \\|")
	rows := row.FindAllStringSubmatch(string(spec), -1)
	if len(rows) != 106 {
		t.Errorf("SPEC.md maps %d routines, want 106", len(rows))
	}
	for _, r := range rows {
		routine, ident := r[1], strings.TrimSpace(r[2])
		if ident == "none" {
			continue
		}
		name := ident[strings.LastIndex(ident, ".")+1:]
		if pureTested[ident] {
			continue
		}
		call := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\(`)
		if strings.Count(ident, ".") == 1 {
			// A function of package gdi: gdi.Name(
			call = regexp.MustCompile(`\bgdi\.` + regexp.QuoteMeta(name) + `\(`)
		}
		if !call.MatchString(src) {
			t.Errorf("%s (%s): no case calls %s", routine, ident, name)
		}
	}
}

// pureTested lists pure functions of package gdi that the suite need not
// call: they involve no backend and package gdi tests them.
var pureTested = map[string]bool{
	"gdi.Code.Error":     true,
	"gdi.ErrorClass":     true,
	"gdi.Date.Parts":     true,
	"gdi.Datetime.Parts": true,
	"gdi.Time.Parts":     true,
	"gdi.Decimal.String": true,
	"gdi.Datatype.Size":  true,
}

// suiteSource is the source of the suite's case files (tests excluded).
func suiteSource(t *testing.T) string {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
	}
	return b.String()
}

// TestCaseNames checks that case names are unique and of the form
// "Area/rule".
func TestCaseNames(t *testing.T) {
	seen := map[string]bool{}
	name := regexp.MustCompile(`^[A-Z][A-Za-z]+/[a-z0-9][a-z0-9-]*$`)
	for _, c := range Cases {
		if !name.MatchString(c.Name) {
			t.Errorf("case name %q is not Area/rule", c.Name)
		}
		if seen[c.Name] {
			t.Errorf("duplicate case %q", c.Name)
		}
		seen[c.Name] = true
	}
}
