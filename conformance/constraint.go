package conformance

import (
	"github.com/gdi-go/gdi/gdi"
)

var constraintCases = []Case{
	c("Constraint/create-list-free", constraintCreateFree),
	c("Constraint/conditions-listed", constraintConditionsListed),
	c("Constraint/condition-checks", constraintConditionChecks),
	c("Constraint/subconstraint-copied", constraintCopies),
	c("Constraint/freed-handles", constraintFreed),
	c("Constraint/nil-handles", constraintNil),
	c("Constraint/stale-after-free-label", constraintStaleLabel),
	c("Constraint/stale-after-free-property-type", constraintStalePtype),
	c("Constraint/stale-after-update-property-type", constraintStaleUpdate),
	c("Constraint/label-none-condition", constraintLabelNone),
	c("Constraint/queries-follow-changes-after-use", constraintUsedThenChanged),
}

// constraintUsedThenChanged uses a constraint in queries, then changes it
// and the metadata it names: every later query must see the change, as a
// backend may keep what it made of the constraint between queries.
func constraintUsedThenChanged(e *Env) {
	mr := rewriter(e)
	a, b := e.label("A"), e.label("B")
	e.barrier()
	var vu gdi.VertexUID
	e.update(func(tx gdi.Transaction) {
		v, w := vertex(tx, nil, nil), vertex(tx, nil, nil)
		edge(tx, gdi.Directed, v, w, gdi.PropertyTypeNull, "", a)
		edge(tx, gdi.Directed, v, w, gdi.PropertyTypeNull, "", b)
		edge(tx, gdi.Directed, w, v, gdi.PropertyTypeNull, "", b)
		vu = vuid(v)
	})
	c := e.constraint(and(hasL(a)))
	count := func(what string, want int) {
		e.view(func(tx gdi.Transaction) {
			for range 2 {
				if n := len(must(assoc(tx, vu).Edges(gdi.EdgeAll, c))); n != want {
					failf("%s: %d edges match, want %d", what, n, want)
				}
			}
		})
	}
	count("label A", 1)
	sb := must(e.DB.CreateSubconstraint())
	okf(sb.AddLabelCondition(b, gdi.Equal), "AddLabelCondition")
	okf(c.AddSubconstraint(sb), "AddSubconstraint")
	count("label A or label B", 3)
	e.quiet()
	okf(mr.FreeLabel(b), "FreeLabel")
	e.view(func(tx gdi.Transaction) {
		_, err := assoc(tx, vu).Edges(gdi.EdgeAll, c)
		is(err, gdi.ErrStale, "Edges with a constraint used before its label was freed")
	})
	okf(c.Free(), "Constraint.Free")
	e.view(func(tx gdi.Transaction) {
		_, err := assoc(tx, vu).Edges(gdi.EdgeAll, c)
		is(err, gdi.ErrConstraint, "Edges with a constraint used before it was freed")
	})
}

func constraintCreateFree(e *Env) {
	db := e.DB
	c1 := must(db.CreateConstraint())
	c2 := must(db.CreateConstraint())
	s1 := must(db.CreateSubconstraint())
	sameSet(must(db.Constraints()), []gdi.Constraint{c1, c2}, "Constraints()")
	sameSet(must(db.Subconstraints()), []gdi.Subconstraint{s1}, "Subconstraints()")
	if st := must(c1.IsStale()); st {
		failf("new constraint is stale")
	}
	if st := must(s1.IsStale()); st {
		failf("new subconstraint is stale")
	}
	if subs := must(c1.Subconstraints()); len(subs) != 0 {
		failf("new constraint has %d subconstraints", len(subs))
	}
	okf(c1.Free(), "Constraint.Free")
	okf(s1.Free(), "Subconstraint.Free")
	sameSet(must(db.Constraints()), []gdi.Constraint{c2}, "Constraints() after Free")
	sameSet(must(db.Subconstraints()), nil, "Subconstraints() after Free")
	okf(c2.Free(), "Constraint.Free")
}

func constraintConditionsListed(e *Env) {
	a, b := e.label("A"), e.label("B")
	p := e.multi("p", gdi.Int64)
	q := e.single("q", gdi.Char)
	e.barrier()
	s := must(e.DB.CreateSubconstraint())
	okf(s.AddLabelCondition(a, gdi.Equal), "AddLabelCondition")
	okf(s.AddLabelCondition(b, gdi.NotEqual), "AddLabelCondition")
	okf(s.AddLabelCondition(a, gdi.Equal), "AddLabelCondition (duplicate)")
	okf(s.AddPropertyCondition(p, gdi.Greater, gdi.Int64s(3)), "AddPropertyCondition")
	okf(s.AddPropertyCondition(p, gdi.EqSmaller, gdi.Int64s(9)), "AddPropertyCondition")
	okf(s.AddPropertyCondition(q, gdi.Equal, gdi.Chars("x")), "AddPropertyCondition")
	okf(s.AddPropertyCondition(p, gdi.Greater, gdi.Int64s(3)), "AddPropertyCondition (duplicate)")
	want := []gdi.LabelCondition{{Label: a, Op: gdi.Equal}, {Label: b, Op: gdi.NotEqual}, {Label: a, Op: gdi.Equal}}
	got := must(s.LabelConditions())
	if len(got) != len(want) {
		failf("LabelConditions = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			failf("LabelConditions = %v, want %v (in order added)", got, want)
		}
	}
	sameSet(must(s.PropertyTypes()), []gdi.PropertyType{p, q}, "PropertyTypes (each once)")
	pcs := must(s.PropertyConditions(p))
	wantP := []gdi.PropertyCondition{{PropertyType: p, Op: gdi.Greater, Value: gdi.Int64s(3)}, {PropertyType: p, Op: gdi.EqSmaller, Value: gdi.Int64s(9)}, {PropertyType: p, Op: gdi.Greater, Value: gdi.Int64s(3)}}
	if len(pcs) != len(wantP) {
		failf("PropertyConditions(p) = %v, want %v", pcs, wantP)
	}
	for i := range wantP {
		if pcs[i] != wantP[i] {
			failf("PropertyConditions(p) = %v, want %v", pcs, wantP)
		}
	}
	r := e.single("r", gdi.Int8)
	if pcs := must(s.PropertyConditions(r)); len(pcs) != 0 {
		failf("PropertyConditions of an unused type = %v", pcs)
	}
	// A constraint returns copies with the same conditions.
	c := must(e.DB.CreateConstraint())
	okf(c.AddSubconstraint(s), "AddSubconstraint")
	okf(c.AddSubconstraint(s), "AddSubconstraint (duplicate)")
	subs := must(c.Subconstraints())
	if len(subs) != 2 {
		failf("Subconstraints has %d entries, want 2 (duplicates kept)", len(subs))
	}
	for _, x := range subs {
		if x == s {
			failf("Subconstraints returned the original, not a copy")
		}
		if n := len(must(x.LabelConditions())); n != 3 {
			failf("copy has %d label conditions, want 3", n)
		}
		if n := len(must(x.PropertyConditions(p))); n != 3 {
			failf("copy has %d conditions on p, want 3", n)
		}
	}
	all := must(e.DB.Subconstraints())
	for _, x := range append(subs, s) {
		found := false
		for _, y := range all {
			found = found || x == y
		}
		if !found {
			failf("Subconstraints() does not list %v (copies included)", x)
		}
	}
	for _, x := range subs {
		okf(x.Free(), "free copy")
	}
}

func constraintConditionChecks(e *Env) {
	a := e.label("A")
	i32 := e.single("i", gdi.Int32)
	f := e.ptype("f", gdi.SingleEntity, gdi.Int32, gdi.FixedSize, 2)
	dbl := e.single("d", gdi.Double)
	by := e.single("b", gdi.Byte)
	e.barrier()
	s := must(e.DB.CreateSubconstraint())
	for _, op := range []gdi.Op{gdi.Greater, gdi.Smaller, gdi.EqGreater, gdi.EqSmaller} {
		is(s.AddLabelCondition(a, op), gdi.ErrOpDatatypeMismatch, "label condition with %v", op)
	}
	is(s.AddLabelCondition(a, 0), gdi.ErrOp, "label condition with Op 0")
	is(s.AddLabelCondition(a, 99), gdi.ErrOp, "label condition with Op 99")
	is(s.AddPropertyCondition(i32, 0, gdi.Int32s(1)), gdi.ErrOp, "property condition with Op 0")
	is(s.AddPropertyCondition(dbl, gdi.Equal, gdi.Doubles(1)), gdi.ErrOpDatatypeMismatch, "Equal on Double")
	is(s.AddPropertyCondition(dbl, gdi.EqGreater, gdi.Doubles(1)), gdi.ErrOpDatatypeMismatch, "EqGreater on Double")
	okf(s.AddPropertyCondition(dbl, gdi.Greater, gdi.Doubles(1)), "Greater on Double")
	is(s.AddPropertyCondition(by, gdi.Smaller, gdi.Bytes([]byte{1})), gdi.ErrOpDatatypeMismatch, "Smaller on Byte")
	is(s.AddPropertyCondition(i32, gdi.Equal, gdi.Int64s(1)), gdi.ErrDatatype, "condition value of another datatype")
	is(s.AddPropertyCondition(f, gdi.Equal, gdi.Int32s(1)), gdi.ErrSizeLimit, "condition value outside the size limit")
	is(s.AddLabelCondition(gdi.LabelNull, gdi.Equal), gdi.ErrLabel, "label condition on LabelNull")
	is(s.AddPropertyCondition(gdi.PropertyTypeNull, gdi.Equal, gdi.Int32s(1)), gdi.ErrPropertyType, "condition on PropertyTypeNull")
	if n := len(must(s.LabelConditions())); n != 0 {
		failf("%d label conditions after failed adds", n)
	}
	sameSet(must(s.PropertyTypes()), []gdi.PropertyType{dbl}, "PropertyTypes after failed adds")
	okf(s.AddPropertyCondition(gdi.PropertyTypeDegree, gdi.EqGreater, gdi.Uint64s(1)), "condition on the degree")
	okf(s.AddLabelCondition(gdi.LabelNone, gdi.Equal), "condition on LabelNone")
}

func constraintCopies(e *Env) {
	a, b := e.label("A"), e.label("B")
	e.barrier()
	s := must(e.DB.CreateSubconstraint())
	okf(s.AddLabelCondition(a, gdi.Equal), "AddLabelCondition")
	c := must(e.DB.CreateConstraint())
	okf(c.AddSubconstraint(s), "AddSubconstraint")
	// Changing or freeing the original does not change the constraint.
	okf(s.AddLabelCondition(b, gdi.Equal), "AddLabelCondition after adding")
	okf(s.Free(), "free the original")
	subs := must(c.Subconstraints())
	if len(subs) != 1 {
		failf("%d subconstraints, want 1", len(subs))
	}
	lc := must(subs[0].LabelConditions())
	if len(lc) != 1 || lc[0] != (gdi.LabelCondition{Label: a, Op: gdi.Equal}) {
		failf("copy's label conditions = %v, want only (A, Equal)", lc)
	}
	okf(subs[0].Free(), "free copy")
	// The constraint still filters with the copy.
	e.update(func(tx gdi.Transaction) {
		vertex(tx, e.id("a"), ls(a))
		vertex(tx, e.id("b"), ls(b))
	})
	idx := must(e.DB.CreateIndex(gdi.HashTableIndex, 0))
	okf(idx.AddLabelsAndPropertyTypes(ls(a, b), nil), "AddLabelsAndPropertyTypes")
	e.barrier()
	e.view(func(tx gdi.Transaction) {
		got := e.mine(idsOfVertices(tx, must(tx.VerticesOfIndex(idx, c))))
		sameStrings(got, []string{string(e.id("a"))}, "vertices matching the copied subconstraint")
	})
}

func constraintFreed(e *Env) {
	a := e.label("A")
	e.barrier()
	s := must(e.DB.CreateSubconstraint())
	c := must(e.DB.CreateConstraint())
	okf(s.Free(), "Subconstraint.Free")
	okf(c.Free(), "Constraint.Free")
	is(s.Free(), gdi.ErrSubconstraint, "Subconstraint.Free twice")
	is(s.AddLabelCondition(a, gdi.Equal), gdi.ErrSubconstraint, "AddLabelCondition on a freed subconstraint")
	_, err := s.LabelConditions()
	is(err, gdi.ErrSubconstraint, "LabelConditions of a freed subconstraint")
	_, err = s.IsStale()
	is(err, gdi.ErrSubconstraint, "IsStale of a freed subconstraint")
	_, err = s.PropertyTypes()
	is(err, gdi.ErrSubconstraint, "PropertyTypes of a freed subconstraint")
	is(c.Free(), gdi.ErrConstraint, "Constraint.Free twice")
	_, err = c.Subconstraints()
	is(err, gdi.ErrConstraint, "Subconstraints of a freed constraint")
	_, err = c.IsStale()
	is(err, gdi.ErrConstraint, "IsStale of a freed constraint")
	c2 := must(e.DB.CreateConstraint())
	is(c2.AddSubconstraint(s), gdi.ErrSubconstraint, "AddSubconstraint(freed subconstraint)")
	is(c.AddSubconstraint(must(e.DB.CreateSubconstraint())), gdi.ErrConstraint, "AddSubconstraint on a freed constraint")
	idx := must(e.DB.CreateIndex(gdi.BTreeIndex, 0))
	okf(idx.AddLabel(a), "AddLabel")
	e.barrier()
	e.view(func(tx gdi.Transaction) {
		v := vertex(tx, nil, nil)
		_, err := tx.VerticesOfIndex(idx, c)
		is(err, gdi.ErrConstraint, "VerticesOfIndex(freed constraint)")
		_, err = tx.EdgesOfIndex(idx, c)
		is(err, gdi.ErrConstraint, "EdgesOfIndex(freed constraint)")
		_, err = v.Edges(gdi.EdgeAll, c)
		is(err, gdi.ErrConstraint, "Edges(freed constraint)")
		_, err = v.Neighbors(gdi.EdgeAll, c)
		is(err, gdi.ErrConstraint, "Neighbors(freed constraint)")
	})
}

func constraintNil(e *Env) {
	c := must(e.DB.CreateConstraint())
	is(c.AddSubconstraint(nil), gdi.ErrSubconstraint, "AddSubconstraint(nil)")
}

// staleSetup makes a subconstraint and a constraint on label l and type p,
// plus a fresh pair on label k only.
func staleSetup(e *Env, l gdi.Label, p gdi.PropertyType, v gdi.Value, k gdi.Label) (s, fresh gdi.Subconstraint, c, freshC gdi.Constraint) {
	s = must(e.DB.CreateSubconstraint())
	okf(s.AddLabelCondition(l, gdi.Equal), "AddLabelCondition")
	okf(s.AddLabelCondition(k, gdi.Equal), "AddLabelCondition")
	okf(s.AddPropertyCondition(p, gdi.Equal, v), "AddPropertyCondition")
	c = must(e.DB.CreateConstraint())
	okf(c.AddSubconstraint(s), "AddSubconstraint")
	fresh = must(e.DB.CreateSubconstraint())
	okf(fresh.AddLabelCondition(k, gdi.Equal), "AddLabelCondition")
	freshC = must(e.DB.CreateConstraint())
	okf(freshC.AddSubconstraint(fresh), "AddSubconstraint")
	return
}

// checkStale checks the rules for stale objects (spec 12): IsStale is
// true, they cannot be extended or used in queries (ErrStale), but can be
// inspected, listing only conditions that are not stale.
func checkStale(e *Env, s gdi.Subconstraint, c gdi.Constraint, fresh gdi.Subconstraint, freshC gdi.Constraint, k gdi.Label, wantLabels []gdi.LabelCondition, wantPtypes []gdi.PropertyType, idx gdi.Index) {
	if !must(s.IsStale()) {
		fatal(1, "subconstraint not stale")
	}
	if !must(c.IsStale()) {
		fatal(1, "constraint not stale")
	}
	if must(fresh.IsStale()) || must(freshC.IsStale()) {
		fatal(1, "objects without the freed handle became stale")
	}
	sameSet(must(s.LabelConditions()), wantLabels, "label conditions of a stale subconstraint (stale ones omitted)")
	sameSet(must(s.PropertyTypes()), wantPtypes, "property types of a stale subconstraint (stale ones omitted)")
	is(s.AddLabelCondition(k, gdi.Equal), gdi.ErrStale, "AddLabelCondition on a stale subconstraint")
	is(freshC.AddSubconstraint(s), gdi.ErrStale, "AddSubconstraint(stale subconstraint)")
	is(c.AddSubconstraint(fresh), gdi.ErrStale, "AddSubconstraint on a stale constraint")
	subs := must(c.Subconstraints())
	if len(subs) != 1 || !must(subs[0].IsStale()) {
		fatal(1, "copies of a stale constraint's subconstraints must be stale")
	}
	e.view(func(tx gdi.Transaction) {
		v := vertex(tx, nil, nil)
		_, err := tx.VerticesOfIndex(idx, c)
		is(err, gdi.ErrStale, "VerticesOfIndex(stale constraint)")
		_, err = tx.LocalVerticesOfIndex(idx, c)
		is(err, gdi.ErrStale, "LocalVerticesOfIndex(stale constraint)")
		_, err = tx.EdgesOfIndex(idx, c)
		is(err, gdi.ErrStale, "EdgesOfIndex(stale constraint)")
		_, err = tx.LocalEdgesOfIndex(idx, c)
		is(err, gdi.ErrStale, "LocalEdgesOfIndex(stale constraint)")
		_, err = v.Edges(gdi.EdgeAll, c)
		is(err, gdi.ErrStale, "Edges(stale constraint)")
		_, err = v.Neighbors(gdi.EdgeAll, c)
		is(err, gdi.ErrStale, "Neighbors(stale constraint)")
		must(tx.VerticesOfIndex(idx, freshC))
	})
	sameSet(must(e.DB.Constraints()), []gdi.Constraint{c, freshC}, "Constraints() lists stale and fresh")
}

func rewriter(e *Env) gdi.MetadataRewriter {
	mr, ok := e.DB.(gdi.MetadataRewriter)
	if !ok {
		e.Skipf("backend has no gdi.MetadataRewriter")
	}
	return mr
}

func constraintStaleLabel(e *Env) {
	mr := rewriter(e)
	l, k := e.label("L"), e.label("K")
	p := e.single("p", gdi.Int8)
	idx := must(e.DB.CreateIndex(gdi.HashTableIndex, 0))
	okf(idx.AddLabel(k), "AddLabel")
	s, fresh, c, freshC := staleSetup(e, l, p, gdi.Int8s(1), k)
	okf(mr.FreeLabel(l), "FreeLabel")
	checkStale(e, s, c, fresh, freshC, k, []gdi.LabelCondition{{Label: k, Op: gdi.Equal}}, []gdi.PropertyType{p}, idx)
}

func constraintStalePtype(e *Env) {
	mr := rewriter(e)
	l, k := e.label("L"), e.label("K")
	p := e.single("p", gdi.Int8)
	idx := must(e.DB.CreateIndex(gdi.HashTableIndex, 0))
	okf(idx.AddLabel(k), "AddLabel")
	s, fresh, c, freshC := staleSetup(e, l, p, gdi.Int8s(1), k)
	okf(mr.FreePropertyType(p), "FreePropertyType")
	checkStale(e, s, c, fresh, freshC, k, []gdi.LabelCondition{{Label: l, Op: gdi.Equal}, {Label: k, Op: gdi.Equal}}, nil, idx)
}

func constraintStaleUpdate(e *Env) {
	mr := rewriter(e)
	l, k := e.label("L"), e.label("K")
	p := e.single("p", gdi.Int8)
	idx := must(e.DB.CreateIndex(gdi.HashTableIndex, 0))
	okf(idx.AddLabel(k), "AddLabel")
	s, fresh, c, freshC := staleSetup(e, l, p, gdi.Int8s(1), k)
	okf(mr.UpdatePropertyType(p, gdi.PropertyTypeInfo{Name: "p2", Entity: gdi.SingleEntity, Datatype: gdi.Int16, Size: gdi.NoSizeLimit}, gdi.Value{}), "UpdatePropertyType")
	checkStale(e, s, c, fresh, freshC, k, []gdi.LabelCondition{{Label: l, Op: gdi.Equal}, {Label: k, Op: gdi.Equal}}, nil, idx)
}

func constraintLabelNone(e *Env) {
	a := e.label("A")
	name := e.single("name", gdi.Char)
	e.barrier()
	e.update(func(tx gdi.Transaction) {
		x := vertex(tx, e.id("x"), nil)
		y := vertex(tx, e.id("y"), nil)
		edge(tx, gdi.Directed, x, y, name, "plain")
		edge(tx, gdi.Directed, x, y, name, "labelled", a)
	})
	e.view(func(tx gdi.Transaction) {
		x := find(tx, gdi.LabelNone, e.id("x"))
		sameStrings(edgeNames(tx, name, must(x.Edges(gdi.EdgeAll, e.constraint(and(hasL(gdi.LabelNone)))))), strs("plain"), "edges with no label")
		sameStrings(edgeNames(tx, name, must(x.Edges(gdi.EdgeAll, e.constraint(and(notL(gdi.LabelNone)))))), strs("labelled"), "edges with some label")
	})
}
