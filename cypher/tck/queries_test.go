package tck

import (
	"os"
	"path/filepath"
	"testing"
)

// queriesFeature has a scenario per kind of expected outcome.
const queriesFeature = `Feature: Queries - the expected compile-time errors of the front end

  Scenario: [1] A semantic error
    Given an empty graph
    When executing query:
      """
      RETURN nowhere
      """
    Then a SyntaxError should be raised at compile time: UndefinedVariable

  Scenario: [2] A type error found before running
    Given an empty graph
    When executing query:
      """
      WITH 'text' AS t RETURN t.size
      """
    Then a TypeError should be raised at compile time: InvalidArgumentType

  Scenario: [3] A type error found while running
    Given an empty graph
    And having executed:
      """
      CREATE ({k: 'text'})
      """
    When executing query:
      """
      MATCH (n) RETURN n.k.size
      """
    Then a TypeError should be raised at runtime: PropertyAccessOnNonMap

  Scenario: [4] No error
    Given an empty graph
    When executing query:
      """
      RETURN 1 AS one
      """
    Then the result should be, in any order:
      | one |
      | 1   |
`

// TestQueries checks the statements Queries gives and the compile-time
// error each scenario's query expects: a SyntaxError or a TypeError, with
// its category; nothing for a run-time error, a set-up query or a result.
func TestQueries(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "Queries.feature"), []byte(queriesFeature), 0o644); err != nil {
		t.Fatal(err)
	}
	qs, err := Queries(dir)
	if err != nil {
		t.Fatal(err)
	}
	wants := []Query{
		{Text: "RETURN nowhere", Want: "UndefinedVariable", WantCategory: "SyntaxError"},
		{Text: "WITH 'text' AS t RETURN t.size", Want: "InvalidArgumentType", WantCategory: "TypeError"},
		{Text: "CREATE ({k: 'text'})", Setup: true},
		{Text: "MATCH (n) RETURN n.k.size"},
		{Text: "RETURN 1 AS one"},
	}
	if len(qs) != len(wants) {
		t.Fatalf("got %d queries, want %d: %+v", len(qs), len(wants), qs)
	}
	for i, w := range wants {
		q := qs[i]
		q.Where = ""
		if q != w {
			t.Errorf("query %d: got %+v, want %+v", i, q, w)
		}
	}
}
