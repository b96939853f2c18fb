package check

import (
	"errors"
	"os"
	"testing"

	"github.com/gdi-go/gdi/cypher/parse"
	"github.com/gdi-go/gdi/cypher/tck"
)

// syntacticDetails are the TCK details the parser reports itself.
var syntacticDetails = map[string]bool{
	parse.DetailUnexpectedSyntax: true, parse.DetailInvalidNumberLiteral: true,
	parse.DetailInvalidUnicodeLiteral: true, parse.DetailIntegerOverflow: true,
	parse.DetailFloatingPointOverflow: true, parse.DetailInvalidRelationshipPattern: true,
}

// minCaught is the share of the TCK's semantic error scenarios that Check
// must reject.
const minCaught = 0.90

// tckTally counts the outcomes of TestTCK.
type tckTally struct {
	valid, expected, caught, exact int
	missed, wrong                  tck.Tally
}

// TestTCK runs Parse and Check on every query of the TCK that parses: a
// query whose scenario expects a semantic compile-time SyntaxError or
// TypeError must be rejected (ideally with the same category and detail);
// every other query — expected to
// give results, side effects or a run-time error, and the setup queries —
// must be accepted. A rejected valid query fails the test, and so does
// catching fewer than minCaught of the expected errors.
func TestTCK(t *testing.T) {
	tl := tckTally{missed: tck.Tally{}, wrong: tck.Tally{}}
	dir := tck.FeaturesDir("../../../shared/testdata/opencypher-tck/features")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("TCK features not available: %v", err)
	}
	qs, err := tck.Queries(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range qs {
		tl.add(t, q)
	}
	t.Logf("TCK: accepted valid %d; semantic errors expected %d, rejected %d (%.1f%%), same detail %d; missed %s; other detail %s",
		tl.valid, tl.expected, tl.caught, 100*float64(tl.caught)/float64(max(tl.expected, 1)), tl.exact,
		tl.missed, tl.wrong)
	if float64(tl.caught) < minCaught*float64(tl.expected) {
		t.Errorf("caught %d of %d semantic errors, want at least %.0f%%", tl.caught, tl.expected, 100*minCaught)
	}
}

// add checks one query and counts the outcome.
func (tl *tckTally) add(t *testing.T, q tck.Query) {
	pq, err := parse.Parse(q.Text)
	if err != nil || syntacticDetails[q.Want] {
		return // the parser's business
	}
	_, err = Check(pq)
	var pe *parse.Error
	if err != nil && (!errors.As(err, &pe) || !checkKinds[pe.Kind] || pe.Detail == "") {
		t.Errorf("%s: Check returned a malformed error %#v", q.Where, err)
		return
	}
	switch {
	case q.Want == "" && err != nil:
		t.Errorf("%s: valid query rejected: %v (%s)\n%s", q.Where, err, pe.Detail, q.Text)
	case q.Want == "":
		tl.valid++
	case err == nil:
		tl.expected++
		tl.missed[q.Want]++
		t.Logf("%s: missed %s:\n%s", q.Where, q.Want, q.Text)
	default:
		tl.expected++
		tl.caught++
		if pe.Detail == q.Want && pe.Kind.String() == q.WantCategory {
			tl.exact++
		} else {
			tl.wrong[q.WantCategory+" "+q.Want+"→"+pe.Kind.String()+" "+pe.Detail]++
		}
	}
}
