package check

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// scopeString renders a scope as "name:kind" in order.
func scopeString(vars []Var) string {
	parts := make([]string, len(vars))
	for i, v := range vars {
		parts[i] = v.Name + ":" + v.Kind.String()
	}
	return strings.Join(parts, " ")
}

// TestInfoScopes checks the variables in scope after each clause.
func TestInfoScopes(t *testing.T) {
	info, detail := checkQuery(t, `MATCH p = (a)-[r]->(b)-[rs*]->(c)
		UNWIND [1] AS x
		WITH a, r AS rel, p, rs, x + 1 AS y, b.name AS name
		CREATE (a)-[s:T]->(d)
		RETURN *`)
	if detail != "" {
		t.Fatalf("rejected: %s", detail)
	}
	want := []string{
		"a:node r:relationship b:node rs:relationship list c:node p:path",
		"a:node r:relationship b:node rs:relationship list c:node p:path x:value",
		"a:node rel:relationship p:path rs:relationship list y:value name:value",
		"a:node rel:relationship p:path rs:relationship list y:value name:value s:relationship d:node",
		"a:node d:node name:value p:path rel:relationship rs:relationship list s:relationship y:value",
	}
	clauses := info.Parts[0].Clauses
	if len(clauses) != len(want) {
		t.Fatalf("%d clauses, want %d", len(clauses), len(want))
	}
	for i, ci := range clauses {
		if got := scopeString(ci.Scope); got != want[i] {
			t.Errorf("after clause %d (%T): %s\nwant %s", i+1, ci.Clause, got, want[i])
		}
	}
	if got := strings.Join(info.Columns, " "); got != "a d name p rel rs s y" {
		t.Errorf("columns %s", got)
	}
}

// TestInfoProjection checks aggregation and grouping keys of projections.
func TestInfoProjection(t *testing.T) {
	info, detail := checkQuery(t, `MATCH (n)
		WITH DISTINCT n
		RETURN n.x AS x, count(*) + 1 AS c, n`)
	if detail != "" {
		t.Fatalf("rejected: %s", detail)
	}
	with := info.Parts[0].Clauses[1].Projection
	if !with.Distinct || with.Aggregating || !with.Items[0].GroupingKey {
		t.Errorf("WITH: %+v %+v", with, with.Items[0])
	}
	ret := info.Parts[0].Clauses[2].Projection
	var got []string
	for _, it := range ret.Items {
		got = append(got, fmt.Sprintf("%s:%v:%v:%v", it.Name, it.Aggregate, it.GroupingKey, it.Type))
	}
	want := []string{"x:false:true:Any", "c:true:false:Integer", "n:false:true:Node"}
	if !ret.Aggregating || !slices.Equal(got, want) {
		t.Errorf("RETURN aggregating=%v items %v, want %v", ret.Aggregating, got, want)
	}
}

// TestInfoUnion checks the parts and columns of a UNION, and of an
// updating query.
func TestInfoUnion(t *testing.T) {
	info, _ := checkQuery(t, "RETURN 1 AS a UNION RETURN 2 AS a")
	if len(info.Parts) != 2 || !slices.Equal(info.Columns, []string{"a"}) {
		t.Errorf("union: %d parts, columns %v", len(info.Parts), info.Columns)
	}
	info, _ = checkQuery(t, "CREATE (n)")
	if info.Columns != nil {
		t.Errorf("CREATE has columns %v", info.Columns)
	}
}

// TestTypeString checks the rendering of types used in messages.
func TestTypeString(t *testing.T) {
	for typ, want := range map[Type]string{
		TAny: "Any", TInteger | TFloat: "Integer|Float", 0: "Nothing", TList: "List",
	} {
		if got := typ.String(); got != want {
			t.Errorf("%d: %q, want %q", typ, got, want)
		}
	}
	for _, c := range []struct{ l, r, want Type }{
		{TInteger, TInteger, TInteger}, {TInteger, TFloat, TFloat},
		{TNumber, TInteger, TNumber}, {TString, TInteger, TAny}, {TInteger | TNull, TInteger, TInteger},
	} {
		if got := arithmetic(c.l, c.r); got != c.want {
			t.Errorf("arithmetic(%v, %v) = %v, want %v", c.l, c.r, got, c.want)
		}
	}
}

// TestErrorPosition checks that an error points at the offending token.
func TestErrorPosition(t *testing.T) {
	q := "MATCH (a)\nRETURN a, foo"
	pq := mustParse(t, q)
	_, err := Check(pq)
	if err == nil || err.Error() != "line 2, column 11: variable foo is not defined" {
		t.Errorf("got %v", err)
	}
}
