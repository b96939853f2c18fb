package cypher

import "testing"

// TestListPredicates covers all, any, none and single over lists with
// true, false and null outcomes, a null list, a predicate on a property
// of the data, and the column name of an unaliased list predicate.
func TestListPredicates(t *testing.T) {
	runCases(t, []tcase{
		{"all and any", nil, "WITH [3, 6, 9] AS l RETURN all(v IN l WHERE v % 3 = 0) AS a, any(v IN l WHERE v > 8) AS b, none(v IN l WHERE v < 0) AS c, single(v IN l WHERE v > 5) AS d", nil, false,
			"a | b | c | d\ntrue | true | true | false"},
		{"empty lists", nil, "RETURN all(v IN [] WHERE false) AS a, any(v IN [] WHERE true) AS b, none(v IN [] WHERE true) AS c, single(v IN [] WHERE true) AS d", nil, false,
			"a | b | c | d\ntrue | false | true | false"},
		{"nulls decide only undecided outcomes", nil, "WITH [7, null] AS l RETURN all(v IN l WHERE v > 1) AS a, any(v IN l WHERE v > 1) AS b, none(v IN l WHERE v > 1) AS c, single(v IN l WHERE v > 1) AS d, all(v IN l WHERE v > 10) AS e, any(v IN l WHERE v > 10) AS f", nil, false,
			"a | b | c | d | e | f\nnull | true | false | null | false | null"},
		{"single with two matches", nil, "RETURN single(v IN [1, 1, null] WHERE v = 1) AS s", nil, false,
			"s\nfalse"},
		{"null list", nil, "WITH null AS l RETURN any(v IN l WHERE true) AS a", nil, false,
			"a\nnull"},
		{"over data", people, "MATCH (n:Person) WITH collect(n) AS ns RETURN any(p IN ns WHERE p.name = 'Bob') AS bob, ALL(p IN ns WHERE p.age > 20) AS adults", nil, false,
			"bob | adults\ntrue | true"},
		{"in WHERE with outer variable", nil, "UNWIND [[1, 2], [5, 6], [2, 9]] AS l WITH l, 2 AS k WHERE any(v IN l WHERE v = k) RETURN l", nil, false,
			"l\n[1, 2]\n[2, 9]"},
		{"column name", nil, "RETURN none(v IN [1] WHERE v = 2)", nil, false,
			"none(v IN [1] WHERE v = 2)\ntrue"},
		{"not a list", nil, "UNWIND [4] AS l RETURN all(v IN l WHERE true)", nil, false,
			"error TypeError/InvalidArgumentType"},
		{"elements of a literal of the wrong type", nil, "RETURN any(w IN ['ab', 'c'] WHERE w % 2 = 1) AS r", nil, false,
			"error SyntaxError/InvalidArgumentType"},
	})
}
