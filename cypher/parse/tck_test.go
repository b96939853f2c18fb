package parse

import (
	"os"
	"testing"

	"github.com/gdi-go/gdi/cypher/tck"
)

// tckDefaultDir is where the openCypher TCK is read in place, in the shared
// test data; GDI_TCK_FEATURES names another directory.
const tckDefaultDir = "../../../shared/testdata/opencypher-tck/features"

// tckQueries reads the statements of the TCK, or skips.
func tckQueries(tb testing.TB) []tck.Query {
	dir := tck.FeaturesDir(tckDefaultDir)
	if _, err := os.Stat(dir); err != nil {
		tb.Skipf("TCK features not available: %v", err)
	}
	qs, err := tck.Queries(dir)
	if err != nil {
		tb.Fatal(err)
	}
	return qs
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
	qs := tckQueries(t)
	var parsed, found, sameDetail, leftToChecker, setup int
	unsupported := tck.Tally{}
	semantic := tck.Tally{}
	for _, q := range qs {
		res, err, panicked := safeParse(q.Text)
		if panicked {
			t.Errorf("%s: Parse panicked: %v\n%s", q.Where, err, q.Text)
			continue
		}
		if q.Setup {
			setup++
		}
		var pe *Error
		if err != nil {
			pe = asError(t, err)
		}
		switch {
		case q.Want != "" && pe != nil && pe.Kind == SyntaxError:
			found++
			if pe.Detail == q.Want {
				sameDetail++
			}
		case q.Want != "" && pe == nil:
			if syntacticDetails[q.Want] {
				t.Errorf("%s: expected SyntaxError %s, but the query parsed:\n%s", q.Where, q.Want, q.Text)
			}
			leftToChecker++
			semantic[q.Want]++
		case pe != nil && pe.Kind == NotSupported:
			unsupported[pe.Construct]++
		case pe != nil:
			t.Errorf("%s: %v\n%s", q.Where, err, q.Text)
		default:
			parsed++
		}
		if res != nil {
			if msg := checkRoundTrip(res); msg != "" {
				t.Errorf("%s: %s", q.Where, msg)
			}
		}
	}
	t.Logf("TCK: %d queries (%d scenario queries, %d setup queries): parsed %d, not supported %d %s, syntax errors expected and found %d (same TCK detail: %d), expected but left to later stages %d %s",
		len(qs), len(qs)-setup, setup, parsed, unsupported.Total(), unsupported, found, sameDetail, leftToChecker, semantic)
}
