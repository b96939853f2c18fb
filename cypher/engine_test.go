package cypher

import (
	"testing"

	"github.com/gdi-go/gdi/cypher/value"
)

// people is a small graph for the reading tests.
var people = []string{
	`CREATE (a:Person {name: 'Ann', age: 30}), (b:Person {name: 'Bob', age: 25}),
	        (c:Person:Admin {name: 'Cid', age: 35}), (d:City {name: 'Oslo'}),
	        (a)-[:KNOWS {since: 2001}]->(b), (b)-[:KNOWS {since: 2010}]->(c),
	        (a)-[:LIVES_IN]->(d), (c)-[:LIVES_IN]->(d)`,
}

type tcase struct {
	name    string
	setup   []string
	query   string
	params  map[string]value.Value
	ordered bool
	want    string
}

func runCases(t *testing.T, cases []tcase) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			expect(t, c.setup, c.query, c.params, c.ordered, c.want)
		})
	}
}

func TestMatch(t *testing.T) {
	runCases(t, []tcase{
		{"create then match back", nil, "CREATE (:A {x: 1}) WITH 1 AS one MATCH (n:A) RETURN n", nil, false,
			"n\n(:A {x: 1})"},
		{"label scan", people, "MATCH (n:Person) RETURN n.name", nil, false,
			"n.name\n'Ann'\n'Bob'\n'Cid'"},
		{"outgoing", people, "MATCH (a {name: 'Ann'})-->(b) RETURN b.name", nil, false,
			"b.name\n'Bob'\n'Oslo'"},
		{"incoming", people, "MATCH (a {name: 'Bob'})<-[:KNOWS]-(b) RETURN b.name", nil, false,
			"b.name\n'Ann'"},
		{"undirected", people, "MATCH (a {name: 'Bob'})-[:KNOWS]-(b) RETURN b.name", nil, false,
			"b.name\n'Ann'\n'Cid'"},
		{"type alternatives", people, "MATCH (:Person {name: 'Ann'})-[r:KNOWS|LIVES_IN]->(x) RETURN type(r), x.name", nil, false,
			"type(r) | x.name\n'KNOWS' | 'Bob'\n'LIVES_IN' | 'Oslo'"},
		{"var length", people, "MATCH (a {name: 'Ann'})-[:KNOWS*1..2]->(b) RETURN b.name", nil, false,
			"b.name\n'Bob'\n'Cid'"},
		{"var length zero", people, "MATCH (a {name: 'Ann'})-[:KNOWS*0..1]->(b) RETURN b.name", nil, false,
			"b.name\n'Ann'\n'Bob'"},
		{"path", people, "MATCH p = (:Person {name: 'Ann'})-[:KNOWS*2]->() RETURN p", nil, false,
			"p\n<(:Person {age: 30, name: 'Ann'})-[:KNOWS {since: 2001}]->(:Person {age: 25, name: 'Bob'})-[:KNOWS {since: 2010}]->(:Admin:Person {age: 35, name: 'Cid'})>"},
		{"relationship uniqueness", []string{"CREATE (a:L)-[:T]->(b:L)"}, "MATCH (x)-[r1]-(y)-[r2]-(z) RETURN count(*)", nil, false,
			"count(*)\n0"},
		{"cycle to bound node", []string{"CREATE (a:L {k: 1})-[:T]->(b:L {k: 2})-[:T]->(a)"}, "MATCH (a)-->(b)-->(a) RETURN a.k", nil, false,
			"a.k\n1\n2"},
		{"optional nulls", people, "MATCH (n:Person) OPTIONAL MATCH (n)-[:LIVES_IN]->(c) RETURN n.name, c.name", nil, false,
			"n.name | c.name\n'Ann' | 'Oslo'\n'Bob' | null\n'Cid' | 'Oslo'"},
		{"where operators", people, "MATCH (n:Person) WHERE n.age >= 30 AND n.name STARTS WITH 'A' OR n.name ENDS WITH 'd' RETURN n.name", nil, false,
			"n.name\n'Ann'\n'Cid'"},
		{"where label and in", people, "MATCH (n) WHERE n:Admin OR n.name IN ['Bob'] RETURN n.name", nil, false,
			"n.name\n'Bob'\n'Cid'"},
		{"where null logic", people, "MATCH (n) WHERE n.age IS NULL OR NOT n.age > 26 XOR false RETURN n.name", nil, false,
			"n.name\n'Bob'\n'Oslo'"},
		{"contains", people, "MATCH (n) WHERE n.name CONTAINS 'o' RETURN n.name", nil, false,
			"n.name\n'Bob'\n'Oslo'"},
	})
}

func TestProjection(t *testing.T) {
	runCases(t, []tcase{
		{"aggregation grouping", people, "MATCH (n)-[:LIVES_IN]->(c) RETURN c.name AS city, count(*) AS n, collect(n.name) AS who, avg(n.age) AS age", nil, false,
			"city | n | who | age\n'Oslo' | 2 | ['Ann', 'Cid'] | 32.5"},
		{"aggregates", people, "MATCH (n:Person) RETURN count(n), sum(n.age), min(n.name), max(n.age), count(DISTINCT n:Admin)", nil, false,
			"count(n) | sum(n.age) | min(n.name) | max(n.age) | count(DISTINCT n:Admin)\n3 | 90 | 'Ann' | 35 | 2"},
		{"empty aggregate", nil, "MATCH (n) RETURN count(*), collect(n)", nil, false,
			"count(*) | collect(n)\n0 | []"},
		{"order by mixed types and nulls", nil, "UNWIND [3, 'a', null, 1.5, true, [1]] AS x RETURN x ORDER BY x", nil, true,
			"x\n[1]\n'a'\ntrue\n1.5\n3\nnull"},
		{"order by desc", people, "MATCH (n:Person) RETURN n.name ORDER BY n.age DESC", nil, true,
			"n.name\n'Cid'\n'Ann'\n'Bob'"},
		{"distinct", nil, "UNWIND [1, 1.0, 2, null, null] AS x RETURN DISTINCT x", nil, false,
			"x\n1\n2\nnull"},
		{"skip limit", nil, "UNWIND range(1, 10) AS x RETURN x ORDER BY x DESC SKIP 2 LIMIT 3", nil, true,
			"x\n8\n7\n6"},
		{"with where", people, "MATCH (n:Person) WITH n.name AS name, n.age AS age WHERE age < 35 RETURN name ORDER BY name", nil, true,
			"name\n'Ann'\n'Bob'"},
		{"with aggregate then filter", people, "MATCH (n)-[:KNOWS]->(m) WITH n, count(m) AS c WHERE c > 0 RETURN n.name, c", nil, false,
			"n.name | c\n'Ann' | 1\n'Bob' | 1"},
		{"unwind", nil, "UNWIND [[1, 2], [3]] AS l UNWIND l AS x RETURN sum(x)", nil, false,
			"sum(x)\n6"},
		{"parameters", people, "MATCH (n:Person) WHERE n.age > $min RETURN n.name", map[string]value.Value{"min": value.Int(28)}, false,
			"n.name\n'Ann'\n'Cid'"},
		{"parameter list", nil, "UNWIND $xs AS x RETURN x * 2 AS y", map[string]value.Value{"xs": ints(1, 2)}, false,
			"y\n2\n4"},
		{"missing parameter", nil, "RETURN $nope", nil, false, "error ParameterMissing/MissingParameter"},
		{"union", people, "MATCH (n:Person) RETURN n.age AS x UNION MATCH (n:City) RETURN n.name AS x UNION RETURN 30 AS x", nil, false,
			"x\n'Oslo'\n25\n30\n35"},
		{"union all", nil, "RETURN 1 AS x UNION ALL RETURN 1 AS x", nil, false, "x\n1\n1"},
		{"literals", nil, "RETURN [1, 'a', null] AS l, {k: [true, 1.5]} AS m, null AS n", nil, false,
			"l | m | n\n[1, 'a', null] | {k: [true, 1.5]} | null"},
		{"runtime error", nil, "RETURN 1 / 0", nil, false, "error ArithmeticError/DivisionByZero"},
		{"syntax error", nil, "MATCH (n RETURN n", nil, false, "error SyntaxError/UnexpectedSyntax"},
		{"not supported", nil, "MERGE (n)", nil, false, "error NotSupported"},
		{"temporal not supported", nil, "RETURN date('2020-01-01')", nil, false, "error NotSupported"},
	})
}

func TestUpdate(t *testing.T) {
	runCases(t, []tcase{
		{"set properties and labels", people, "MATCH (n {name: 'Bob'}) SET n.age = n.age + 1, n:Admin, n.tags = ['x', 'y'] RETURN n", nil, false,
			"n\n(:Admin:Person {age: 26, name: 'Bob', tags: ['x', 'y']})"},
		{"set replace", people, "MATCH (n {name: 'Bob'}) SET n = {nick: 'B', age: null} RETURN n", nil, false,
			"n\n(:Person {nick: 'B'})"},
		{"set merge", people, "MATCH (n {name: 'Bob'}) SET n += {nick: 'B', age: null} RETURN n", nil, false,
			"n\n(:Person {name: 'Bob', nick: 'B'})"},
		{"set from data (keys needed)", []string{"CREATE (:Src {fresh1: 1, fresh2: 'x'}), (:Dst)"},
			"MATCH (s:Src), (d:Dst) SET d = s RETURN d", nil, false, "d\n(:Dst {fresh1: 1, fresh2: 'x'})"},
		{"remove", people, "MATCH (n:Admin) REMOVE n.age, n:Admin RETURN n", nil, false,
			"n\n(:Person {name: 'Cid'})"},
		{"remove then match", append(people, "MATCH (n:Admin) REMOVE n:Admin"), "MATCH (n:Admin) RETURN count(n)", nil, false,
			"count(n)\n0"},
		{"delete connected", people, "MATCH (n {name: 'Ann'}) DELETE n", nil, false,
			"error ConstraintVerificationFailed/DeleteConnectedNode"},
		{"delete with relationships", append(people, "MATCH (n {name: 'Ann'})-[r]-() DELETE r, n"), "MATCH (n) RETURN count(n)", nil, false,
			"count(n)\n3"},
		{"detach delete", append(people, "MATCH (n:City) DETACH DELETE n"), "MATCH ()-[r]->() RETURN type(r), count(*)", nil, false,
			"type(r) | count(*)\n'KNOWS' | 2"},
		{"deleted access", people, "MATCH (n:City) DETACH DELETE n RETURN n.name", nil, false,
			"error EntityNotFound/DeletedEntityAccess"},
		{"create with parameter map", nil, "CREATE (n:P $props) RETURN n",
			map[string]value.Value{"props": value.NewMap(map[string]value.Value{"a": value.Int(1), "b": value.Str("x")})}, false,
			"n\n(:P {a: 1, b: 'x'})"},
		{"schemaless values", []string{"CREATE (:V {v: 1}), (:V {v: 'one'}), (:V {v: [1, 2]}), (:V {v: 1.5}), (:V {v: true})"},
			"MATCH (n:V) RETURN n.v ORDER BY n.v", nil, true, "n.v\n[1, 2]\n'one'\ntrue\n1\n1.5"},
		{"schemaless equality", []string{"CREATE (:V {v: 1}), (:V {v: 'one'}), (:V {v: 1.0})"},
			"MATCH (n:V {v: 1}) RETURN n.v", nil, false, "n.v\n1\n1.0"},
		{"pushed ranges", []string{"CREATE (:V {v: 1}), (:V {v: 1.5}), (:V {v: 2}), (:V {v: 'x'}), (:V {v: 0.5})"},
			"MATCH (n:V) WHERE n.v >= 1.0 AND 2 >= n.v RETURN n.v", nil, false, "n.v\n1\n1.5\n2"},
		{"pushed strict ranges", []string{"CREATE (:V {v: 1}), (:V {v: 1.5}), (:V {v: 2}), (:V {v: 'x'})"},
			"MATCH (n:V) WHERE n.v > 1 AND n.v < $hi RETURN n.v", map[string]value.Value{"hi": value.Float(2)}, false, "n.v\n1.5"},
		{"overwrite kind", []string{"CREATE (:V {v: 1})", "MATCH (n:V) SET n.v = 'one'"},
			"MATCH (n:V) RETURN n", nil, false, "n\n(:V {v: 'one'})"},
		{"invalid property", nil, "CREATE (n {m: {a: 1}})", nil, false, "error TypeError/InvalidPropertyType"},
	})
}

func TestState(t *testing.T) {
	onEvery(t, func(t *testing.T, e *Engine) error {
		if _, err := e.Run(t.Context(), people[0], nil); err != nil {
			return err
		}
		st, err := e.State()
		if err != nil {
			return err
		}
		if len(st.Nodes) != 4 || len(st.Relationships) != 4 {
			t.Errorf("rank %d: state has %d nodes and %d relationships, want 4 and 4", e.comm.Rank(), len(st.Nodes), len(st.Relationships))
		}
		for _, n := range st.Nodes {
			if n.Properties["name"] == "'Cid'" && (len(n.Labels) != 2 || n.Properties["age"] != "35") {
				t.Errorf("rank %d: Cid is %+v", e.comm.Rank(), n)
			}
		}
		return nil
	})
}
