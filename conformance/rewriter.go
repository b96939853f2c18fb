package conformance

import (
	"github.com/gdi-go/gdi/gdi"
)

var rewriterCases = []Case{
	c("Rewriter/free-label-removes-it-everywhere", rewriterFreeLabel),
	c("Rewriter/free-label-warns-non-unique-id", rewriterFreeLabelWarn),
	c("Rewriter/free-label-warns-if-label-less-vertices-share-an-id-after-it", rewriterFreeLabelWarnExisting),
	c("Rewriter/freed-label-handle-invalid-number-not-reused", rewriterFreedLabelHandle),
	c("Rewriter/free-property-type-removes-properties", rewriterFreePtype),
	c("Rewriter/predefined-cannot-be-freed-or-updated", rewriterPredefined),
	c("Rewriter/update-property-type-converts-values", rewriterUpdateConvert),
	c("Rewriter/update-property-type-entity-and-size", rewriterUpdateSize),
	c("Rewriter/update-property-type-errors-change-nothing", rewriterUpdateErrors),
	c("Rewriter/needs-quiet-database", rewriterQuiet),
}

func rewriterFreeLabel(e *Env) {
	mr := rewriter(e)
	a, b := e.label("A"), e.label("B")
	e.barrier()
	var eu gdi.EdgeUID
	e.update(func(tx gdi.Transaction) {
		x := vertex(tx, e.id("x"), ls(a, b))
		y := vertex(tx, e.id("y"), ls(a))
		eu = euid(edge(tx, gdi.Directed, x, y, gdi.PropertyTypeNull, "", a))
	})
	e.barrier()
	okf(mr.FreeLabel(a), "FreeLabel")
	sameSet(must(e.DB.Labels()), ls(b), "Labels() after FreeLabel")
	if got := must(e.DB.LabelFromName("A")); got != gdi.LabelNull {
		failf("LabelFromName of a freed label = %v", got)
	}
	e.view(func(tx gdi.Transaction) {
		x := find(tx, b, e.id("x"))
		sameSet(labelsOf(x), ls(b), "labels of x after FreeLabel")
		y := find(tx, gdi.LabelNone, e.id("y"))
		sameSet(labelsOf(y), nil, "labels of y after FreeLabel")
		sameSet(labelsOf(must(tx.AssociateEdge(eu))), nil, "labels of the edge after FreeLabel")
	})
	// The name is free again, with a new number.
	a2 := e.label("A")
	if a2 == a || a2.ID() == a.ID() {
		failf("a new label reuses the number of a freed one: %v", a2)
	}
}

func rewriterFreeLabelWarn(e *Env) {
	mr := rewriter(e)
	a, b := e.label("A"), e.label("B")
	e.barrier()
	e.update(func(tx gdi.Transaction) {
		vertex(tx, e.id("x"), ls(a))
		vertex(tx, e.id("x"), ls(b))
	})
	e.barrier()
	noErr(mr.FreeLabel(a), "FreeLabel A (one vertex left without labels)")
	is(mr.FreeLabel(b), gdi.WarnNonUniqueID, "FreeLabel B (two vertices without labels share an ID)")
	e.view(func(tx gdi.Transaction) {
		_, found, err := tx.TranslateVertexID(gdi.LabelNone, e.id("x"))
		is(err, gdi.WarnNonUniqueID, "TranslateVertexID(LabelNone) of the shared ID")
		if !found {
			failf("not found")
		}
	})
}

// rewriterFreeLabelWarnExisting: spec 5 on GDI_FreeLabel: "If after the
// label is removed, the graph database contains any vertices without any
// labels and the same application level ID, GDI WARNING NON UNIQUE ID is
// returned." The condition is on the database after the call, not on what
// the call changed: two vertices without labels that shared an ID before
// the call make FreeLabel warn, whether the freed label was on another
// vertex or on none.
func rewriterFreeLabelWarnExisting(e *Env) {
	mr := rewriter(e)
	a, b := e.label("A"), e.label("B")
	e.barrier()
	e.update(func(tx gdi.Transaction) {
		vertex(tx, e.id("dup"), nil)
		vertex(tx, e.id("dup"), nil)
		vertex(tx, e.id("y"), ls(a))
	})
	e.barrier()
	is(mr.FreeLabel(a), gdi.WarnNonUniqueID, "FreeLabel of a label on another vertex while two vertices without labels share an ID (spec 5: after the removal the database contains vertices without labels with the same ID)")
	is(mr.FreeLabel(b), gdi.WarnNonUniqueID, "FreeLabel of an unused label while two vertices without labels share an ID (spec 5: after the removal the database contains vertices without labels with the same ID)")
	e.view(func(tx gdi.Transaction) {
		sameSet(labelsOf(find(tx, gdi.LabelNone, e.id("y"))), nil, "labels of y after FreeLabel")
		_, found, err := tx.TranslateVertexID(gdi.LabelNone, e.id("dup"))
		is(err, gdi.WarnNonUniqueID, "TranslateVertexID(LabelNone) of the shared ID")
		if !found {
			failf("TranslateVertexID(LabelNone) of the shared ID: not found")
		}
	})
}

func rewriterFreedLabelHandle(e *Env) {
	mr := rewriter(e)
	a := e.label("A")
	p := e.single("p", gdi.Int8)
	okf(mr.FreeLabel(a), "FreeLabel")
	okf(mr.FreePropertyType(p), "FreePropertyType")
	_, err := e.DB.LabelName(a)
	is(err, gdi.ErrLabel, "LabelName(freed label)")
	is(e.DB.UpdateLabel(a, "Z"), gdi.ErrLabel, "UpdateLabel(freed label)")
	is(mr.FreeLabel(a), gdi.ErrLabel, "FreeLabel twice")
	_, err = e.DB.PropertyTypeInfo(p)
	is(err, gdi.ErrPropertyType, "PropertyTypeInfo(freed property type)")
	is(mr.FreePropertyType(p), gdi.ErrPropertyType, "FreePropertyType twice")
	s := must(e.DB.CreateSubconstraint())
	is(s.AddLabelCondition(a, gdi.Equal), gdi.ErrLabel, "AddLabelCondition(freed label)")
	is(s.AddPropertyCondition(p, gdi.Equal, gdi.Int8s(1)), gdi.ErrPropertyType, "AddPropertyCondition(freed property type)")
	tx := e.tx()
	v := vertex(tx, e.id("v"), nil)
	is(v.AddLabel(a), gdi.ErrLabel, "AddLabel(freed label)")
	is(v.AddProperty(p, gdi.Int8s(1)), gdi.ErrPropertyType, "AddProperty(freed property type)")
	_, _, err = tx.TranslateVertexID(a, e.id("v"))
	is(err, gdi.ErrLabel, "TranslateVertexID(freed label)")
	commit(tx)
	b := e.label("B")
	q := e.single("q", gdi.Int8)
	if b.ID() == a.ID() || q.ID() == p.ID() {
		failf("object numbers reused after free: label %d->%d, property type %d->%d", a.ID(), b.ID(), p.ID(), q.ID())
	}
}

func rewriterFreePtype(e *Env) {
	mr := rewriter(e)
	p := e.multi("p", gdi.Int8)
	q := e.single("q", gdi.Int8)
	e.barrier()
	var eu gdi.EdgeUID
	e.update(func(tx gdi.Transaction) {
		x := vertex(tx, e.id("x"), nil, prop{p, gdi.Int8s(1)}, prop{p, gdi.Int8s(2)}, prop{q, gdi.Int8s(3)})
		y := vertex(tx, e.id("y"), nil)
		h := edge(tx, gdi.Directed, x, y, gdi.PropertyTypeNull, "")
		okf(h.AddProperty(p, gdi.Int8s(4)), "edge AddProperty")
		eu = euid(h)
	})
	e.barrier()
	okf(mr.FreePropertyType(p), "FreePropertyType")
	sameSet(must(e.DB.PropertyTypes()), []gdi.PropertyType{q}, "PropertyTypes() after FreePropertyType")
	e.view(func(tx gdi.Transaction) {
		x := find(tx, gdi.LabelNone, e.id("x"))
		sameSet(must(x.PropertyTypes()), []gdi.PropertyType{gdi.PropertyTypeID, q}, "property types of x")
		sameSet(must(must(tx.AssociateEdge(eu)).PropertyTypes()), nil, "property types of the edge")
	})
}

func rewriterPredefined(e *Env) {
	mr := rewriter(e)
	is(mr.FreeLabel(gdi.LabelNone), gdi.ErrLabel, "FreeLabel(LabelNone)")
	is(mr.FreeLabel(gdi.LabelNull), gdi.ErrLabel, "FreeLabel(LabelNull)")
	for _, p := range gdi.PredefinedPropertyTypes() {
		is(mr.FreePropertyType(p), gdi.ErrPropertyType, "FreePropertyType(%v)", p)
		is(mr.UpdatePropertyType(p, gdi.PropertyTypeInfo{Name: "x", Entity: gdi.SingleEntity, Datatype: gdi.Int8, Size: gdi.NoSizeLimit}, gdi.Value{}), gdi.ErrPropertyType, "UpdatePropertyType(%v)", p)
	}
	is(mr.FreePropertyType(gdi.PropertyTypeNull), gdi.ErrPropertyType, "FreePropertyType(PropertyTypeNull)")
}

func rewriterUpdateConvert(e *Env) {
	mr := rewriter(e)
	type conv struct {
		name string
		from gdi.Value
		to   gdi.Datatype
	}
	d, _ := gdi.NewDate(2020, 1, 2)
	dt, _ := gdi.NewDatetime(2021, 3, 4, 5, 6, 7, 8, 100)
	dec, _ := gdi.ParseDecimal("-7.9")
	convs := []conv{
		{"i32-i64", gdi.Int32s(-5, 7), gdi.Int64},
		{"i64-i8", gdi.Int64s(300, -1), gdi.Int8},
		{"dbl-i32", gdi.Doubles(-2.75), gdi.Int32},
		{"i16-dbl", gdi.Int16s(3), gdi.Double},
		{"dec-i64", gdi.Decimals(dec), gdi.Int64},
		{"u8-dec", gdi.Uint8s(200), gdi.DecimalType},
		{"date-datetime", gdi.Dates(d), gdi.DatetimeType},
		{"datetime-date", gdi.Datetimes(dt), gdi.DateType},
		{"datetime-time", gdi.Datetimes(dt), gdi.TimeType},
		{"i8-bool", gdi.Int8s(0, 5), gdi.Bool},
	}
	var pts []gdi.PropertyType
	for _, c := range convs {
		pts = append(pts, e.multi(c.name, c.from.Datatype()))
	}
	e.update(func(tx gdi.Transaction) {
		v := vertex(tx, e.id("v"), nil)
		for i, c := range convs {
			okf(v.AddProperty(pts[i], c.from), "AddProperty(%s)", c.name)
		}
	})
	for i, c := range convs {
		okf(mr.UpdatePropertyType(pts[i], gdi.PropertyTypeInfo{Name: c.name, Entity: gdi.MultipleEntity, Datatype: c.to, Size: gdi.NoSizeLimit}, gdi.Value{}), "UpdatePropertyType(%s)", c.name)
		if info := must(e.DB.PropertyTypeInfo(pts[i])); info.Datatype != c.to {
			failf("datatype after update = %v, want %v", info.Datatype, c.to)
		}
	}
	e.view(func(tx gdi.Transaction) {
		v := find(tx, gdi.LabelNone, e.id("v"))
		for i, c := range convs {
			want, err := gdi.Convert(c.from, c.to)
			okf(err, "Convert")
			sameSet(values(v, pts[i]), []gdi.Value{want}, "value converted %s", c.name)
		}
	})
}

func rewriterUpdateSize(e *Env) {
	mr := rewriter(e)
	multi := e.multi("multi", gdi.Int8)
	fixed := e.ptype("fixed", gdi.SingleEntity, gdi.Int8, gdi.FixedSize, 2)
	max := e.ptype("max", gdi.SingleEntity, gdi.Int8, gdi.MaxSize, 4)
	free := e.multi("free", gdi.Int8)
	e.update(func(tx gdi.Transaction) {
		v := vertex(tx, e.id("v"), nil, prop{multi, gdi.Int8s(1)}, prop{multi, gdi.Int8s(2)}, prop{fixed, gdi.Int8s(1, 2)},
			prop{max, gdi.Int8s(1, 2, 3)}, prop{free, gdi.Int8s(1)}, prop{free, gdi.Int8s(1, 2, 3, 4)})
		_ = v
	})
	pad := gdi.Int8s(9)
	okf(mr.UpdatePropertyType(multi, gdi.PropertyTypeInfo{Name: "multi", Entity: gdi.SingleEntity, Datatype: gdi.Int8, Size: gdi.NoSizeLimit}, gdi.Value{}), "multiple to single entity")
	okf(mr.UpdatePropertyType(fixed, gdi.PropertyTypeInfo{Name: "fixed", Entity: gdi.SingleEntity, Datatype: gdi.Int8, Size: gdi.FixedSize, Count: 4}, pad), "FixedSize 2 to 4")
	okf(mr.UpdatePropertyType(max, gdi.PropertyTypeInfo{Name: "max", Entity: gdi.SingleEntity, Datatype: gdi.Int8, Size: gdi.MaxSize, Count: 2}, gdi.Value{}), "MaxSize 4 to 2")
	okf(mr.UpdatePropertyType(free, gdi.PropertyTypeInfo{Name: "free", Entity: gdi.MultipleEntity, Datatype: gdi.Int8, Size: gdi.FixedSize, Count: 2}, pad), "NoSizeLimit to FixedSize 2")
	e.view(func(tx gdi.Transaction) {
		v := find(tx, gdi.LabelNone, e.id("v"))
		vs := values(v, multi)
		if len(vs) != 1 || (vs[0] != gdi.Int8s(1) && vs[0] != gdi.Int8s(2)) {
			failf("after becoming single entity: %v, want one of the old values", vs)
		}
		sameSet(values(v, fixed), []gdi.Value{gdi.Int8s(1, 2, 9, 9)}, "fixed padded with the default")
		sameSet(values(v, max), []gdi.Value{gdi.Int8s(1, 2)}, "max cut to the new limit")
		sameSet(values(v, free), []gdi.Value{gdi.Int8s(1, 9), gdi.Int8s(1, 2)}, "no limit to fixed: padded and cut")
	})
}

func rewriterUpdateErrors(e *Env) {
	mr := rewriter(e)
	c := e.single("c", gdi.Char)
	f := e.ptype("f", gdi.SingleEntity, gdi.Int8, gdi.FixedSize, 1)
	e.single("taken", gdi.Int8)
	e.update(func(tx gdi.Transaction) {
		vertex(tx, e.id("v"), nil, prop{c, gdi.Chars("abc")}, prop{f, gdi.Int8s(1)})
	})
	is(mr.UpdatePropertyType(c, gdi.PropertyTypeInfo{Name: "c", Entity: gdi.SingleEntity, Datatype: gdi.Int32, Size: gdi.NoSizeLimit}, gdi.Value{}), gdi.ErrConversion, "Char to Int32")
	is(mr.UpdatePropertyType(c, gdi.PropertyTypeInfo{Name: "taken", Entity: gdi.SingleEntity, Datatype: gdi.Char, Size: gdi.NoSizeLimit}, gdi.Value{}), gdi.ErrNameExists, "rename to an existing name")
	is(mr.UpdatePropertyType(c, gdi.PropertyTypeInfo{Name: "", Entity: gdi.SingleEntity, Datatype: gdi.Char, Size: gdi.NoSizeLimit}, gdi.Value{}), gdi.ErrEmptyName, "empty name")
	is(mr.UpdatePropertyType(f, gdi.PropertyTypeInfo{Name: "f", Entity: gdi.SingleEntity, Datatype: gdi.Int8, Size: gdi.FixedSize, Count: 3}, gdi.Value{}), gdi.ErrArgument, "padding needed without a default")
	is(mr.UpdatePropertyType(f, gdi.PropertyTypeInfo{Name: "f", Entity: gdi.SingleEntity, Datatype: gdi.Int8, Size: gdi.FixedSize, Count: 3}, gdi.Int16s(1)), gdi.ErrArgument, "default of another datatype")
	is(mr.UpdatePropertyType(f, gdi.PropertyTypeInfo{Name: "f", Entity: 0, Datatype: gdi.Int8, Size: gdi.NoSizeLimit}, gdi.Value{}), gdi.ErrState, "invalid entity type")
	if info := must(e.DB.PropertyTypeInfo(c)); info.Datatype != gdi.Char || info.Name != "c" {
		failf("failed updates changed the type: %+v", info)
	}
	okf(mr.UpdatePropertyType(c, gdi.PropertyTypeInfo{Name: "renamed", Entity: gdi.MultipleEntity, Datatype: gdi.Char, Size: gdi.NoSizeLimit}, gdi.Value{}), "rename only")
	if got := must(e.DB.PropertyTypeFromName("renamed")); got != c {
		failf("PropertyTypeFromName(renamed) = %v", got)
	}
	e.view(func(tx gdi.Transaction) {
		v := find(tx, gdi.LabelNone, e.id("v"))
		sameSet(values(v, c), []gdi.Value{gdi.Chars("abc")}, "values after failed updates and a rename")
		sameSet(values(v, f), []gdi.Value{gdi.Int8s(1)}, "values of f after failed updates")
	})
}

func rewriterQuiet(e *Env) {
	mr := rewriter(e)
	l := e.label("L")
	p := e.single("p", gdi.Int8)
	tx := e.tx()
	is(mr.FreeLabel(l), gdi.ErrConsistency, "FreeLabel with a transaction open on every rank")
	is(mr.FreePropertyType(p), gdi.ErrConsistency, "FreePropertyType with a transaction open")
	is(mr.UpdatePropertyType(p, gdi.PropertyTypeInfo{Name: "p", Entity: gdi.SingleEntity, Datatype: gdi.Int16, Size: gdi.NoSizeLimit}, gdi.Value{}), gdi.ErrConsistency, "UpdatePropertyType with a transaction open")
	if ld, ok := e.DB.(gdi.CSVLoader); ok {
		fs := mapFS(map[string]string{"v.csv": b64("a") + "\n"})
		is(ld.LoadVertexCSV(gdi.VertexCSV{CSVFile: csvFile(fs, "v.csv", false, gdi.NoSorting), Labels: ls(l)}), gdi.ErrConsistency, "LoadVertexCSV with a transaction open")
	}
	okf(tx.Abort(), "Abort")
	sameSet(must(e.DB.Labels()), ls(l), "labels after the refused FreeLabel")
}
