package tck

import (
	"reflect"
	"strings"
	"testing"
)

const sampleFeature = "# comment\r\n" + `@featuretag
Feature: Sample
  A description of the feature,
  on two lines.

  Background:
    Given an empty graph

  @ignore
  Scenario: [1] Plain
    And having executed:
      """
      CREATE (:A)
        -[:T]->()
      """
    # a comment between steps
    When executing query:
      """
      MATCH (n) RETURN n
      """
    Then the result should be, in any order:
      | n      | 'a\|b' |
      | (:A)   | 'x\\y' |
    And no side effects

  Scenario Outline: [2] Outline <v>
    And parameters are:
      | p | <v> |
    When executing query:
      """
      RETURN <v> AS x, $p AS y
      """
    Then a <cat> should be raised at runtime: <detail>

    Examples:
      | v   | cat       | detail               |
      | 1   | TypeError | InvalidArgumentValue |
      | 'a' | TypeError | InvalidArgumentType  |

    @moretag
    Examples:
      | v    | cat         | detail |
      | null | SyntaxError |        |

  Scenario: Unnumbered
    Given any graph
    When executing query:
      """
      RETURN 1
      """
    Then the result should be empty
    And the side effects should be:
      | +nodes | 1 |
`

// TestParseFeature reads a feature with each Gherkin construct the reader
// knows: the scenarios, their numbering, tags, Background, doc strings,
// table escapes and outline substitution.
func TestParseFeature(t *testing.T) {
	f, err := ParseFeature("clauses/x/Sample.feature", sampleFeature)
	if err != nil {
		t.Fatal(err)
	}
	if f.Name != "Sample" || f.Folder != "clauses/x" || len(f.Scenarios) != 5 {
		t.Fatalf("feature %q in %q with %d scenarios", f.Name, f.Folder, len(f.Scenarios))
	}
	type head struct {
		Line, Index, Example int
		Name                 string
		Tags                 []string
		Steps                int
	}
	var got []head
	for _, sc := range f.Scenarios {
		got = append(got, head{sc.Line, sc.Index, sc.Example, sc.Name, sc.Tags, len(sc.Steps)})
	}
	want := []head{
		{11, 1, 0, "Plain", []string{"@featuretag", "@ignore"}, 5},
		{38, 2, 1, "Outline 1", []string{"@featuretag"}, 4},
		{39, 2, 2, "Outline 'a'", []string{"@featuretag"}, 4},
		{44, 2, 3, "Outline null", []string{"@featuretag"}, 4},
		{46, 3, 0, "Unnumbered", []string{"@featuretag"}, 5},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("scenarios:\n got %+v\nwant %+v", got, want)
	}
	checkPlain(t, f.Scenarios[0])
	checkOutline(t, f.Scenarios[1], f.Scenarios[3])
	if id := f.Scenarios[2].ID(); id != `clauses/x/Sample.feature:39 [2] "Outline 'a'" example 2` {
		t.Errorf("ID %s", id)
	}
}

func checkPlain(t *testing.T, sc *Scenario) {
	t.Helper()
	st := sc.Steps
	if st[0].Form != FormEmptyGraph || st[0].Keyword != "Given" {
		t.Errorf("the Background's step is not first: %+v", st[0])
	}
	if st[1].Form != FormSetup || st[1].Doc != "CREATE (:A)\n  -[:T]->()" {
		t.Errorf("doc string %q", st[1].Doc)
	}
	if st[3].Form != FormResult || st[3].InOrder || !reflect.DeepEqual(st[3].Table, [][]string{{"n", "'a|b'"}, {"(:A)", `'x\y'`}}) {
		t.Errorf("result step %+v", st[3])
	}
	if st[4].Form != FormNoSideEffects {
		t.Errorf("step 5 %+v", st[4])
	}
}

func checkOutline(t *testing.T, first, third *Scenario) {
	t.Helper()
	if first.Steps[1].Table[0][1] != "1" || first.Steps[2].Doc != "RETURN 1 AS x, $p AS y" {
		t.Errorf("not substituted: %+v", first.Steps[1:3])
	}
	if e := first.Steps[3].Error; first.Steps[3].Form != FormError || e != (ExpectedError{"TypeError", "runtime", "InvalidArgumentValue"}) {
		t.Errorf("error step %+v", first.Steps[3])
	}
	if e := third.Steps[3].Error; e != (ExpectedError{"SyntaxError", "runtime", ""}) {
		t.Errorf("error step without detail %+v", e)
	}
}

// TestParseFeatureErrors checks that malformed features are refused with
// the line at fault.
func TestParseFeatureErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"Feature: F\n  Given an empty graph\n", "2: step outside a scenario"},
		{"Feature: F\n Scenario: S\n  When executing query:\n   \"\"\"\n   RETURN 1\n", "unterminated doc string"},
		{"Feature: F\n Scenario Outline: S\n  Given any graph\n", "without Examples rows"},
		{"Feature: F\n Scenario Outline: S\n  Given any graph\n Examples:\n  | a | b |\n  | 1 |\n", "row has 1 cells"},
		{"Feature: F\n Scenario: S\n  Given any graph\n  some text\n", "4: unrecognised line"},
		{"Feature: F\n | a |\n", "table or doc string without a step"},
		{"Feature: F\n Scenario: S\n Examples:\n", "Examples outside a Scenario Outline"},
	} {
		_, err := ParseFeature("f.feature", tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.text, err, tc.want)
		}
	}
}

// TestRecognise checks each step form, and the steps that lack or carry
// an argument wrongly.
func TestRecognise(t *testing.T) {
	table := [][]string{{"a"}}
	for _, tc := range []struct {
		st   Step
		want StepForm
	}{
		{Step{Text: "an empty graph"}, StepForm{Form: FormEmptyGraph}},
		{Step{Text: "any graph"}, StepForm{Form: FormAnyGraph}},
		{Step{Text: "the binary-tree-1 graph"}, StepForm{Form: FormNamedGraph, Graph: "binary-tree-1"}},
		{Step{Text: "there exists a procedure test.my.proc() :: ():", Table: table}, StepForm{Form: FormProcedure}},
		{Step{Text: "having executed:", HasDoc: true}, StepForm{Form: FormSetup}},
		{Step{Text: "parameters are:", Table: table}, StepForm{Form: FormParameters}},
		{Step{Text: "executing query:", HasDoc: true}, StepForm{Form: FormQuery}},
		{Step{Text: "executing control query:", HasDoc: true}, StepForm{Form: FormControlQuery}},
		{Step{Text: "the result should be, in any order:", Table: table}, StepForm{Form: FormResult}},
		{Step{Text: "the result should be, in order:", Table: table}, StepForm{Form: FormResult, InOrder: true}},
		{Step{Text: "the result should be (ignoring element order for lists):", Table: table}, StepForm{Form: FormResult, ListsUnordered: true}},
		{Step{Text: "the result should be, in order (ignoring element order for lists):", Table: table}, StepForm{Form: FormResult, InOrder: true, ListsUnordered: true}},
		{Step{Text: "the result should be empty"}, StepForm{Form: FormResultEmpty}},
		{Step{Text: "no side effects"}, StepForm{Form: FormNoSideEffects}},
		{Step{Text: "the side effects should be:", Table: table}, StepForm{Form: FormSideEffects}},
		{Step{Text: "a SyntaxError should be raised at compile time: UndefinedVariable"},
			StepForm{Form: FormError, Error: ExpectedError{"SyntaxError", "compile time", "UndefinedVariable"}}},
		{Step{Text: "an ArgumentError should be raised at any time: NumberOutOfRange"},
			StepForm{Form: FormError, Error: ExpectedError{"ArgumentError", "any time", "NumberOutOfRange"}}},
		{Step{Text: "a TypeError should be raised at runtime: *"},
			StepForm{Form: FormError, Error: ExpectedError{"TypeError", "runtime", ""}}},
		{Step{Keyword: "Then", Text: "the result should be sorted"}, StepForm{Problem: `unrecognised step "Then the result should be sorted"`}},
		{Step{Text: "executing query:"}, StepForm{Problem: `step "executing query:" needs a doc string`}},
		{Step{Text: "the result should be, in order:"}, StepForm{Problem: `step "the result should be, in order:" needs a table`}},
		{Step{Text: "no side effects", Table: table}, StepForm{Problem: `step "no side effects" takes no table`}},
		{Step{Text: "any graph", HasDoc: true}, StepForm{Problem: `step "any graph" takes no doc string`}},
	} {
		if got := recognise(tc.st); got != tc.want {
			t.Errorf("%q: got %+v, want %+v", tc.st.Text, got, tc.want)
		}
	}
}
