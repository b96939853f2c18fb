package check

import (
	"errors"
	"testing"

	"github.com/gdi-go/gdi/cypher/parse"
)

// ruleCase is a query and the detail Check must report for it ("" when it
// must accept it), under the rule it exercises.
type ruleCase struct {
	rule, query, want string
}

// checkKinds are the kinds of the errors Check may return.
var checkKinds = map[parse.ErrorKind]bool{parse.SyntaxError: true, parse.TypeError: true}

// checkQuery parses and checks q, returning the detail of the error ("" if
// none); a parse error fails the test.
func checkQuery(t *testing.T, q string) (*Info, string) {
	t.Helper()
	info, err := Check(mustParse(t, q))
	if err == nil {
		return info, ""
	}
	var pe *parse.Error
	if !errors.As(err, &pe) || !checkKinds[pe.Kind] || !pe.Pos().IsValid() {
		t.Fatalf("%q: malformed error %#v", q, err)
	}
	if info != nil {
		t.Errorf("%q: Info returned with an error", q)
	}
	return nil, pe.Detail
}

func runRules(t *testing.T, cases []ruleCase) {
	for _, c := range cases {
		if _, got := checkQuery(t, c.query); got != c.want {
			t.Errorf("%s: %q: got %q, want %q", c.rule, c.query, got, c.want)
		}
	}
}

func TestScopeRules(t *testing.T) {
	runRules(t, []ruleCase{
		{"undefined", "MATCH () RETURN foo", DetailUndefinedVariable},
		{"undefined", "RETURN {k1: k2} AS m", DetailUndefinedVariable},
		{"undefined", "MATCH (a) DELETE x", DetailUndefinedVariable},
		{"undefined", "MATCH (a) SET a.name = missing", DetailUndefinedVariable},
		{"undefined", "MATCH (a) SET b.name = 1", DetailUndefinedVariable},
		{"undefined", "MATCH (a) REMOVE b:L", DetailUndefinedVariable},
		{"undefined", "CREATE (b {name: missing})", DetailUndefinedVariable},
		{"undefined", "MATCH (a)-->(b) WITH a RETURN b", DetailUndefinedVariable},
		{"undefined", "WITH 1 AS a, a + 1 AS b RETURN b", DetailUndefinedVariable},
		{"undefined", "RETURN [x IN [1] | x] AS l, x", DetailUndefinedVariable},
		{"undefined", "MATCH (a) RETURN 1 AS x UNION RETURN a AS x", DetailUndefinedVariable},
		{"defined", "MATCH (a)-[r]->(b) WHERE a.x = b.x AND r.y > 1 RETURN a, r, b", ""},
		{"defined", "MATCH (a)-[:T]->(b {name: a.name}) RETURN b", ""},
		{"defined", "UNWIND [1, 2] AS x WITH x WHERE x > 1 RETURN x", ""},
		{"defined", "RETURN [x IN [1, 2] WHERE x > 1 | x * 2] AS l", ""},
		{"defined", "WITH 1 AS x RETURN [x IN [2] | x] AS l", ""},
		{"defined", "MATCH (a) WITH * RETURN a", ""},
		{"with shadows", "MATCH (a) WITH a.name AS a RETURN a", ""},
		{"order by after with", "MATCH (a), (b) WITH a ORDER BY b.x RETURN a", ""},
		{"order by after with", "MATCH (a), (b) WITH a, b WITH a ORDER BY c RETURN a", DetailUndefinedVariable},
		{"order by alias", "MATCH (a) RETURN a.x AS y ORDER BY y", ""},
		{"order by distinct", "MATCH (a) RETURN DISTINCT a.name ORDER BY a.age", DetailUndefinedVariable},
		{"order by distinct", "MATCH (a) RETURN DISTINCT a.name ORDER BY a.name", ""},
		{"order by distinct", "MATCH (a) RETURN DISTINCT a ORDER BY a.name", ""},
		{"order by aggregating", "MATCH (n) RETURN n.name, count(*) AS c ORDER BY n.name", ""},
		{"order by aggregating", "MATCH (n) RETURN n.name, count(*) AS c ORDER BY n.age", DetailUndefinedVariable},
		{"with where", "MATCH (a)-[r]->(b) WITH b WHERE r IS NULL RETURN b", ""},
		{"with where", "MATCH (a) WITH DISTINCT a.x AS x WHERE a.x = 1 RETURN x", ""},
		{"with where", "MATCH (a) WITH DISTINCT a.x AS x WHERE a.y = 1 RETURN x", DetailUndefinedVariable},
		{"with where", "MATCH (a) WITH count(*) AS c WHERE a.y = 1 RETURN c", DetailUndefinedVariable},
		{"union", "RETURN 1 AS a UNION RETURN 2 AS a", ""},
		{"union", "RETURN 1 AS a, 2 AS b UNION ALL RETURN 2 AS b, 1 AS a", ""},
		{"union columns", "RETURN 1 AS a UNION RETURN 2 AS b", DetailDifferentColumnsInUnion},
		{"union mix", "RETURN 1 AS a UNION RETURN 2 AS a UNION ALL RETURN 3 AS a", DetailInvalidClauseComposition},
		{"union mix", "RETURN 1 AS a UNION ALL RETURN 2 AS a UNION RETURN 3 AS a", DetailInvalidClauseComposition},
	})
}

func TestBindingRules(t *testing.T) {
	runRules(t, []ruleCase{
		{"rebind node", "MATCH (a) MATCH (a)-->(b) RETURN b", ""},
		{"rebind node", "MATCH (a)-->(a) RETURN a", ""},
		{"rebind rel later", "MATCH ()-[r]->() WITH r MATCH ()-[r]->() RETURN r", ""},
		{"rebind unknown", "WITH $p AS n MATCH (n) RETURN n", ""},
		{"rebind null", "WITH null AS n MATCH (n) RETURN n", ""},
		{"type conflict", "MATCH (r) MATCH ()-[r]-() RETURN r", DetailVariableTypeConflict},
		{"type conflict", "MATCH ()-[r]-(r) RETURN r", DetailVariableTypeConflict},
		{"type conflict", "MATCH (r)-[r]-() RETURN r", DetailVariableTypeConflict},
		{"type conflict", "MATCH r = ()-->() MATCH (r) RETURN r", DetailVariableTypeConflict},
		{"type conflict", "MATCH r = ()-->(), ()-[r]-() RETURN r", DetailVariableTypeConflict},
		{"type conflict", "MATCH ()-[r*]-()-->(r) RETURN r", DetailVariableTypeConflict},
		{"type conflict", "MATCH ()-[r*]-() MATCH ()-[r]-() RETURN r", DetailVariableTypeConflict},
		{"type conflict", "WITH 123 AS n MATCH (n) RETURN n", DetailVariableTypeConflict},
		{"type conflict", "WITH {x: 1} AS r MATCH ()-[r]-() RETURN r", DetailVariableTypeConflict},
		{"type conflict", "MATCH (n) WITH [n] AS users MATCH (users)-->(m) RETURN m", DetailVariableTypeConflict},
		{"type conflict", "MATCH ()-[r]->() CREATE (r)-[:T]->()", DetailVariableTypeConflict},
		{"uniqueness", "MATCH (a)-[r]->()-[r]->(a) RETURN r", DetailRelationshipUniquenessViolation},
		{"uniqueness", "MATCH ()-[r]->(), ()-[r]->() RETURN r", DetailRelationshipUniquenessViolation},
		{"path bound", "MATCH p = (a) WITH p, a MATCH p = (a)-->(b) RETURN a", DetailVariableAlreadyBound},
		{"path bound", "MATCH p = (a)-->(b), p = (c)-->(d) RETURN p", DetailVariableAlreadyBound},
		{"path bound", "MATCH p = (p)-->() RETURN p", DetailVariableAlreadyBound},
		{"path bound", "MATCH ()-[p*]-(), p = ()-->() RETURN p", DetailVariableAlreadyBound},
		{"path bound", "WITH 1 AS p MATCH p = ()-->() RETURN p", DetailVariableAlreadyBound},
		{"unwind bound", "WITH 1 AS x UNWIND [1] AS x RETURN x", DetailVariableAlreadyBound},
		{"unwind bound", "MATCH (x) UNWIND [1] AS y RETURN x, y", ""},
		{"create bound", "MATCH (a) CREATE (a)", DetailVariableAlreadyBound},
		{"create bound", "MATCH (a) CREATE (a {name: 'foo'})-[:T]->()", DetailVariableAlreadyBound},
		{"create bound", "MATCH (a) CREATE (a:L)-[:T]->()", DetailVariableAlreadyBound},
		{"create bound", "CREATE (n:Foo)-[:T]->(), (n:Bar)-[:T]->()", DetailVariableAlreadyBound},
		{"create bound", "CREATE (n:Foo) CREATE (n {})-[:T]->()", DetailVariableAlreadyBound},
		{"create bound", "CREATE (a), (a)", DetailVariableAlreadyBound},
		{"create bound", "MATCH ()-[r]->() CREATE ()-[r]->()", DetailVariableAlreadyBound},
		{"create bound", "CREATE ()-[r:T]->(), ()-[r:T]->()", DetailVariableAlreadyBound},
		{"create bound", "MATCH p = () CREATE p = ()-[:T]->()", DetailVariableAlreadyBound},
		{"create connect", "MATCH (a), (b) CREATE (a)-[:T]->(b)", ""},
		{"create connect", "CREATE (a:Foo)-[:T]->(), (a)-[:T]->()", ""},
		{"create connect", "CREATE (a {x: 1}) CREATE (a)-[:T]->(b) RETURN a, b", ""},
		{"create path", "CREATE p = (a)-[:T]->(b) RETURN p", ""},
	})
}

func TestProjectionRules(t *testing.T) {
	runRules(t, []ruleCase{
		{"alias", "MATCH (a) WITH a, count(*) RETURN a", DetailNoExpressionAlias},
		{"alias", "MATCH (a) WITH a.x RETURN 1 AS one", DetailNoExpressionAlias},
		{"alias", "MATCH (a) WITH a, count(*) AS c RETURN a, c", ""},
		{"alias after order by", "MATCH (p)--(q) WITH p.w * q.w, count(*) AS n ORDER BY p.w * q.w + count(*) RETURN n",
			DetailAmbiguousAggregationExpression},
		{"alias after order by", "MATCH (p) WITH p.w, count(*) AS n ORDER BY nope RETURN n", DetailUndefinedVariable},
		{"alias after order by", "MATCH (p) WITH p.w ORDER BY p.w RETURN 1 AS one", DetailNoExpressionAlias},
		{"alias", "MATCH (a) RETURN a.x, count(*)", ""},
		{"column conflict", "WITH 1 AS a, 2 AS a RETURN a", DetailColumnNameConflict},
		{"column conflict", "RETURN 1 AS a, 2 AS a", DetailColumnNameConflict},
		{"column conflict", "MATCH (a) RETURN *, a", DetailColumnNameConflict},
		{"column conflict", "MATCH (a) RETURN a.id AS a, a.id", ""},
		{"star", "MATCH () RETURN *", DetailNoVariablesInScope},
		{"star", "MATCH ()-->() CREATE () RETURN *", DetailNoVariablesInScope},
		{"star", "WITH * RETURN 1 AS x", ""},
		{"star", "MATCH ()-->() CREATE () WITH * MATCH () RETURN count(*) AS c", ""},
		{"star", "MATCH (n) RETURN *", ""},
		{"star", "MATCH (n) WITH *, 1 AS x RETURN *", ""},
	})
}

func TestAggregationRules(t *testing.T) {
	runRules(t, []ruleCase{
		{"where", "MATCH (a) WHERE count(a) > 10 RETURN a", DetailInvalidAggregation},
		{"with where", "MATCH (a) WITH a WHERE count(*) > 1 RETURN a", DetailInvalidAggregation},
		{"set", "MATCH (a) SET a.x = count(*)", DetailInvalidAggregation},
		{"unwind", "UNWIND collect(1) AS x RETURN x", DetailInvalidAggregation},
		{"pattern", "MATCH (a {x: count(*)}) RETURN a", DetailInvalidAggregation},
		{"comprehension", "MATCH (n) RETURN [x IN [1, 2] | count(*)]", DetailInvalidAggregation},
		{"comprehension", "MATCH (n) RETURN [x IN collect(n) | x.name] AS names", ""},
		{"order by", "MATCH (n) RETURN n.num1 ORDER BY max(n.num2)", DetailInvalidAggregation},
		{"order by", "MATCH (n) WITH n.num1 AS foo ORDER BY count(1) RETURN foo", DetailInvalidAggregation},
		{"order by", "MATCH (n) RETURN n.division, max(n.age) ORDER BY max(n.age)", ""},
		{"order by", "MATCH (a) RETURN a, count(*) ORDER BY count(*)", ""},
		{"skip", "MATCH (a) RETURN a SKIP count(*)", DetailInvalidAggregation},
		{"nested", "RETURN count(count(*))", DetailNestedAggregation},
		{"nested", "MATCH (n) RETURN sum(1 + max(n.x))", DetailNestedAggregation},
		{"rand", "RETURN count(rand())", DetailNonConstantExpression},
		{"rand", "RETURN rand() AS r, count(*) AS c", ""},
		{"ambiguous", "MATCH (me)--(you) RETURN me.age + count(you.age)", DetailAmbiguousAggregationExpression},
		{"ambiguous", "MATCH (me)--(you) RETURN me.age + you.age, me.age + you.age + count(*)", DetailAmbiguousAggregationExpression},
		{"ambiguous", "MATCH (me)--(you) WITH me.age + count(you.age) AS agg RETURN agg", DetailAmbiguousAggregationExpression},
		{"ambiguous", "MATCH (me)--(you) RETURN me.age, me.age + count(you.age)", ""},
		{"ambiguous", "MATCH (me)--(you) WITH me.age AS age, you RETURN age, age + count(you.age)", ""},
		{"ambiguous", "MATCH (n) RETURN n, n.x + count(*)", ""},
		{"ambiguous", "MATCH (n) RETURN $p + avg(n.age) - 1000", ""},
		{"ambiguous", "MATCH (n) RETURN n AS m, [x IN collect(n.x) WHERE x > n.y] AS l", ""},
		{"ambiguous", "MATCH (n) RETURN [x IN collect(n.x) WHERE x > n.y] AS l", DetailAmbiguousAggregationExpression},
		{"ambiguous order by", "MATCH (me)--(you) RETURN count(you.age) AS agg ORDER BY me.age + count(you.age)", DetailUndefinedVariable},
		{"ambiguous order by", "MATCH (me)--(you) RETURN me.age + you.age, count(*) AS cnt ORDER BY me.age + you.age + count(*)", DetailAmbiguousAggregationExpression},
		{"ambiguous order by", "MATCH (me)--(you) RETURN me.age AS age, count(you.age) AS cnt ORDER BY me.age + count(you.age)", ""},
		{"ambiguous order by", "MATCH (me)--(you) RETURN me.age AS age, count(you.age) AS cnt ORDER BY age, age + count(you.age)", ""},
		{"ambiguous order by", "MATCH (p) RETURN avg(p.age) AS a ORDER BY $age + avg(p.age) - 1000", ""},
		{"ambiguous order by", "MATCH (a) WITH a.x % 3 AS m, sum(a.y) AS s ORDER BY sum(a.y) RETURN m, s", ""},
		{"ambiguous order by", "MATCH (a) WITH a.x % 3 AS m, min(a.y) AS s ORDER BY sum(a.y) RETURN m, s", DetailUndefinedVariable},
	})
}

func TestSkipLimitRules(t *testing.T) {
	runRules(t, []ruleCase{
		{"constant", "MATCH (n) RETURN n SKIP n.count", DetailNonConstantExpression},
		{"constant", "MATCH (n) RETURN n LIMIT n.count", DetailNonConstantExpression},
		{"constant", "MATCH (n) WITH n SKIP toInteger(rand() * 9) RETURN n", ""},
		{"constant", "MATCH (n) RETURN n SKIP $s LIMIT $l", ""},
		{"constant", "MATCH (n) RETURN n LIMIT size([x IN [1, 2] | x])", ""},
		{"negative", "MATCH (n) RETURN n SKIP -1", DetailNegativeIntegerArgument},
		{"negative", "MATCH (n) RETURN n LIMIT -1", DetailNegativeIntegerArgument},
		{"negative", "MATCH (n) RETURN n SKIP -(2)", DetailNegativeIntegerArgument},
		{"negative", "MATCH (n) RETURN n SKIP 0 LIMIT -(0)", ""},
		{"type", "MATCH (n) RETURN n SKIP 1.5", DetailInvalidArgumentType},
		{"type", "MATCH (n) RETURN n LIMIT 'a'", DetailInvalidArgumentType},
		{"type", "MATCH (n) RETURN n LIMIT 1 + 1", ""},
	})
}

func TestPatternRules(t *testing.T) {
	runRules(t, []ruleCase{
		{"parameter", "MATCH (n $param) RETURN n", DetailInvalidParameterUse},
		{"parameter", "MATCH ()-[r:FOO $param]->() RETURN r", DetailInvalidParameterUse},
		{"parameter", "CREATE (n $param) RETURN n", ""},
		{"parameter", "MATCH (n {x: $param}) RETURN n", ""},
		{"create type", "CREATE ()-->()", DetailNoSingleRelationshipType},
		{"create type", "CREATE ()-[:A|:B]->()", DetailNoSingleRelationshipType},
		{"create direction", "CREATE (a)-[:FOO]-(b)", DetailRequiresDirectedRelationship},
		{"create direction", "CREATE (a)<-[:FOO]->(b)", DetailRequiresDirectedRelationship},
		{"create direction", "CREATE (a)<-[:FOO]-(b)", ""},
		{"create length", "CREATE ()-[:FOO*2]->()", DetailCreatingVarLength},
		{"match", "MATCH (a)-[:A|B*1..3]-(b) RETURN a, b", ""},
	})
}

func TestTypeRules(t *testing.T) {
	runRules(t, []ruleCase{
		{"boolean", "RETURN 123 AND true", DetailInvalidArgumentType},
		{"boolean", "RETURN true OR 'foo'", DetailInvalidArgumentType},
		{"boolean", "RETURN [true] XOR false", DetailInvalidArgumentType},
		{"boolean", "RETURN NOT {a: 1}", DetailInvalidArgumentType},
		{"boolean", "RETURN NOT (1 + 2)", DetailInvalidArgumentType},
		{"boolean", "RETURN null AND true, NOT null, $p OR false", ""},
		{"boolean", "MATCH (n) RETURN n.a AND n.b, NOT n:L, NOT exists(n.x)", ""},
		{"boolean", "MATCH (n) WHERE 1 RETURN n", DetailInvalidArgumentType},
		{"boolean", "RETURN [x IN [1] WHERE 'a'] AS l", DetailInvalidArgumentType},
		{"in", "MATCH (n) WHERE n.id IN 1 RETURN n", DetailInvalidArgumentType},
		{"in", "MATCH (n) WHERE n.id IN '' RETURN n", DetailInvalidArgumentType},
		{"in", "MATCH (n) WHERE n.id IN [1, 2] OR n.id IN $ids OR n.id IN null RETURN n", ""},
		{"comprehension", "RETURN [x IN 1 | x] AS l", DetailInvalidArgumentType},
		{"function", "MATCH (r) RETURN type(r)", DetailInvalidArgumentType},
		{"function", "MATCH p = (a) RETURN labels(p)", DetailInvalidArgumentType},
		{"function", "MATCH ()-[r]->() RETURN labels(r)", DetailInvalidArgumentType},
		{"function", "MATCH ()-[r*]->() RETURN type(r)", DetailInvalidArgumentType},
		{"function", "RETURN properties(1)", DetailInvalidArgumentType},
		{"function", "RETURN properties([true, false])", DetailInvalidArgumentType},
		{"function", "MATCH (r) RETURN length(r)", DetailInvalidArgumentType},
		{"function", "MATCH p = ()-[*]->() RETURN size(p)", DetailInvalidArgumentType},
		{"function", "MATCH p = (a)-[r]->(b) RETURN labels(a), type(r), length(p), nodes(p), properties(r), size(labels(a))", ""},
		{"function", "RETURN properties({a: 1}), keys({a: 1}), type(null), size('abc'), size($l)", ""},
		{"exists", "MATCH (n) RETURN exists(n.num + 1)", DetailInvalidArgumentExpression},
		{"property", "WITH 123 AS x RETURN x.num", DetailInvalidArgumentType},
		{"property", "WITH [1] AS x RETURN x.num", DetailInvalidArgumentType},
		{"property", "MATCH (n) MATCH (n)-[r*]->() WHERE r.name = 'apa' RETURN r", DetailInvalidArgumentType},
		{"property", "MATCH p = () RETURN p.x", DetailInvalidArgumentType},
		{"property", "WITH {a: {b: 1}} AS m, date() AS d RETURN m.a.b, d.year, $p.x", ""},
		{"property", "MATCH (n) WITH n.name AS n2 RETURN n2.name", ""},
		{"index", "WITH [1, 2, 3] AS list, 3.14 AS idx RETURN list[idx]", DetailInvalidArgumentType},
		{"index", "WITH {a: 1} AS m RETURN m[0]", DetailInvalidArgumentType},
		{"index", "MATCH (n) WITH [1, 2] AS l, {a: 1} AS m, n RETURN l[0], m['a'], n['name'], l[$i]", ""},
		{"delete", "MATCH () DELETE 1 + 1", DetailInvalidArgumentType},
		{"delete", "MATCH (n) DELETE n:Person", DetailInvalidDelete},
		{"delete", "MATCH p = (a)-[r]->(b) DELETE r, a, b, p", ""},
		{"delete", "MATCH (n) WITH collect(n) AS ns DETACH DELETE ns[0]", ""},
		{"set", "MATCH ()-[r]->() SET r:L", DetailInvalidArgumentType},
		{"set", "MATCH p = () SET p.x = 1", DetailInvalidArgumentType},
		{"set", "MATCH (n) SET n = 1", DetailInvalidArgumentType},
		{"set", "WITH {a: 1} AS m MATCH (n) SET n += m, n.x = 1, n:L SET n = {}", ""},
		{"remove", "MATCH ()-[r]->() REMOVE r:L", DetailInvalidArgumentType},
		{"remove", "MATCH (n)-[r]->() REMOVE n:L, r.x, n.y", ""},
	})
}

func TestFunctionRules(t *testing.T) {
	runRules(t, []ruleCase{
		{"unknown", "MATCH (a) RETURN foo(a)", DetailUnknownFunction},
		{"unknown", "RETURN apoc.coll.sum([1])", DetailUnknownFunction},
		{"known", "RETURN toUpper('a'), TOUPPER('a'), date.truncate('day', date()), percentileDisc(1, 0.5)", ""},
	})
}

// TestConfigFunctions checks that Config.Functions replaces the builtins.
func TestConfigFunctions(t *testing.T) {
	q, err := parse.Parse("RETURN double(2) AS d, count(*) AS c")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Functions: map[string]Func{"double": {Result: TInteger}}}
	var pe *parse.Error
	if _, err := cfg.Check(q); !errors.As(err, &pe) || pe.Detail != DetailUnknownFunction {
		t.Errorf("count without a table entry: got %v, want UnknownFunction", err)
	}
	cfg.Functions["count"] = Builtins["count"]
	if _, err := cfg.Check(q); err != nil {
		t.Errorf("with the table: %v", err)
	}
}

func mustParse(t *testing.T, q string) *parse.Query {
	t.Helper()
	pq, err := parse.Parse(q)
	if err != nil {
		t.Fatalf("parse %q: %v", q, err)
	}
	return pq
}
