package check

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/gdi-go/gdi/cypher/parse"
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
	missed, wrong                  map[string]int
}

// TestTCK runs Parse and Check on every query of the TCK that parses: a
// query whose scenario expects a semantic compile-time SyntaxError must be
// rejected (ideally with the same detail); every other query — expected to
// give results, side effects or a run-time error, and the setup queries —
// must be accepted. A rejected valid query fails the test, and so does
// catching fewer than minCaught of the expected errors.
func TestTCK(t *testing.T) {
	tl := tckTally{missed: map[string]int{}, wrong: map[string]int{}}
	for _, q := range readTCK(t, tckDir(t)) {
		tl.add(t, q)
	}
	t.Logf("TCK: accepted valid %d; semantic errors expected %d, rejected %d (%.1f%%), same detail %d; missed %s; other detail %s",
		tl.valid, tl.expected, tl.caught, 100*float64(tl.caught)/float64(max(tl.expected, 1)), tl.exact,
		formatCounts(tl.missed), formatCounts(tl.wrong))
	if float64(tl.caught) < minCaught*float64(tl.expected) {
		t.Errorf("caught %d of %d semantic errors, want at least %.0f%%", tl.caught, tl.expected, 100*minCaught)
	}
}

// add checks one query and counts the outcome.
func (tl *tckTally) add(t *testing.T, q tckQuery) {
	pq, err := parse.Parse(q.text)
	if err != nil || syntacticDetails[q.want] {
		return // the parser's business
	}
	_, err = Check(pq)
	var pe *parse.Error
	if err != nil && (!errors.As(err, &pe) || pe.Kind != parse.SyntaxError || pe.Detail == "") {
		t.Errorf("%s: Check returned a malformed error %#v", q.where, err)
		return
	}
	switch {
	case q.want == "" && err != nil:
		t.Errorf("%s: valid query rejected: %v (%s)\n%s", q.where, err, pe.Detail, q.text)
	case q.want == "":
		tl.valid++
	case err == nil:
		tl.expected++
		tl.missed[q.want]++
		t.Logf("%s: missed %s:\n%s", q.where, q.want, q.text)
	default:
		tl.expected++
		tl.caught++
		if pe.Detail == q.want {
			tl.exact++
		} else {
			tl.wrong[q.want+"→"+pe.Detail]++
		}
	}
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
