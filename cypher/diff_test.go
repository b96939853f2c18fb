package cypher

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gdi-go/gdi/cypher/internal/backendtest"
	"github.com/gdi-go/gdi/cypher/parse"
	"github.com/gdi-go/gdi/cypher/value"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// The differential test (issue 36): random graphs and random statements
// from a small grammar of the subset, run on refdb (1 rank) and on gdirma
// (1, 2 and 4 ranks); every backend must give the same outcome for every
// statement, results or errors by category and detail.
//
//	go test -run TestDiff ./cypher                  # the fixed seeds
//	go test -run TestDiff ./cypher -args -diff.seeds 500  # seeds 1..500
//	go test -run TestDiff ./cypher -args -diff.seed 1234  # one seed

var (
	diffSeeds = flag.Int("diff.seeds", 0, "run TestDiff on N seeds from -diff.first instead of the fixed set")
	diffFirst = flag.Uint64("diff.first", 1, "the first seed of -diff.seeds")
	diffSeed  = flag.Uint64("diff.seed", 0, "run TestDiff on this seed alone")
)

// diffBackends are the drivers and numbers of ranks compared; the first is
// the reference.
var diffBackends = append(slices.Clip(backendtest.All), backendtest.Backend{Name: "gdirma", Driver: gdirma.Driver{}, Ranks: 4})

// diffStatements is the number of statements after the graph's CREATE.
const diffStatements = 80

// diffStmt is a generated statement and how to compare its results.
type diffStmt struct {
	query string
	// ordered: the rows are compared in order (ORDER BY covers every
	// column and no column has values whose order is not determined).
	ordered bool
	// sorted are the columns holding collect() lists, whose order
	// follows the order of the rows, which no backend fixes: their
	// elements are compared as sorted.
	sorted []int
	// approx are the columns holding avg(), whose last bits depend on the
	// order of the rows (a running mean): compared to 12 digits.
	approx []int
}

func TestDiff(t *testing.T) {
	seeds := []uint64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	switch {
	case *diffSeed != 0:
		seeds = []uint64{*diffSeed}
	case *diffSeeds > 0:
		seeds = nil
		for s := range *diffSeeds {
			seeds = append(seeds, *diffFirst+uint64(s))
		}
	case !testing.Short() && !raceEnabled:
		for s := uint64(11); s <= 60; s++ {
			seeds = append(seeds, s)
		}
	}
	total, errs := 0, map[string]int{}
	for _, seed := range seeds {
		stmts := diffScript(seed, diffStatements)
		for _, s := range stmts {
			diffRoundTrip(t, seed, s.query)
		}
		outs := diffRun(t, seed, stmts)
		if len(outs) != len(diffBackends) {
			continue
		}
		total += len(stmts)
		reported := make([]bool, len(outs))
		for i, s := range stmts {
			if o := outs[0][i]; strings.HasPrefix(o, "error ") {
				errs[o]++
			}
			for b := 1; b < len(outs); b++ {
				if !reported[b] && outs[b][i] != outs[0][i] {
					t.Errorf("seed %d, statement %d:\n%s\n%v:\n%s\n%v:\n%s", seed, i, s.query,
						diffBackends[0], outs[0][i], diffBackends[b], outs[b][i])
					reported[b] = true // later statements follow from this one: report once
				}
			}
		}
	}
	t.Logf("%d seeds, %d statements on %d backends; errors (same on all): %v", len(seeds), total, len(diffBackends), errs)
}

// diffRoundTrip checks that the statement parses and that the printed
// form of its AST parses to the same AST.
func diffRoundTrip(t *testing.T, seed uint64, query string) {
	t.Helper()
	q, err := parse.Parse(query)
	if err != nil {
		t.Errorf("seed %d: generated statement does not parse: %v\n%s", seed, err, query)
		return
	}
	text := parse.Format(q)
	q2, err := parse.Parse(text)
	if err != nil {
		t.Errorf("seed %d: printed statement does not parse: %v\n%s\nprinted:\n%s", seed, err, query, text)
		return
	}
	if !parse.Equal(q, q2) {
		t.Errorf("seed %d: printed statement parses to another AST:\n%s\nprinted:\n%s", seed, query, text)
	}
}

// diffRun runs the statements on a fresh database of every backend and
// returns, per backend, the outcome of each statement as text; the ranks
// of a backend must agree.
func diffRun(t *testing.T, seed uint64, stmts []diffStmt) [][]string {
	t.Helper()
	var all [][]string
	for _, b := range diffBackends {
		var mu sync.Mutex
		var outs [][]string
		err := local.Run(b.Ranks, func(c rma.Comm) error {
			return withEngine(c, b.Driver, func(e *Engine, _ gdi.Database) error {
				texts := make([]string, len(stmts))
				for i, s := range stmts {
					res, err := e.Run(context.Background(), s.query, nil)
					texts[i] = diffOutcome(res, err, s)
				}
				mu.Lock()
				outs = append(outs, texts)
				mu.Unlock()
				return nil
			})
		})
		if err != nil {
			t.Errorf("seed %d: %v: %v", seed, b, err)
			return nil
		}
		for _, o := range outs[1:] {
			if !slices.Equal(o, outs[0]) {
				for i := range o {
					if o[i] != outs[0][i] {
						t.Errorf("seed %d: %v: the ranks disagree on\n%s\n%s\n%s", seed, b, stmts[i].query, outs[0][i], o[i])
						break
					}
				}
			}
		}
		all = append(all, outs[0])
	}
	return all
}

// diffOutcome is the text compared: the columns and the rows (sorted
// unless the statement is ordered), or the error as outcomeText gives it.
func diffOutcome(res *Result, err error, s diffStmt) string {
	if err != nil {
		return outcomeText(nil, err, false)
	}
	var lines []string
	for i, r := range res.Strings() {
		for _, j := range s.sorted {
			if j < len(r) && res.Rows[i][j].Kind() == value.KindList {
				var elems []string
				for _, v := range res.Rows[i][j].List() {
					elems = append(elems, res.Format(v))
				}
				slices.Sort(elems)
				r[j] = "sorted[" + strings.Join(elems, ", ") + "]"
			}
		}
		for _, j := range s.approx {
			if j < len(r) && res.Rows[i][j].Kind() == value.KindFloat {
				r[j] = "~" + strconv.FormatFloat(res.Rows[i][j].Float(), 'g', 12, 64)
			}
		}
		lines = append(lines, strings.Join(r, " | "))
	}
	if !s.ordered {
		slices.Sort(lines)
	}
	return strings.Join(append([]string{strings.Join(res.Columns, " | ")}, lines...), "\n")
}

// diffScript is the script of a seed: the CREATE of a random graph, then
// n statements, reads with a write now and then.
func diffScript(seed uint64, n int) []diffStmt {
	g := &diffGen{r: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))}
	stmts := []diffStmt{{query: g.graph()}}
	for range n {
		if g.r.IntN(6) == 0 {
			stmts = append(stmts, g.write())
		} else {
			stmts = append(stmts, g.read())
		}
	}
	return stmts
}

// diffGen generates statements from a seeded source.
type diffGen struct {
	r     *rand.Rand
	nodes int // the number of nodes of the graph, named 'n0'…
	// the variables in scope while a statement is generated
	nvars, rvars, vvars []string
	fresh               int
	// risky: the statement has an expression that can fail on some
	// values (x + 1, sum, avg). A second one would make the error depend
	// on which row comes first, which no backend fixes.
	risky bool
}

// risk reports whether a failing expression may be added, and notes it.
func (g *diffGen) risk() bool {
	if g.risky {
		return false
	}
	g.risky = true
	return true
}

func (g *diffGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }
func (g *diffGen) chance(n int) bool        { return g.r.IntN(n) == 0 }

var (
	diffLabels = []string{"A", "B", "C"}
	diffTypes  = []string{"R", "S"}
	diffKeys   = []string{"x", "y", "name"}
	// Floats are dyadic and never whole: sums do not depend on the order
	// of the rows, and no float equals an integer.
	diffFloats  = []string{"-1.5", "0.5", "1.25", "2.5", "3.75"}
	diffStrings = []string{"''", "'a'", "'ab'", "'abc'", "'b'", "'ba'", "'B'", "'n1'"}
)

// scalar is a literal of a random kind: integer, float, string, boolean.
func (g *diffGen) scalar(kind int) string {
	switch kind {
	case 0:
		return fmt.Sprint(g.r.IntN(10) - 3)
	case 1:
		return g.pick(diffFloats...)
	case 2:
		return g.pick(diffStrings...)
	default:
		return g.pick("true", "false")
	}
}

// propValue is a value a property can hold: a scalar or a homogeneous list.
func (g *diffGen) propValue() string {
	if g.chance(8) {
		k := g.r.IntN(4)
		var xs []string
		for range g.r.IntN(4) {
			xs = append(xs, g.scalar(k))
		}
		return "[" + strings.Join(xs, ", ") + "]"
	}
	// integers most, then strings, floats and booleans
	return g.scalar([]int{0, 0, 0, 0, 1, 1, 2, 2, 2, 3}[g.r.IntN(10)])
}

// literal is any literal of an expression: a property value, null, or a
// mixed list.
func (g *diffGen) literal() string {
	switch g.r.IntN(8) {
	case 0:
		return "null"
	case 1:
		return g.mixedList()
	}
	return g.propValue()
}

func (g *diffGen) mixedList() string { return g.mixedListOf(g.r.IntN(5)) }

// mixedListOf is a list of n scalars of mixed kinds and nulls.
func (g *diffGen) mixedListOf(n int) string {
	var xs []string
	for range n {
		if g.chance(6) {
			xs = append(xs, "null")
		} else {
			xs = append(xs, g.scalar(g.r.IntN(4)))
		}
	}
	return "[" + strings.Join(xs, ", ") + "]"
}

// propMap is a map of 0-3 of the keys, or "" when empty; name is the
// node's name, or "".
func (g *diffGen) propMap(name string) string {
	var kv []string
	for _, k := range diffKeys {
		if g.chance(4) {
			continue
		}
		v := g.propValue()
		if k == "name" && name != "" && !g.chance(4) {
			v = name
		}
		kv = append(kv, k+": "+v)
	}
	if len(kv) == 0 {
		return ""
	}
	return " {" + strings.Join(kv, ", ") + "}"
}

// graph is the CREATE of 20-40 nodes and 40-80 relationships.
func (g *diffGen) graph() string {
	g.nodes = 20 + g.r.IntN(21)
	var parts []string
	for i := range g.nodes {
		labels := ":" + g.pick(diffLabels...)
		if g.chance(3) {
			if l := ":" + g.pick(diffLabels...); l != labels {
				labels += l
			}
		}
		parts = append(parts, fmt.Sprintf("(n%d%s%s)", i, labels, g.propMap(fmt.Sprintf("'n%d'", i))))
	}
	for range 40 + g.r.IntN(41) {
		props := ""
		if g.chance(2) {
			props = g.propMap("")
		}
		parts = append(parts, fmt.Sprintf("(n%d)-[:%s%s]->(n%d)", g.r.IntN(g.nodes), g.pick(diffTypes...), props, g.r.IntN(g.nodes)))
	}
	return "CREATE " + strings.Join(parts, ",\n  ")
}

// nodeName is the name of a random node of the graph, as a literal.
func (g *diffGen) nodeName() string { return fmt.Sprintf("'n%d'", g.r.IntN(g.nodes+2)) }

func (g *diffGen) reset() {
	g.nvars, g.rvars, g.vvars, g.fresh, g.risky = nil, nil, nil, 0, false
}

func (g *diffGen) newVar(prefix string) string {
	g.fresh++
	return fmt.Sprintf("%s%d", prefix, g.fresh)
}

// node is a node pattern: a new variable, or, with reuse, often one in
// scope (a join).
func (g *diffGen) node(reuse bool) string {
	if len(g.nvars) > 0 && (reuse && g.chance(2) || g.chance(12)) {
		return "(" + g.pick(g.nvars...) + ")"
	}
	v := g.newVar("n")
	g.nvars = append(g.nvars, v)
	s := v
	if !g.chance(3) {
		s += ":" + g.pick(diffLabels...)
	}
	if g.chance(12) {
		s += fmt.Sprintf(" {%s: %s}", g.pick(diffKeys...), g.propValue())
	}
	return "(" + s + ")"
}

// rel is a relationship pattern with its direction; varLen allows *1..2.
func (g *diffGen) rel(varLen bool) string {
	var s string
	long := varLen && g.chance(4)
	if !long && !g.chance(3) {
		v := g.newVar("r")
		g.rvars = append(g.rvars, v)
		s = v
	}
	switch g.r.IntN(4) {
	case 0:
		s += ":R"
	case 1:
		s += ":S"
	case 2:
		s += ":R|S"
	}
	if long {
		s += g.pick("*1..2", "*2", "*0..1", "*..2")
	} else if g.chance(12) {
		s += fmt.Sprintf(" {x: %s}", g.propValue())
	}
	if s == "" && g.chance(2) {
		return g.pick("-->", "<--", "--")
	}
	switch g.r.IntN(3) {
	case 0:
		return "-[" + s + "]->"
	case 1:
		return "<-[" + s + "]-"
	}
	return "-[" + s + "]-"
}

// pattern is 1-2 pattern parts with at most two relationships in all, at
// most one of variable length.
func (g *diffGen) pattern() string {
	var parts []string
	rels, long := 0, false
	for i := range 1 + g.r.IntN(2) {
		p := g.node(i > 0)
		for range g.r.IntN(3 - rels) {
			r := g.rel(!long)
			long = long || strings.Contains(r, "*")
			rels++
			p += r + g.node(false)
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ", ")
}

// atom is a property of a variable in scope, a value variable or a
// literal.
func (g *diffGen) atom() string {
	ents := append(append([]string{}, g.nvars...), g.rvars...)
	switch {
	case len(g.vvars) > 0 && g.chance(3):
		return g.pick(g.vvars...)
	case len(ents) > 0 && !g.chance(10):
		return g.pick(ents...) + "." + g.pick(diffKeys...)
	}
	return g.literal()
}

// pred is a random predicate of nesting depth at most d.
func (g *diffGen) pred(d int) string {
	if d > 0 && g.chance(2) {
		switch g.r.IntN(4) {
		case 0:
			return "NOT (" + g.pred(d-1) + ")"
		default:
			return "(" + g.pred(d-1) + ") " + g.pick("AND", "OR", "XOR") + " (" + g.pred(d-1) + ")"
		}
	}
	switch g.r.IntN(8) {
	case 0:
		return g.atom() + g.pick(" IS NULL", " IS NOT NULL")
	case 1:
		return g.atom() + " IN " + g.mixedList()
	case 2:
		return g.atom() + g.pick(" STARTS WITH ", " ENDS WITH ", " CONTAINS ") + g.pick(append(diffStrings, "null")...)
	case 3:
		if len(g.nvars) > 0 {
			return g.pick(g.nvars...) + ":" + g.pick(diffLabels...)
		}
	case 4:
		if len(g.nvars) > 0 {
			n := g.pick(g.nvars...)
			return n + ".name = " + g.nodeName()
		}
	}
	right := g.atom()
	if g.chance(2) {
		right = g.scalar(g.r.IntN(4))
	}
	return g.atom() + g.pick(" = ", " <> ", " < ", " <= ", " > ", " >= ") + right
}

// item is one column of a projection.
type item struct {
	expr     string
	unstable bool // entities: ordered by id, which differs by backend
	collect  bool
	sum      bool // sum or avg: 2 and 2.0 tie when ordered
	approx   bool // avg: a running mean, whose last bits follow the row order
	agg      bool
}

func (g *diffGen) plainItem() item {
	ents := append(append([]string{}, g.nvars...), g.rvars...)
	switch g.r.IntN(8) {
	case 0:
		if len(ents) > 0 {
			return item{expr: g.pick(ents...), unstable: true}
		}
	case 1:
		if len(g.rvars) > 0 {
			return item{expr: "type(" + g.pick(g.rvars...) + ")"}
		}
	case 2:
		if g.risk() {
			return item{expr: g.atom() + " + 1"}
		}
	case 3:
		return item{expr: "(" + g.pred(1) + ")"}
	}
	return item{expr: g.atom()}
}

func (g *diffGen) aggItem(inWith bool) item {
	arg := g.atom()
	switch g.r.IntN(8) {
	case 0:
		return item{expr: "count(*)", agg: true}
	case 1:
		return item{expr: "count(" + arg + ")", agg: true}
	case 2:
		return item{expr: "count(DISTINCT " + arg + ")", agg: true}
	case 3:
		if g.risk() {
			return item{expr: "sum(" + arg + ")", agg: true, sum: true}
		}
	case 4:
		if !inWith && g.risk() {
			return item{expr: "avg(" + arg + ")", agg: true, sum: true, approx: true}
		}
	case 5:
		return item{expr: "min(" + arg + ")", agg: true}
	case 6:
		if !inWith {
			return item{expr: g.pick("collect(", "collect(DISTINCT ") + arg + ")", agg: true, collect: true}
		}
	}
	return item{expr: "max(" + arg + ")", agg: true}
}

// projection is the items of a RETURN or WITH.
func (g *diffGen) projection(inWith bool) []item {
	var items []item
	if g.chance(2) { // aggregation
		for range g.r.IntN(3) {
			items = append(items, g.plainItem())
		}
		for range 1 + g.r.IntN(2) {
			items = append(items, g.aggItem(inWith))
		}
	} else {
		for range 1 + g.r.IntN(3) {
			items = append(items, g.plainItem())
		}
	}
	return items
}

// read is a reading statement.
func (g *diffGen) read() diffStmt {
	g.reset()
	var b strings.Builder
	if g.chance(4) {
		u := g.newVar("u")
		fmt.Fprintf(&b, "UNWIND %s AS %s ", g.mixedListOf(1+g.r.IntN(4)), u)
		g.vvars = append(g.vvars, u)
	}
	fmt.Fprintf(&b, "MATCH %s ", g.pattern())
	if g.chance(2) {
		fmt.Fprintf(&b, "WHERE %s ", g.pred(g.r.IntN(3)))
	}
	if g.chance(5) {
		n := g.pick(g.nvars...)
		r := g.rel(false)
		m := g.newVar("n")
		g.nvars = append(g.nvars, m)
		fmt.Fprintf(&b, "OPTIONAL MATCH (%s)%s(%s) ", n, r, m)
		if g.chance(2) {
			fmt.Fprintf(&b, "WHERE %s ", g.pred(1))
		}
	}
	if g.chance(6) {
		u := g.newVar("u")
		fmt.Fprintf(&b, "UNWIND [%s, %s] AS %s ", g.atom(), g.atom(), u)
		g.vvars = append(g.vvars, u)
	}
	if g.chance(3) {
		g.with(&b)
	}
	items := g.projection(false)
	distinct := ""
	if !items[len(items)-1].agg && g.chance(3) {
		distinct = "DISTINCT "
	}
	var cols, order []string
	st := diffStmt{ordered: true}
	for i, it := range items {
		c := fmt.Sprintf("c%d", i)
		cols = append(cols, it.expr+" AS "+c)
		order = append(order, c+g.pick("", " ASC", " DESC"))
		if it.unstable || it.collect || it.sum {
			st.ordered = false
		}
		if it.collect {
			st.sorted = append(st.sorted, i)
		}
		if it.approx {
			st.approx = append(st.approx, i)
		}
	}
	g.r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	fmt.Fprintf(&b, "RETURN %s%s", distinct, strings.Join(cols, ", "))
	if st.ordered || g.chance(2) {
		fmt.Fprintf(&b, " ORDER BY %s", strings.Join(order, ", "))
	}
	if st.ordered && g.chance(2) {
		if g.chance(3) {
			fmt.Fprintf(&b, " SKIP %d", g.r.IntN(3))
		}
		fmt.Fprintf(&b, " LIMIT %d", g.r.IntN(8))
	}
	st.query = b.String()
	return st
}

// with adds WITH … [WHERE …] and replaces the scope with its columns.
func (g *diffGen) with(b *strings.Builder) {
	var cols, nv, rv, vv []string
	if g.chance(2) { // aggregation: values only
		for i := range 1 + g.r.IntN(2) {
			w := fmt.Sprintf("w%d", i)
			cols = append(cols, g.atom()+" AS "+w)
			vv = append(vv, w)
		}
		for i := range 1 + g.r.IntN(2) {
			w := fmt.Sprintf("a%d", i)
			cols = append(cols, g.aggItem(true).expr+" AS "+w)
			vv = append(vv, w)
		}
	} else {
		for _, v := range g.nvars {
			if g.chance(2) {
				cols, nv = append(cols, v), append(nv, v)
			}
		}
		for _, v := range g.rvars {
			if g.chance(2) {
				cols, rv = append(cols, v), append(rv, v)
			}
		}
		for _, v := range g.vvars {
			if g.chance(2) {
				cols, vv = append(cols, v), append(vv, v)
			}
		}
		if len(cols) == 0 || g.chance(2) {
			cols = append(cols, g.atom()+" AS w0")
			vv = append(vv, "w0")
		}
	}
	distinct := ""
	if g.chance(4) {
		distinct = "DISTINCT "
	}
	fmt.Fprintf(b, "WITH %s%s ", distinct, strings.Join(cols, ", "))
	g.nvars, g.rvars, g.vvars = nv, rv, vv
	if g.chance(2) {
		fmt.Fprintf(b, "WHERE %s ", g.pred(1))
	}
}

// write is an updating statement, sometimes returning a count.
func (g *diffGen) write() diffStmt {
	g.reset()
	var q string
	lab := g.pick(diffLabels...)
	cond := func(v string) string {
		g.nvars = []string{v}
		if g.chance(2) {
			return v + ".name = " + g.nodeName()
		}
		return g.pred(1)
	}
	switch g.r.IntN(9) {
	case 0:
		q = fmt.Sprintf("MATCH (n:%s) WHERE %s SET n.%s = %s", lab, cond("n"), g.pick(diffKeys...), g.propValue())
	case 1:
		q = fmt.Sprintf("MATCH (n) WHERE %s REMOVE n.%s", cond("n"), g.pick(diffKeys...))
	case 2:
		q = fmt.Sprintf("MATCH (n) WHERE %s SET n:%s", cond("n"), lab)
	case 3:
		q = fmt.Sprintf("MATCH (n) WHERE %s REMOVE n:%s", cond("n"), lab)
	case 4:
		q = fmt.Sprintf("MATCH ()-[r:%s]->() WHERE r.x %s %s DELETE r", g.pick(diffTypes...), g.pick("=", "<", ">"), g.scalar(g.r.IntN(4)))
	case 5:
		q = fmt.Sprintf("MATCH (n) WHERE n.name = %s DETACH DELETE n", g.nodeName())
	case 6:
		q = fmt.Sprintf("MATCH (n) WHERE n.name = %s DELETE n", g.nodeName())
	case 7:
		q = fmt.Sprintf("CREATE (:%s%s)-[:%s%s]->(:%s%s)", lab, g.propMap("'new'"), g.pick(diffTypes...), g.propMap(""), g.pick(diffLabels...), g.propMap(""))
	default:
		q = fmt.Sprintf("MATCH (a), (b) WHERE a.name = %s AND b.name = %s CREATE (a)-[:%s {x: %s}]->(b)", g.nodeName(), g.nodeName(), g.pick(diffTypes...), g.propValue())
	}
	if g.chance(3) {
		q += " RETURN count(*) AS c"
	}
	return diffStmt{query: q, ordered: true}
}
