package cypher

import "testing"

// TestWithStarNoVariables checks that WITH * passes the rows on when no
// named variable is in scope (anonymous pattern elements only), while
// RETURN * there is an error.
func TestWithStarNoVariables(t *testing.T) {
	runCases(t, []tcase{
		{"with star then create", []string{"CREATE (:S), (:S), (:S)", "MATCH (:S) CREATE (:T) WITH * CREATE (:U)"},
			"MATCH (n) RETURN labels(n) AS l, count(*) AS c", nil, false,
			"l | c\n['S'] | 3\n['T'] | 3\n['U'] | 3"},
		{"with star then match", []string{"CREATE (:S)-[:R]->(:S)"},
			"MATCH ()-->() WITH * MATCH (m) RETURN count(m) AS c", nil, false, "c\n2"},
		{"return star", nil, "MATCH () RETURN *", nil, false, "error SyntaxError/NoVariablesInScope"},
	})
}
