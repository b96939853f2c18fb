package parse

import "testing"

// TestQueries checks the canonical form of whole queries: patterns and
// every clause.
func TestQueries(t *testing.T) {
	tests := []struct{ in, want string }{
		// Patterns.
		{"MATCH (n) RETURN n", "MATCH (n) RETURN n"},
		{"MATCH () RETURN 1", "MATCH () RETURN 1"},
		{"MATCH (n:A:B {name: 'x', age: $a}) RETURN n", "MATCH (n:A:B {name: 'x', age: $a}) RETURN n"},
		{"MATCH (:A) RETURN 1", "MATCH (:A) RETURN 1"},
		{"MATCH ({k: 1}) RETURN 1", "MATCH ({k: 1}) RETURN 1"},
		{"MATCH (me: Person)--(you: Person) RETURN me", "MATCH (me:Person)--(you:Person) RETURN me"},
		{"MATCH (a)-->(b)<--(c)--(d)<-->(e) RETURN a", "MATCH (a)-->(b)<--(c)--(d)<-->(e) RETURN a"},
		{"MATCH (a)-[r]->(b) RETURN r", "MATCH (a)-[r]->(b) RETURN r"},
		{"MATCH (a)<-[r:T]-(b) RETURN r", "MATCH (a)<-[r:T]-(b) RETURN r"},
		{"MATCH (a)-[:T|:U]-(b) RETURN a", "MATCH (a)-[:T|U]-(b) RETURN a"},
		{"MATCH (a)-[:T|U]-(b) RETURN a", "MATCH (a)-[:T|U]-(b) RETURN a"},
		{"MATCH (a)-[]-(b) RETURN a", "MATCH (a)--(b) RETURN a"},
		{"MATCH (a)-[*]->(b) RETURN a", "MATCH (a)-[*]->(b) RETURN a"},
		{"MATCH (a)-[*2]->(b) RETURN a", "MATCH (a)-[*2]->(b) RETURN a"},
		{"MATCH (a)-[*1..3]->(b) RETURN a", "MATCH (a)-[*1..3]->(b) RETURN a"},
		{"MATCH (a)-[*..3]->(b) RETURN a", "MATCH (a)-[*..3]->(b) RETURN a"},
		{"MATCH (a)-[*2..]->(b) RETURN a", "MATCH (a)-[*2..]->(b) RETURN a"},
		{"MATCH (a)-[* 0 .. 0x3]->(b) RETURN a", "MATCH (a)-[*0..3]->(b) RETURN a"},
		{"MATCH (a)-[*..]->(b) RETURN a", "MATCH (a)-[*]->(b) RETURN a"},
		{"MATCH (a)-[r:KNOWS*1..2 {since: 2000}]->(b) RETURN r", "MATCH (a)-[r:KNOWS*1..2 {since: 2000}]->(b) RETURN r"},
		{"MATCH (a)-[r $props]->(b) RETURN r", "MATCH (a)-[r $props]->(b) RETURN r"},
		{"MATCH p = (a)-->(b) RETURN p", "MATCH p = (a)-->(b) RETURN p"},
		{"MATCH p=(a), q = ()-->() RETURN p, q", "MATCH p = (a), q = ()-->() RETURN p, q"},
		{"MATCH (`weird name`:`a label`) RETURN `weird name`", "MATCH (`weird name`:`a label`) RETURN `weird name`"},
		{"MATCH (n:Match) RETURN n.return", "MATCH (n:`Match`) RETURN n.`return`"},
		// Clauses.
		{"optional match (n) return n", "OPTIONAL MATCH (n) RETURN n"},
		{"MATCH (n) WHERE n.age > 30 AND n:Person RETURN n", "MATCH (n) WHERE (n.age > 30) AND (n:Person) RETURN n"},
		{"MATCH (n) OPTIONAL MATCH (n)-->(m) WHERE m.x IS NULL RETURN m", "MATCH (n) OPTIONAL MATCH (n)-->(m) WHERE m.x IS NULL RETURN m"},
		{"UNWIND [1, 2] AS x RETURN x", "UNWIND [1, 2] AS x RETURN x"},
		{"WITH 1 AS a WHERE a > 0 RETURN a", "WITH 1 AS a WHERE a > 0 RETURN a"},
		{"MATCH (n) WITH n ORDER BY n.x DESC SKIP 1 LIMIT 2 WHERE n.y RETURN n", "MATCH (n) WITH n ORDER BY n.x DESC SKIP 1 LIMIT 2 WHERE n.y RETURN n"},
		{"RETURN DISTINCT a AS b", "RETURN DISTINCT a AS b"},
		{"MATCH (n) RETURN *", "MATCH (n) RETURN *"},
		{"MATCH (n) RETURN *, n.x AS y", "MATCH (n) RETURN *, n.x AS y"},
		{"MATCH (n) RETURN n ORDER BY n.a ASC, n.b ascending, n.c DESCENDING, n.d desc", "MATCH (n) RETURN n ORDER BY n.a, n.b, n.c DESC, n.d DESC"},
		{"MATCH (n) RETURN n SKIP $s LIMIT 1 + 1", "MATCH (n) RETURN n SKIP $s LIMIT 1 + 1"},
		{"MATCH (n) RETURN n LIMIT 1", "MATCH (n) RETURN n LIMIT 1"},
		{"CREATE (a:A {x: 1})-[:T {y: 2}]->(b), (c)", "CREATE (a:A {x: 1})-[:T {y: 2}]->(b), (c)"},
		{"CREATE p = (a)-[:T]->(b) RETURN p", "CREATE p = (a)-[:T]->(b) RETURN p"},
		{"CREATE (n $props)", "CREATE (n $props)"},
		{"MATCH (n) SET n.p = 1, n = {a: 1}, n += {b: 2}, n:L:M", "MATCH (n) SET n.p = 1, n = {a: 1}, n += {b: 2}, n:L:M"},
		{"MATCH (n) SET n.a.b = 1", "MATCH (n) SET n.a.b = 1"},
		{"MATCH (n) SET (n).p = 1", "MATCH (n) SET n.p = 1"},
		{"MATCH (n) REMOVE n.p, n:L:M", "MATCH (n) REMOVE n.p, n:L:M"},
		{"MATCH (n) DELETE n", "MATCH (n) DELETE n"},
		{"MATCH (n)-[r]-() DELETE r, n", "MATCH (n)-[r]-() DELETE r, n"},
		{"MATCH (n) DETACH DELETE n", "MATCH (n) DETACH DELETE n"},
		{"MATCH (n) DELETE n:Person", "MATCH (n) DELETE n:Person"},
		{"CREATE (a) CREATE (b) SET a.x = 1 WITH a MATCH (c) RETURN c", "CREATE (a) CREATE (b) SET a.x = 1 WITH a MATCH (c) RETURN c"},
		{"CREATE (a) RETURN a", "CREATE (a) RETURN a"},
		{"MATCH (a) WITH a MATCH (b) WITH a, b RETURN a, b", "MATCH (a) WITH a MATCH (b) WITH a, b RETURN a, b"},
		{"RETURN 1 AS x UNION RETURN 2 AS x", "RETURN 1 AS x UNION RETURN 2 AS x"},
		{"RETURN 1 AS x UNION ALL RETURN 2 AS x UNION RETURN 3 AS x", "RETURN 1 AS x UNION ALL RETURN 2 AS x UNION RETURN 3 AS x"},
		{"RETURN 1;", "RETURN 1"},
		{"return 1 as `end`", "RETURN 1 AS `end`"},
		{"MATCH (n) RETURN n.name, count(*) AS c", "MATCH (n) RETURN n.name, count(*) AS c"},
		{"MATCH (advertiser)-[:ADV_HAS_PRODUCT]->(out)-[:AP_HAS_VALUE]->(red)<-[:AA_HAS_VALUE]-(a) WHERE advertiser.id = $1 AND a.id = $2 RETURN out.name",
			"MATCH (advertiser)-[:ADV_HAS_PRODUCT]->(out)-[:AP_HAS_VALUE]->(red)<-[:AA_HAS_VALUE]-(a) WHERE (advertiser.id = $1) AND (a.id = $2) RETURN out.name"},
	}
	for _, tt := range tests {
		q, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if got := q.String(); got != tt.want {
			t.Errorf("Parse(%q)\n got  %s\n want %s", tt.in, got, tt.want)
		}
		if msg := checkRoundTrip(q); msg != "" {
			t.Errorf("%q: %s", tt.in, msg)
		}
	}
}

// TestQueryTree checks the AST of a query with every clause kind.
func TestQueryTree(t *testing.T) {
	q, err := Parse(`MATCH p = (a:A {x: 1})-[r:T|U*2..]->(b)
OPTIONAL MATCH (b)<-[s]-(c)
WITH DISTINCT a, count(*) AS n ORDER BY n DESC SKIP 1 LIMIT 10 WHERE n > 1
UNWIND [1] AS i
CREATE (a)-[:NEW]->(:B)
SET a.x = i, a += {y: 2}, a:C
REMOVE a.z, a:D
DETACH DELETE c
RETURN a.x AS x, n`)
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Parts) != 1 || len(q.Unions) != 0 {
		t.Fatalf("parts %d unions %d", len(q.Parts), len(q.Unions))
	}
	cs := q.Parts[0].Clauses
	if len(cs) != 9 {
		t.Fatalf("%d clauses, want 9", len(cs))
	}
	m := cs[0].(*Match)
	part := m.Pattern.Parts[0]
	if part.Var.Name != "p" || len(part.Nodes) != 2 || len(part.Rels) != 1 {
		t.Fatalf("part = %+v", part)
	}
	r := part.Rels[0]
	if r.Var.Name != "r" || len(r.Types) != 2 || r.Direction != LeftToRight || r.Length.MinHops() != 2 || r.Length.MaxHops() != -1 {
		t.Errorf("rel = %+v len %+v", r, r.Length)
	}
	if n := part.Nodes[0]; n.Var.Name != "a" || n.Labels[0] != "A" || n.Properties.(*MapLit).Entries[0].Key != "x" {
		t.Errorf("node = %+v", n)
	}
	if om := cs[1].(*Match); !om.Optional || om.Pattern.Parts[0].Rels[0].Direction != RightToLeft {
		t.Errorf("optional match = %v", om)
	}
	w := cs[2].(*With)
	if !w.Projection.Distinct || len(w.Projection.Items) != 2 || w.Projection.Items[1].Alias.Name != "n" ||
		!w.Projection.OrderBy[0].Descending || w.Projection.Skip == nil || w.Projection.Limit == nil || w.Where == nil {
		t.Errorf("with = %v", w)
	}
	if it := w.Projection.Items[0]; it.Alias != nil || it.Name() != "a" || it.Text != "a" {
		t.Errorf("item = %+v", it)
	}
	if u := cs[3].(*Unwind); u.Var.Name != "i" {
		t.Errorf("unwind = %v", u)
	}
	if c := cs[4].(*Create); len(c.Pattern.Parts[0].Rels) != 1 {
		t.Errorf("create = %v", c)
	}
	s := cs[5].(*Set)
	if _, ok := s.Items[0].(*SetProperty); !ok {
		t.Errorf("set item 0 = %T", s.Items[0])
	}
	if _, ok := s.Items[1].(*MergeProperties); !ok {
		t.Errorf("set item 1 = %T", s.Items[1])
	}
	if sl, ok := s.Items[2].(*SetLabels); !ok || sl.Labels[0] != "C" {
		t.Errorf("set item 2 = %T", s.Items[2])
	}
	rm := cs[6].(*Remove)
	if _, ok := rm.Items[0].(*RemoveProperty); !ok {
		t.Errorf("remove item 0 = %T", rm.Items[0])
	}
	if _, ok := rm.Items[1].(*RemoveLabels); !ok {
		t.Errorf("remove item 1 = %T", rm.Items[1])
	}
	if d := cs[7].(*Delete); !d.Detach || len(d.Exprs) != 1 {
		t.Errorf("delete = %v", d)
	}
	ret := cs[8].(*Return)
	if ret.Projection.Items[0].Name() != "x" || ret.Projection.Items[0].Text != "a.x" {
		t.Errorf("return = %+v", ret.Projection.Items[0])
	}
	if p := ret.Position(); p.Line != 9 || p.Column != 1 {
		t.Errorf("RETURN at %+v, want 9:1", p)
	}
	if p := part.Nodes[1].Position(); p.Line != 1 || p.Column != 37 {
		t.Errorf("(b) at %+v, want 1:37", p)
	}
}

// TestProjectionText checks that unaliased items keep their source text,
// which is the column name.
func TestProjectionText(t *testing.T) {
	q, err := Parse("MATCH (n) RETURN n.name, count( * ), 1+2 AS three, toUpper( n.x )  ")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, it := range q.Parts[0].Clauses[1].(*Return).Projection.Items {
		names = append(names, it.Name())
	}
	want := []string{"n.name", "count( * )", "three", "toUpper( n.x )"}
	for i := range want {
		if names[i] != want[i] {
			t.Errorf("column %d = %q, want %q", i, names[i], want[i])
		}
	}
}
