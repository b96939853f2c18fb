package conformance

import (
	"fmt"

	"github.com/gdi-go/gdi/gdi"
)

var indexCases = []Case{
	c("Index/create-type-list-free", indexCreateFree),
	c("Index/invalid-arguments", indexInvalidArgs),
	c("Index/freed-and-nil-handles", indexFreed),
	c("Index/labels-and-property-types-of-index", indexSets),
	c("Index/model-hash", indexModel(gdi.HashTableIndex)),
	c("Index/model-btree", indexModel(gdi.BTreeIndex)),
	c("Index/label-none-indexes-unlabelled", indexLabelNone),
	c("Index/updated-at-commit", indexUpdatedAtCommit),
	c("Index/remove-label-and-property-type", indexRemove),
	c("Index/bulk-add-remove", indexBulk),
	c("Index/query-with-constraint", indexConstraint),
	c("Index/hash-and-btree-agree-on-comparisons", indexHashBTreeAgree),
	c("Index/edges", indexEdges),
	c("Index/local-queries-partition-global", indexLocalPartition),
	c("Index/constraint-outside-index", indexUncovered),
	c("Index/free-label-removes-it-from-index", indexFreeLabel),
	c("Index/changes-racing-commits-lose-no-entry", indexChangesRacingCommits),
	c("Index/out-of-memory-fails-alike-and-changes-nothing", indexOutOfMemory),
}

func indexCreateFree(e *Env) {
	h := must(e.DB.CreateIndex(gdi.HashTableIndex, 0))
	b := must(e.DB.CreateIndex(gdi.BTreeIndex, 1000))
	if t := must(h.Type()); t != gdi.HashTableIndex {
		failf("Type = %v, want hash table", t)
	}
	if t := must(b.Type()); t != gdi.BTreeIndex {
		failf("Type = %v, want B-tree", t)
	}
	sameSet(must(e.DB.Indexes()), []gdi.Index{h, b}, "Indexes()")
	if n := len(must(h.Labels())) + len(must(h.PropertyTypes())); n != 0 {
		failf("new index has %d labels and property types", n)
	}
	okf(h.Free(), "Index.Free")
	sameSet(must(e.DB.Indexes()), []gdi.Index{b}, "Indexes() after Free")
}

func indexInvalidArgs(e *Env) {
	_, err := e.DB.CreateIndex(0, 0)
	is(err, gdi.ErrState, "CreateIndex(type 0)")
	_, err = e.DB.CreateIndex(9, 0)
	is(err, gdi.ErrState, "CreateIndex(type 9)")
	_, err = e.DB.CreateIndex(gdi.HashTableIndex, -1)
	is(err, gdi.ErrCount, "CreateIndex(hint -1)")
	if n := len(must(e.DB.Indexes())); n != 0 {
		failf("%d indexes after failed creations", n)
	}
	idx := must(e.DB.CreateIndex(gdi.HashTableIndex, 0))
	is(idx.AddLabel(gdi.LabelNull), gdi.ErrLabel, "Index.AddLabel(LabelNull)")
	is(idx.AddPropertyType(gdi.PropertyTypeNull), gdi.ErrPropertyType, "Index.AddPropertyType(PropertyTypeNull)")
	l := e.label("L")
	is(idx.AddLabel(gdi.MakeLabel(l.Tag(), l.ID()+77)), gdi.ErrLabel, "Index.AddLabel(unknown label)")
	if n := len(must(idx.Labels())); n != 0 {
		failf("index has %d labels after failed adds", n)
	}
}

func indexFreed(e *Env) {
	l := e.label("L")
	p := e.single("p", gdi.Int8)
	idx := must(e.DB.CreateIndex(gdi.HashTableIndex, 0))
	okf(idx.Free(), "Free")
	is(idx.Free(), gdi.ErrIndex, "Free twice")
	_, err := idx.Type()
	is(err, gdi.ErrIndex, "Type of a freed index")
	_, err = idx.Labels()
	is(err, gdi.ErrIndex, "Labels of a freed index")
	_, err = idx.PropertyTypes()
	is(err, gdi.ErrIndex, "PropertyTypes of a freed index")
	is(idx.AddLabel(l), gdi.ErrIndex, "AddLabel on a freed index")
	is(idx.RemoveLabel(l), gdi.ErrIndex, "RemoveLabel on a freed index")
	is(idx.AddPropertyType(p), gdi.ErrIndex, "AddPropertyType on a freed index")
	is(idx.RemovePropertyType(p), gdi.ErrIndex, "RemovePropertyType on a freed index")
	is(idx.AddLabelsAndPropertyTypes(ls(l), nil), gdi.ErrIndex, "AddLabelsAndPropertyTypes on a freed index")
	is(idx.RemoveLabelsAndPropertyTypes(ls(l), nil), gdi.ErrIndex, "RemoveLabelsAndPropertyTypes on a freed index")
	e.view(func(tx gdi.Transaction) {
		_, err := tx.VerticesOfIndex(idx, nil)
		is(err, gdi.ErrIndex, "VerticesOfIndex(freed index)")
		_, err = tx.LocalVerticesOfIndex(idx, nil)
		is(err, gdi.ErrIndex, "LocalVerticesOfIndex(freed index)")
		_, err = tx.EdgesOfIndex(idx, nil)
		is(err, gdi.ErrIndex, "EdgesOfIndex(freed index)")
		_, err = tx.LocalEdgesOfIndex(idx, nil)
		is(err, gdi.ErrIndex, "LocalEdgesOfIndex(freed index)")
		_, err = tx.VerticesOfIndex(nil, nil)
		is(err, gdi.ErrIndex, "VerticesOfIndex(nil index)")
		_, err = tx.EdgesOfIndex(nil, nil)
		is(err, gdi.ErrIndex, "EdgesOfIndex(nil index)")
	})
}

func indexSets(e *Env) {
	a, b := e.label("A"), e.label("B")
	p, q := e.single("p", gdi.Int8), e.single("q", gdi.Int8)
	idx := must(e.DB.CreateIndex(gdi.HashTableIndex, 0))
	okf(idx.AddLabel(a), "AddLabel")
	okf(idx.AddLabel(a), "AddLabel twice (no change)")
	okf(idx.AddLabel(gdi.LabelNone), "AddLabel(LabelNone)")
	okf(idx.AddPropertyType(p), "AddPropertyType")
	okf(idx.AddPropertyType(gdi.PropertyTypeID), "AddPropertyType(PropertyTypeID)")
	sameSet(must(idx.Labels()), ls(a, gdi.LabelNone), "index labels")
	sameSet(must(idx.PropertyTypes()), []gdi.PropertyType{p, gdi.PropertyTypeID}, "index property types")
	okf(idx.RemoveLabel(b), "RemoveLabel of an absent label (no change)")
	okf(idx.RemovePropertyType(q), "RemovePropertyType of an absent type (no change)")
	okf(idx.AddLabelsAndPropertyTypes(ls(a, b), []gdi.PropertyType{q}), "AddLabelsAndPropertyTypes")
	sameSet(must(idx.Labels()), ls(a, b, gdi.LabelNone), "index labels after bulk add")
	sameSet(must(idx.PropertyTypes()), []gdi.PropertyType{p, q, gdi.PropertyTypeID}, "index property types after bulk add")
	okf(idx.RemoveLabelsAndPropertyTypes(ls(a, gdi.LabelNone), []gdi.PropertyType{p, gdi.PropertyTypeID}), "RemoveLabelsAndPropertyTypes")
	sameSet(must(idx.Labels()), ls(b), "index labels after bulk remove")
	sameSet(must(idx.PropertyTypes()), []gdi.PropertyType{q}, "index property types after bulk remove")
	okf(idx.RemoveLabel(b), "RemoveLabel")
	okf(idx.RemovePropertyType(q), "RemovePropertyType")
	sameSet(must(idx.Labels()), nil, "index labels at the end")
	sameSet(must(idx.PropertyTypes()), nil, "index property types at the end")
}

// modelGraph: each rank creates
//
//	v1 {A}        -
//	v2 {B}        p=1
//	v3 {A,B}      p=2
//	v4 {}         p=3
//	v5 {}         -
//	v6 {A}        q="x"
type model struct {
	a, b gdi.Label
	p, q gdi.PropertyType
}

func modelGraph(e *Env) model {
	m := model{a: e.label("A"), b: e.label("B"), p: e.single("p", gdi.Int32), q: e.single("q", gdi.Char)}
	e.barrier()
	e.update(func(tx gdi.Transaction) {
		vertex(tx, e.id("v1"), ls(m.a))
		vertex(tx, e.id("v2"), ls(m.b), prop{m.p, gdi.Int32s(1)})
		vertex(tx, e.id("v3"), ls(m.a, m.b), prop{m.p, gdi.Int32s(2)})
		vertex(tx, e.id("v4"), nil, prop{m.p, gdi.Int32s(3)})
		vertex(tx, e.id("v5"), nil)
		vertex(tx, e.id("v6"), ls(m.a), prop{m.q, gdi.Chars("x")})
	})
	return m
}

// indexQuery checks the global result of VerticesOfIndex after a barrier.
func indexQuery(e *Env, idx gdi.Index, c gdi.Constraint, want []string, what string) {
	e.barrier()
	e.view(func(tx gdi.Transaction) {
		got := idsOfVertices(tx, must(tx.VerticesOfIndex(idx, c)))
		sameStrings(got, forRanks(e.Size(), want...), "%s", what)
	})
	e.barrier()
}

// indexModel: an object is indexed iff (L empty or shares a label) and
// (P empty or has a property of P) and L∪P not empty (spec 9).
func indexModel(t gdi.IndexType) func(e *Env) {
	return func(e *Env) {
		m := modelGraph(e)
		for _, c := range []struct {
			l    []gdi.Label
			p    []gdi.PropertyType
			want []string
		}{
			{nil, nil, nil},
			{ls(m.a), nil, []string{"v1", "v3", "v6"}},
			{ls(m.a, m.b), nil, []string{"v1", "v2", "v3", "v6"}},
			{nil, []gdi.PropertyType{m.p}, []string{"v2", "v3", "v4"}},
			{nil, []gdi.PropertyType{m.p, m.q}, []string{"v2", "v3", "v4", "v6"}},
			{ls(m.a), []gdi.PropertyType{m.p}, []string{"v3"}},
			{ls(m.b), []gdi.PropertyType{m.p, m.q}, []string{"v2", "v3"}},
			{ls(gdi.LabelNone), nil, []string{"v4", "v5"}},
			{ls(gdi.LabelNone, m.a), []gdi.PropertyType{m.p}, []string{"v3", "v4"}},
			{nil, []gdi.PropertyType{gdi.PropertyTypeID}, []string{"v1", "v2", "v3", "v4", "v5", "v6"}},
		} {
			idx := must(e.DB.CreateIndex(t, 0))
			if len(c.l)+len(c.p) > 0 {
				okf(idx.AddLabelsAndPropertyTypes(c.l, c.p), "AddLabelsAndPropertyTypes")
			}
			indexQuery(e, idx, nil, c.want, "index L="+labelNames(e, c.l)+" P="+ptypeNames(e, c.p))
			okf(idx.Free(), "Free")
		}
	}
}

func labelNames(e *Env, l []gdi.Label) string {
	s := "{"
	for i, x := range l {
		if i > 0 {
			s += ","
		}
		s += must(e.DB.LabelName(x))
	}
	return s + "}"
}

func ptypeNames(e *Env, p []gdi.PropertyType) string {
	s := "{"
	for i, x := range p {
		if i > 0 {
			s += ","
		}
		s += must(e.DB.PropertyTypeInfo(x)).Name
	}
	return s + "}"
}

// indexLabelNone: an index on LabelNone holds exactly the objects without
// labels, and follows them as labels are added and removed (spec 7.4, 9.2).
func indexLabelNone(e *Env) {
	m := modelGraph(e)
	idx := must(e.DB.CreateIndex(gdi.HashTableIndex, 0))
	okf(idx.AddLabel(gdi.LabelNone), "AddLabel(LabelNone)")
	indexQuery(e, idx, nil, []string{"v4", "v5"}, "LabelNone index")
	e.update(func(tx gdi.Transaction) {
		okf(find(tx, gdi.LabelNone, e.id("v5")).AddLabel(m.a), "AddLabel")
		okf(find(tx, m.a, e.id("v1")).RemoveLabel(m.a), "RemoveLabel")
	})
	indexQuery(e, idx, nil, []string{"v1", "v4"}, "LabelNone index after labels changed")
	okf(idx.AddLabel(m.b), "AddLabel(B)")
	indexQuery(e, idx, nil, []string{"v1", "v2", "v3", "v4"}, "index {LabelNone, B}")
	okf(idx.RemoveLabel(gdi.LabelNone), "RemoveLabel(LabelNone)")
	indexQuery(e, idx, nil, []string{"v2", "v3"}, "index {B} after removing LabelNone")
}

// indexUpdatedAtCommit: committed changes enter the index; aborted ones
// do not.
func indexUpdatedAtCommit(e *Env) {
	m := modelGraph(e)
	idx := must(e.DB.CreateIndex(gdi.BTreeIndex, 0))
	okf(idx.AddPropertyType(m.q), "AddPropertyType")
	indexQuery(e, idx, nil, []string{"v6"}, "index {q}")
	e.update(func(tx gdi.Transaction) {
		okf(find(tx, m.b, e.id("v2")).AddProperty(m.q, gdi.Chars("y")), "AddProperty")
		okf(find(tx, m.a, e.id("v6")).RemoveProperties(m.q), "RemoveProperties")
		vertex(tx, e.id("v7"), nil, prop{m.q, gdi.Chars("z")})
	})
	tx := e.tx()
	okf(find(tx, m.a, e.id("v1")).AddProperty(m.q, gdi.Chars("w")), "AddProperty (aborted)")
	okf(tx.Abort(), "Abort")
	indexQuery(e, idx, nil, []string{"v2", "v7"}, "index {q} after commit")
}

func indexRemove(e *Env) {
	m := modelGraph(e)
	idx := must(e.DB.CreateIndex(gdi.HashTableIndex, 0))
	okf(idx.AddLabel(m.a), "AddLabel")
	okf(idx.AddPropertyType(m.p), "AddPropertyType")
	indexQuery(e, idx, nil, []string{"v3"}, "index {A}{p}")
	okf(idx.RemoveLabel(m.a), "RemoveLabel")
	indexQuery(e, idx, nil, []string{"v2", "v3", "v4"}, "index {}{p} after removing the only label")
	okf(idx.AddLabel(m.b), "AddLabel")
	okf(idx.RemovePropertyType(m.p), "RemovePropertyType")
	indexQuery(e, idx, nil, []string{"v2", "v3"}, "index {B}{} after removing the only property type")
	okf(idx.RemoveLabel(m.b), "RemoveLabel")
	indexQuery(e, idx, nil, nil, "index emptied of labels and property types")
}

func indexBulk(e *Env) {
	m := modelGraph(e)
	idx := must(e.DB.CreateIndex(gdi.HashTableIndex, 0))
	okf(idx.AddLabelsAndPropertyTypes(ls(m.a, m.b), []gdi.PropertyType{m.p, m.q}), "AddLabelsAndPropertyTypes")
	indexQuery(e, idx, nil, []string{"v2", "v3", "v6"}, "index {A,B}{p,q}")
	okf(idx.AddLabelsAndPropertyTypes(ls(m.a), nil), "AddLabelsAndPropertyTypes of present handles")
	okf(idx.RemoveLabelsAndPropertyTypes(ls(m.a, m.b), nil), "RemoveLabelsAndPropertyTypes(all labels)")
	indexQuery(e, idx, nil, []string{"v2", "v3", "v4", "v6"}, "index {}{p,q} after removing all labels")
	okf(idx.RemoveLabelsAndPropertyTypes(nil, []gdi.PropertyType{m.q}), "RemoveLabelsAndPropertyTypes(q)")
	indexQuery(e, idx, nil, []string{"v2", "v3", "v4"}, "index {}{p}")
	okf(idx.AddLabelsAndPropertyTypes(ls(m.b), nil), "AddLabelsAndPropertyTypes(B)")
	okf(idx.RemoveLabelsAndPropertyTypes(ls(m.a), []gdi.PropertyType{m.p}), "RemoveLabelsAndPropertyTypes(absent A, p)")
	indexQuery(e, idx, nil, []string{"v2", "v3"}, "index {B}{}")
	okf(idx.RemoveLabelsAndPropertyTypes(ls(m.b), nil), "RemoveLabelsAndPropertyTypes(B)")
	indexQuery(e, idx, nil, nil, "index with nothing left")
}

func indexConstraint(e *Env) {
	m := modelGraph(e)
	idx := must(e.DB.CreateIndex(gdi.BTreeIndex, 0))
	okf(idx.AddLabelsAndPropertyTypes(ls(m.a, m.b, gdi.LabelNone), []gdi.PropertyType{m.p}), "AddLabelsAndPropertyTypes")
	indexQuery(e, idx, nil, []string{"v2", "v3", "v4"}, "index without constraint")
	for _, c := range []struct {
		what string
		c    gdi.Constraint
		want []string
	}{
		{"p > 1", e.constraint(and(pc(m.p, gdi.Greater, gdi.Int32s(1)))), []string{"v3", "v4"}},
		{"p >= 2 and A", e.constraint(and(pc(m.p, gdi.EqGreater, gdi.Int32s(2)), hasL(m.a))), []string{"v3"}},
		{"p == 1 or p == 3", e.constraint(and(pc(m.p, gdi.Equal, gdi.Int32s(1))), and(pc(m.p, gdi.Equal, gdi.Int32s(3)))), []string{"v2", "v4"}},
		{"p != 2", e.constraint(and(pc(m.p, gdi.NotEqual, gdi.Int32s(2)))), []string{"v2", "v4"}},
		{"not A", e.constraint(and(notL(m.a))), []string{"v2", "v4"}},
		{"no label", e.constraint(and(hasL(gdi.LabelNone))), []string{"v4"}},
		{"p < 0", e.constraint(and(pc(m.p, gdi.Smaller, gdi.Int32s(0)))), nil},
		{"empty constraint", e.constraint(), nil},
		{"empty subconstraint", e.constraint(and()), []string{"v2", "v3", "v4"}},
	} {
		indexQuery(e, idx, c.c, c.want, "VerticesOfIndex with "+c.what)
	}
}

// indexHashBTreeAgree: the index type is a hint; both types give the same
// answers for equality and order conditions.
func indexHashBTreeAgree(e *Env) {
	m := modelGraph(e)
	var idx [2]gdi.Index
	for i, t := range []gdi.IndexType{gdi.HashTableIndex, gdi.BTreeIndex} {
		idx[i] = must(e.DB.CreateIndex(t, 6))
		okf(idx[i].AddPropertyType(m.p), "AddPropertyType")
	}
	for _, c := range []struct {
		c    gdi.Constraint
		want []string
	}{
		{e.constraint(and(pc(m.p, gdi.Equal, gdi.Int32s(2)))), []string{"v3"}},
		{e.constraint(and(pc(m.p, gdi.NotEqual, gdi.Int32s(2)))), []string{"v2", "v4"}},
		{e.constraint(and(pc(m.p, gdi.Smaller, gdi.Int32s(3)))), []string{"v2", "v3"}},
		{e.constraint(and(pc(m.p, gdi.EqSmaller, gdi.Int32s(3)), pc(m.p, gdi.Greater, gdi.Int32s(1)))), []string{"v3", "v4"}},
	} {
		for i := range idx {
			indexQuery(e, idx[i], c.c, c.want, "comparison on "+must(idx[i].Type()).String())
		}
	}
}

func indexEdges(e *Env) {
	knows := e.label("Knows")
	w := e.single("w", gdi.Int64)
	name := e.single("name", gdi.Char)
	idx := must(e.DB.CreateIndex(gdi.HashTableIndex, 0))
	okf(idx.AddLabel(knows), "AddLabel")
	vidx := must(e.DB.CreateIndex(gdi.HashTableIndex, 0))
	okf(vidx.AddPropertyType(w), "AddPropertyType")
	e.barrier()
	e.update(func(tx gdi.Transaction) {
		a := vertex(tx, e.id("a"), nil)
		b := vertex(tx, e.id("b"), nil)
		h := edge(tx, gdi.Directed, a, b, name, string(e.id("k1")), knows)
		okf(h.AddProperty(w, gdi.Int64s(1)), "AddProperty")
		h = edge(tx, gdi.Undirected, a, b, name, string(e.id("k2")), knows)
		okf(h.AddProperty(w, gdi.Int64s(2)), "AddProperty")
		edge(tx, gdi.Directed, b, a, name, string(e.id("other")))
	})
	e.barrier()
	e.view(func(tx gdi.Transaction) {
		sameStrings(edgeNames(tx, name, must(tx.EdgesOfIndex(idx, nil))), forRanks(e.Size(), "k1", "k2"), "EdgesOfIndex")
		c := e.constraint(and(pc(w, gdi.Greater, gdi.Int64s(1))))
		sameStrings(edgeNames(tx, name, must(tx.EdgesOfIndex(idx, c))), forRanks(e.Size(), "k2"), "EdgesOfIndex with w > 1")
		// Edges with w are in vidx, but VerticesOfIndex lists vertices only.
		if vs := must(tx.VerticesOfIndex(vidx, nil)); len(vs) != 0 {
			failf("VerticesOfIndex lists %d objects of an edge-only index", len(vs))
		}
		if es := must(tx.EdgesOfIndex(vidx, nil)); len(es) != 2*e.Size() {
			failf("EdgesOfIndex(property index) has %d edges, want %d", len(es), 2*e.Size())
		}
	})
	e.barrier()
	e.update(func(tx gdi.Transaction) {
		a := find(tx, gdi.LabelNone, e.id("a"))
		for _, u := range must(a.Edges(gdi.EdgeUndirected, nil)) {
			okf(must(tx.AssociateEdge(u)).Free(), "FreeEdge")
		}
	})
	e.barrier()
	e.view(func(tx gdi.Transaction) {
		sameStrings(edgeNames(tx, name, must(tx.EdgesOfIndex(idx, nil))), forRanks(e.Size(), "k1"), "EdgesOfIndex after FreeEdge")
	})
}

// indexLocalPartition: in a collective read transaction, the local results
// of all ranks partition the global result, for vertices and edges.
func indexLocalPartition(e *Env) {
	m := modelGraph(e)
	name := e.single("name", gdi.Char)
	e.update(func(tx gdi.Transaction) {
		edge(tx, gdi.Directed, find(tx, m.a, e.id("v1")), find(tx, m.b, e.id("v2")), name, string(e.id("e")), m.a)
	})
	idx := must(e.DB.CreateIndex(gdi.HashTableIndex, 0))
	okf(idx.AddLabel(m.a), "AddLabel")
	tx := must(e.DB.StartCollectiveTransaction())
	local := idsOfVertices(tx, must(tx.LocalVerticesOfIndex(idx, nil)))
	global := idsOfVertices(tx, must(tx.VerticesOfIndex(idx, nil)))
	localE := edgeNames(tx, name, must(tx.LocalEdgesOfIndex(idx, nil)))
	globalE := edgeNames(tx, name, must(tx.EdgesOfIndex(idx, nil)))
	sameStrings(global, forRanks(e.Size(), "v1", "v3", "v6"), "VerticesOfIndex")
	sameStrings(globalE, forRanks(e.Size(), "e"), "EdgesOfIndex")
	cl := e.constraint(and(pc(m.q, gdi.Equal, gdi.Chars("x"))))
	localC := idsOfVertices(tx, must(tx.LocalVerticesOfIndex(idx, cl)))
	commit(tx)
	e.checkPartition(local, global, "LocalVerticesOfIndex")
	e.checkPartition(localE, globalE, "LocalEdgesOfIndex")
	e.checkPartition(localC, forRanks(e.Size(), "v6"), "LocalVerticesOfIndex with constraint")
}

// checkPartition fails unless the local lists of all ranks are disjoint
// and together equal global.
func (e *Env) checkPartition(local, global []string, what string) {
	var buf []byte
	for _, s := range local {
		buf = append(buf, s...)
		buf = append(buf, 0)
	}
	all, err := e.Comm.Allgatherv(buf)
	okf(err, "Allgatherv")
	var union []string
	for _, b := range all {
		start := 0
		for i, c := range b {
			if c == 0 {
				union = append(union, string(b[start:i]))
				start = i + 1
			}
		}
	}
	sameStrings(strs(union...), global, "%s: union of the ranks' local results (each once)", what)
}

// indexUncovered: a constraint on labels or property types the index does
// not cover (spec 9.5.2 says it "should" not) is either rejected with a
// coded error or evaluated exactly on the indexed objects.
func indexUncovered(e *Env) {
	m := modelGraph(e)
	idx := must(e.DB.CreateIndex(gdi.HashTableIndex, 0))
	okf(idx.AddLabel(m.a), "AddLabel")
	e.barrier()
	e.view(func(tx gdi.Transaction) {
		for _, c := range []struct {
			what string
			c    gdi.Constraint
			want []string
		}{
			{"label B", e.constraint(and(hasL(m.b))), []string{"v3"}},
			{"property q", e.constraint(and(pc(m.q, gdi.Equal, gdi.Chars("x")))), []string{"v6"}},
		} {
			uids, err := tx.VerticesOfIndex(idx, c.c)
			if err != nil {
				failed(err, "VerticesOfIndex with a constraint on %s outside the index", c.what)
				if gdi.IsTransactionCritical(err) {
					return
				}
				continue
			}
			sameStrings(idsOfVertices(tx, uids), forRanks(e.Size(), c.want...), "VerticesOfIndex with a constraint on %s outside the index", c.what)
		}
	})
}

func indexFreeLabel(e *Env) {
	mr := rewriter(e)
	m := modelGraph(e)
	idx := must(e.DB.CreateIndex(gdi.HashTableIndex, 0))
	okf(idx.AddLabelsAndPropertyTypes(ls(m.a), []gdi.PropertyType{m.p}), "AddLabelsAndPropertyTypes")
	okf(mr.FreeLabel(m.a), "FreeLabel")
	sameSet(must(idx.Labels()), nil, "index labels after FreeLabel")
	indexQuery(e, idx, nil, []string{"v2", "v3", "v4"}, "index after FreeLabel (as RemoveLabel)")
	okf(mr.FreePropertyType(m.p), "FreePropertyType")
	sameSet(must(idx.PropertyTypes()), nil, "index property types after FreePropertyType")
	indexQuery(e, idx, nil, nil, "index after FreePropertyType")
	is(idx.AddLabel(m.a), gdi.ErrLabel, "Index.AddLabel(freed label)")
	is(idx.AddPropertyType(m.p), gdi.ErrPropertyType, "Index.AddPropertyType(freed property type)")
}

// indexChangesRacingCommits: collective changes of an index's labels,
// made while goroutines of every rank commit vertices that the index
// covers, lose no entry: afterwards the index finds every vertex
// committed, once.
func indexChangesRacingCommits(e *Env) {
	a := e.label("A")
	idx := must(e.DB.CreateIndex(gdi.HashTableIndex, 0))
	okf(idx.AddLabel(a), "AddLabel")
	const goroutines, perGoroutine, toggles = 3, 15, 5
	for g := range goroutines {
		e.Go(func() {
			for i := range perGoroutine {
				e.update(func(tx gdi.Transaction) { vertex(tx, e.id(fmt.Sprintf("g%d-%d", g, i)), ls(a)) })
			}
		})
	}
	for range toggles {
		okf(idx.RemoveLabel(a), "RemoveLabel while other goroutines commit")
		okf(idx.AddLabel(a), "AddLabel while other goroutines commit")
	}
	e.Wait()
	var want []string
	for g := range goroutines {
		for i := range perGoroutine {
			want = append(want, fmt.Sprintf("g%d-%d", g, i))
		}
	}
	indexQuery(e, idx, nil, want, "index {A} after its changes raced commits")
}

// indexOutOfMemory: a change of an index whose entries do not fit fails
// on every rank alike, with ErrNoMemory, and changes nothing: the index
// keeps its labels and answers as before, and takes later changes.
func indexOutOfMemory(e *Env) {
	if e.backend.SmallIndexParams == nil {
		e.Skipf("%s gives no SmallIndexParams", e.backend.Name)
	}
	db, err := e.backend.Driver.CreateDatabase(e.Comm, e.backend.SmallIndexParams())
	okf(err, "CreateDatabase with little index memory")
	e.extra = append(e.extra, db)
	a, err := db.CreateLabel("A")
	okf(err, "CreateLabel")
	b, err := db.CreateLabel("B")
	okf(err, "CreateLabel")
	idx := must(db.CreateIndex(gdi.HashTableIndex, 0))
	okf(idx.AddLabel(b), "AddLabel(B)")
	many := 0
	if e.Rank() == 0 {
		many = 3000
	}
	for k := 0; k < many; k += 100 {
		tx := must(db.StartTransaction())
		for i := k; i < k+100; i++ {
			vertex(tx, e.id(fmt.Sprint("a", i)), ls(a))
		}
		commit(tx)
	}
	tx := must(db.StartTransaction())
	vertex(tx, e.id("b"), ls(b))
	commit(tx)
	e.barrier()
	err = idx.AddLabel(a)
	is(err, gdi.ErrNoMemory, "AddLabel of a label with more vertices than the index memory holds")
	e.sameOnAllRanks(uint64(gdi.ErrorClass(err)), "the class of the failed AddLabel's error")
	sameSet(must(idx.Labels()), ls(b), "Labels() after the failed AddLabel")
	e.barrier()
	tx = must(db.StartTransaction())
	got := idsOfVertices(tx, must(tx.VerticesOfIndex(idx, nil)))
	abortQuietly(tx)
	sameStrings(got, forRanks(e.Size(), "b"), "the index after the failed AddLabel")
	okf(idx.RemoveLabel(b), "RemoveLabel after the failed AddLabel")
}
