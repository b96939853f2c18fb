package conformance

import (
	"strings"

	"github.com/gdi-go/gdi/gdi"
)

var metadataCases = []Case{
	c("Label/create-and-lookup", labelCreateLookup),
	c("Label/visible-on-all-ranks-after-barrier", labelVisibleAllRanks),
	c("Label/name-rules", labelNameRules),
	c("Label/name-exists-and-empty-name", labelNameErrors),
	c("Label/update-renames", labelUpdate),
	c("Label/predefined-none", labelPredefinedNone),
	c("Label/invalid-handles", labelInvalidHandles),
	c("Label/lookup-missing-returns-null", labelLookupMissing),
	c("Label/lookup-empty-name-returns-null-without-error", labelLookupEmpty),
	c("PropertyType/create-and-info", ptypeCreateInfo),
	c("PropertyType/invalid-descriptions", ptypeInvalid),
	c("PropertyType/name-rules", ptypeNameRules),
	c("PropertyType/predefined", ptypePredefined),
	c("PropertyType/lookup-empty-name-returns-null-without-error", ptypeLookupEmpty),
	c("PropertyType/invalid-handles", ptypeInvalidHandles),
	c("PropertyType/separate-namespace-from-labels", ptypeSeparateNamespace),
	c("Database/free-invalidates-everything", databaseFree),
	c("Database/objects-of-another-database", databaseOtherDB),
	c("Database/objects-of-another-rank", databaseOtherRank),
}

// labelCreateLookup: a created label is found by name, has its name, is
// listed, and has the same object number on every rank.
func labelCreateLookup(e *Env) {
	db := e.DB
	l := e.label("Person")
	if got := must(db.LabelFromName("Person")); got != l {
		failf("LabelFromName(Person) = %v, want %v", got, l)
	}
	if got := must(db.LabelName(l)); got != "Person" {
		failf("LabelName = %q, want Person", got)
	}
	m := e.label("Movie")
	sameSet(must(db.Labels()), ls(l, m), "Labels()")
	if l.ID() < gdi.FirstUserID || m.ID() < gdi.FirstUserID {
		failf("object numbers %d, %d below FirstUserID", l.ID(), m.ID())
	}
	if l == m {
		failf("two labels have the same handle %v", l)
	}
	e.sameOnAllRanks(uint64(l.ID()), "object number of label Person")
	e.sameOnAllRanks(uint64(m.ID()), "object number of label Movie")
}

// labelVisibleAllRanks: labels created collectively are visible by name on
// every rank once the ranks have synchronised, with equal object numbers.
func labelVisibleAllRanks(e *Env) {
	var made []gdi.Label
	for _, n := range []string{"A", "B", "C"} {
		made = append(made, e.label(n))
	}
	e.barrier()
	for i, n := range []string{"A", "B", "C"} {
		got := must(e.DB.LabelFromName(n))
		if got != made[i] {
			failf("LabelFromName(%q) = %v, want %v", n, got, made[i])
		}
		e.sameOnAllRanks(uint64(got.ID()), "object number of "+n)
	}
	p := e.single("weight", gdi.Double)
	e.barrier()
	if got := must(e.DB.PropertyTypeFromName("weight")); got != p {
		failf("PropertyTypeFromName(weight) = %v, want %v", got, p)
	}
	e.sameOnAllRanks(uint64(p.ID()), "object number of property type weight")
}

// labelNameRules: trailing spaces are dropped, leading ones kept, long
// names cut to MaxObjectName-1 bytes (spec 2.7, 5).
func labelNameRules(e *Env) {
	db := e.DB
	a := e.label("trail   ")
	if got := must(db.LabelName(a)); got != "trail" {
		failf("LabelName of %q = %q, want %q", "trail   ", got, "trail")
	}
	if got := must(db.LabelFromName("trail")); got != a {
		failf("LabelFromName(trail) = %v, want %v", got, a)
	}
	if got := must(db.LabelFromName("trail  ")); got != a {
		failf("LabelFromName(%q) = %v, want %v (trailing spaces ignored)", "trail  ", got, a)
	}
	b := e.label("  lead")
	if got := must(db.LabelName(b)); got != "  lead" {
		failf("LabelName = %q, want %q (leading spaces kept)", got, "  lead")
	}
	if got := must(db.LabelFromName("lead")); got != gdi.LabelNull {
		failf("LabelFromName(lead) = %v, want LabelNull", got)
	}
	long := strings.Repeat("x", 300)
	l := e.label(long)
	name := must(db.LabelName(l))
	if name != long[:gdi.MaxObjectName-1] {
		failf("long name stored with %d bytes, want %d", len(name), gdi.MaxObjectName-1)
	}
	if got := must(db.LabelFromName(long)); got != l {
		failf("LabelFromName(long name) = %v, want %v", got, l)
	}
	_, err := db.CreateLabel(long + "y")
	is(err, gdi.ErrNameExists, "CreateLabel of a name equal to an existing one after truncation")
}

func labelNameErrors(e *Env) {
	db := e.DB
	e.label("Dup")
	_, err := db.CreateLabel("Dup")
	is(err, gdi.ErrNameExists, "CreateLabel(existing name)")
	_, err = db.CreateLabel("Dup  ")
	is(err, gdi.ErrNameExists, "CreateLabel(existing name + trailing spaces)")
	_, err = db.CreateLabel("")
	is(err, gdi.ErrEmptyName, "CreateLabel(\"\")")
	_, err = db.CreateLabel("   ")
	is(err, gdi.ErrEmptyName, "CreateLabel(only spaces)")
	_, err = db.CreateLabel(gdi.LabelNoneName)
	is(err, gdi.ErrNameExists, "CreateLabel(GDI_LABEL_NONE)")
	if n := len(must(db.Labels())); n != 1 {
		failf("Labels() has %d labels after failed creations, want 1", n)
	}
}

func labelUpdate(e *Env) {
	db := e.DB
	a := e.label("Old")
	b := e.label("Other")
	okf(db.UpdateLabel(a, "New  "), "UpdateLabel(a, New)")
	if got := must(db.LabelName(a)); got != "New" {
		failf("LabelName after update = %q, want New", got)
	}
	if got := must(db.LabelFromName("Old")); got != gdi.LabelNull {
		failf("old name still found: %v", got)
	}
	if got := must(db.LabelFromName("New")); got != a {
		failf("LabelFromName(New) = %v, want %v", got, a)
	}
	noErr(db.UpdateLabel(a, "New"), "UpdateLabel to the current name")
	is(db.UpdateLabel(a, "Other"), gdi.ErrNameExists, "UpdateLabel to another label's name")
	is(db.UpdateLabel(a, ""), gdi.ErrEmptyName, "UpdateLabel to empty name")
	is(db.UpdateLabel(gdi.LabelNone, "X"), gdi.ErrLabel, "UpdateLabel(LabelNone)")
	is(db.UpdateLabel(gdi.LabelNull, "X"), gdi.ErrLabel, "UpdateLabel(LabelNull)")
	if got := must(db.LabelName(b)); got != "Other" {
		failf("other label renamed to %q", got)
	}
	e.barrier()
	if got := must(db.LabelFromName("New")); got.ID() != a.ID() {
		failf("after barrier LabelFromName(New) = %v", got)
	}
}

func labelPredefinedNone(e *Env) {
	db := e.DB
	if got := must(db.LabelFromName(gdi.LabelNoneName)); got != gdi.LabelNone {
		failf("LabelFromName(GDI_LABEL_NONE) = %v, want LabelNone", got)
	}
	if got := must(db.LabelName(gdi.LabelNone)); got != gdi.LabelNoneName {
		failf("LabelName(LabelNone) = %q", got)
	}
	e.label("L")
	for _, l := range must(db.Labels()) {
		if l == gdi.LabelNone {
			failf("Labels() lists LabelNone")
		}
	}
}

func labelInvalidHandles(e *Env) {
	db := e.DB
	l := e.label("Real")
	bogus := gdi.MakeLabel(l.Tag(), l.ID()+1000)
	for _, x := range []gdi.Label{gdi.LabelNull, bogus} {
		name, err := db.LabelName(x)
		is(err, gdi.ErrLabel, "LabelName(%v)", x)
		if name != "" {
			failf("LabelName(%v) returned %q with an error, want \"\"", x, name)
		}
		is(db.UpdateLabel(x, "zzz"), gdi.ErrLabel, "UpdateLabel(%v)", x)
	}
}

func labelLookupMissing(e *Env) {
	l, err := e.DB.LabelFromName("nope")
	noErr(err, "LabelFromName(missing)")
	if l != gdi.LabelNull {
		failf("LabelFromName(missing) = %v, want LabelNull", l)
	}
	p, err := e.DB.PropertyTypeFromName("nope")
	noErr(err, "PropertyTypeFromName(missing)")
	if p != gdi.PropertyTypeNull {
		failf("PropertyTypeFromName(missing) = %v, want PropertyTypeNull", p)
	}
}

// labelLookupEmpty: a lookup by a name that is empty, or only spaces
// (trailing spaces are ignored, spec 2.7), finds nothing, since no label
// can have that name, and answers as for any name that is not found: "If
// the name is not found, label contains GDI LABEL NULL" (spec 5,
// GDI_GetLabelFromName); the binding: "LabelNull (and no error) if there
// is none". GDI_ERROR_EMPTY_NAME is specified only for the calls that
// store a name (GDI_CreateLabel, GDI_UpdateLabel), not for the lookup.
func labelLookupEmpty(e *Env) {
	e.label("L")
	for _, name := range []string{"", "  "} {
		l, err := e.DB.LabelFromName(name)
		noErr(err, "LabelFromName(%q) (spec 5: a name not found gives GDI_LABEL_NULL; EMPTY_NAME is not an error of the lookup)", name)
		if l != gdi.LabelNull {
			failf("LabelFromName(%q) = %v, want LabelNull (spec 5: a name not found gives GDI_LABEL_NULL)", name, l)
		}
	}
}

// ptypeLookupEmpty: as labelLookupEmpty, for property types: "If the name
// is not found, ptype contains GDI PROPERTY TYPE NULL" (spec 6.3,
// GDI_GetPropertyTypeFromName); the binding: "PropertyTypeNull (and no
// error) if there is none". GDI_ERROR_EMPTY_NAME is specified for
// GDI_CreatePropertyType and GDI_UpdatePropertyType only.
func ptypeLookupEmpty(e *Env) {
	e.single("p", gdi.Int8)
	for _, name := range []string{"", "  "} {
		p, err := e.DB.PropertyTypeFromName(name)
		noErr(err, "PropertyTypeFromName(%q) (spec 6.3: a name not found gives GDI_PROPERTY_TYPE_NULL; EMPTY_NAME is not an error of the lookup)", name)
		if p != gdi.PropertyTypeNull {
			failf("PropertyTypeFromName(%q) = %v, want PropertyTypeNull (spec 6.3: a name not found gives GDI_PROPERTY_TYPE_NULL)", name, p)
		}
	}
}

func ptypeCreateInfo(e *Env) {
	db := e.DB
	cases := []gdi.PropertyTypeInfo{
		{Name: "fixed", Entity: gdi.SingleEntity, Datatype: gdi.Int32, Size: gdi.FixedSize, Count: 3},
		{Name: "max", Entity: gdi.MultipleEntity, Datatype: gdi.Char, Size: gdi.MaxSize, Count: 10},
		{Name: "free", Entity: gdi.SingleEntity, Datatype: gdi.Byte, Size: gdi.NoSizeLimit, Count: 99},
		{Name: "dec", Entity: gdi.MultipleEntity, Datatype: gdi.DecimalType, Size: gdi.FixedSize, Count: 1},
	}
	var made []gdi.PropertyType
	for _, info := range cases {
		p := must(db.CreatePropertyType(info))
		made = append(made, p)
		want, _ := info.Validate()
		if got := must(db.PropertyTypeInfo(p)); got != want {
			failf("PropertyTypeInfo(%s) = %+v, want %+v", info.Name, got, want)
		}
		if got := must(db.PropertyTypeFromName(info.Name)); got != p {
			failf("PropertyTypeFromName(%s) = %v, want %v", info.Name, got, p)
		}
		e.sameOnAllRanks(uint64(p.ID()), "object number of "+info.Name)
	}
	if got := must(db.PropertyTypeInfo(made[2])); got.Count != 0 {
		failf("NoSizeLimit count reported as %d, want 0", got.Count)
	}
	sameSet(must(db.PropertyTypes()), made, "PropertyTypes()")
}

func ptypeInvalid(e *Env) {
	db := e.DB
	for _, tc := range []struct {
		info gdi.PropertyTypeInfo
		code gdi.Code
	}{
		{gdi.PropertyTypeInfo{Name: "", Entity: gdi.SingleEntity, Datatype: gdi.Int8, Size: gdi.NoSizeLimit}, gdi.ErrEmptyName},
		{gdi.PropertyTypeInfo{Name: "e", Entity: 0, Datatype: gdi.Int8, Size: gdi.NoSizeLimit}, gdi.ErrState},
		{gdi.PropertyTypeInfo{Name: "e", Entity: 7, Datatype: gdi.Int8, Size: gdi.NoSizeLimit}, gdi.ErrState},
		{gdi.PropertyTypeInfo{Name: "d", Entity: gdi.SingleEntity, Datatype: 0, Size: gdi.NoSizeLimit}, gdi.ErrDatatype},
		{gdi.PropertyTypeInfo{Name: "d", Entity: gdi.SingleEntity, Datatype: 200, Size: gdi.NoSizeLimit}, gdi.ErrDatatype},
		{gdi.PropertyTypeInfo{Name: "s", Entity: gdi.SingleEntity, Datatype: gdi.Int8, Size: 0}, gdi.ErrState},
		{gdi.PropertyTypeInfo{Name: "c", Entity: gdi.SingleEntity, Datatype: gdi.Int8, Size: gdi.FixedSize, Count: 0}, gdi.ErrCount},
		{gdi.PropertyTypeInfo{Name: "c", Entity: gdi.SingleEntity, Datatype: gdi.Int8, Size: gdi.MaxSize, Count: -1}, gdi.ErrCount},
		{gdi.PropertyTypeInfo{Name: "GDI_PROPERTY_TYPE_ID", Entity: gdi.SingleEntity, Datatype: gdi.Int8, Size: gdi.NoSizeLimit}, gdi.ErrNameExists},
		{gdi.PropertyTypeInfo{Name: "GDI_PROPERTY_TYPE_DEGREE", Entity: gdi.SingleEntity, Datatype: gdi.Int8, Size: gdi.NoSizeLimit}, gdi.ErrNameExists},
	} {
		p, err := db.CreatePropertyType(tc.info)
		is(err, tc.code, "CreatePropertyType(%+v)", tc.info)
		if p != gdi.PropertyTypeNull {
			failf("CreatePropertyType(%+v) failed but returned %v", tc.info, p)
		}
	}
	e.single("taken", gdi.Int8)
	_, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "taken", Entity: gdi.MultipleEntity, Datatype: gdi.Char, Size: gdi.NoSizeLimit})
	is(err, gdi.ErrNameExists, "CreatePropertyType(existing name)")
	if n := len(must(db.PropertyTypes())); n != 1 {
		failf("PropertyTypes() has %d entries after failed creations, want 1", n)
	}
}

func ptypeNameRules(e *Env) {
	db := e.DB
	p := e.single("age   ", gdi.Int64)
	if info := must(db.PropertyTypeInfo(p)); info.Name != "age" {
		failf("name stored as %q, want age", info.Name)
	}
	if got := must(db.PropertyTypeFromName("age  ")); got != p {
		failf("PropertyTypeFromName(%q) = %v, want %v", "age  ", got, p)
	}
	long := strings.Repeat("é", 100) // 200 bytes: cut at a rune boundary
	q := e.single(long, gdi.Int64)
	info := must(db.PropertyTypeInfo(q))
	want, _ := gdi.NormalizeName(long)
	if info.Name != want {
		failf("long name stored as %d bytes, want %d", len(info.Name), len(want))
	}
}

func ptypePredefined(e *Env) {
	db := e.DB
	for _, p := range gdi.PredefinedPropertyTypes() {
		want, _ := gdi.PredefinedPropertyTypeInfo(p)
		if got := must(db.PropertyTypeInfo(p)); got != want {
			failf("PropertyTypeInfo(%v) = %+v, want %+v", p, got, want)
		}
		if got := must(db.PropertyTypeFromName(want.Name)); got != p {
			failf("PropertyTypeFromName(%s) = %v, want %v", want.Name, got, p)
		}
	}
	e.single("user", gdi.Int8)
	for _, p := range must(db.PropertyTypes()) {
		if p.IsPredefined() {
			failf("PropertyTypes() lists predefined %v", p)
		}
	}
}

func ptypeInvalidHandles(e *Env) {
	db := e.DB
	p := e.single("real", gdi.Int8)
	bogus := gdi.MakePropertyType(p.Tag(), p.ID()+1000)
	for _, x := range []gdi.PropertyType{gdi.PropertyTypeNull, bogus} {
		info, err := db.PropertyTypeInfo(x)
		is(err, gdi.ErrPropertyType, "PropertyTypeInfo(%v)", x)
		if info.Name != "" {
			failf("PropertyTypeInfo(%v) returned name %q with an error", x, info.Name)
		}
	}
}

func ptypeSeparateNamespace(e *Env) {
	l := e.label("same")
	p := e.single("same", gdi.Int8)
	if got := must(e.DB.LabelFromName("same")); got != l {
		failf("LabelFromName = %v, want %v", got, l)
	}
	if got := must(e.DB.PropertyTypeFromName("same")); got != p {
		failf("PropertyTypeFromName = %v, want %v", got, p)
	}
}

// databaseFree: after Free, every method of the Database returns
// ErrDatabase, and its objects are invalid.
func databaseFree(e *Env) {
	db, err := e.backend.Driver.CreateDatabase(e.Comm, e.backend.params())
	okf(err, "CreateDatabase")
	l, err := db.CreateLabel("L")
	okf(err, "CreateLabel")
	tx, err := db.StartTransaction()
	okf(err, "StartTransaction")
	v, err := tx.CreateVertex([]byte("x"))
	okf(err, "CreateVertex")
	idx, err := db.CreateIndex(gdi.HashTableIndex, 0)
	okf(err, "CreateIndex")
	cons, err := db.CreateConstraint()
	okf(err, "CreateConstraint")
	sub, err := db.CreateSubconstraint()
	okf(err, "CreateSubconstraint")
	okf(db.Free(), "Free (with a transaction open)")

	_, err = db.CreateLabel("M")
	is(err, gdi.ErrDatabase, "CreateLabel after Free")
	_, err = db.LabelFromName("L")
	is(err, gdi.ErrDatabase, "LabelFromName after Free")
	_, err = db.LabelName(l)
	is(err, gdi.ErrDatabase, "LabelName after Free")
	_, err = db.Labels()
	is(err, gdi.ErrDatabase, "Labels after Free")
	_, err = db.PropertyTypes()
	is(err, gdi.ErrDatabase, "PropertyTypes after Free")
	_, err = db.StartTransaction()
	is(err, gdi.ErrDatabase, "StartTransaction after Free")
	_, err = db.Transactions()
	is(err, gdi.ErrDatabase, "Transactions after Free")
	_, err = db.Indexes()
	is(err, gdi.ErrDatabase, "Indexes after Free")
	_, err = db.CreateConstraint()
	is(err, gdi.ErrDatabase, "CreateConstraint after Free")
	_, err = db.Constraints()
	is(err, gdi.ErrDatabase, "Constraints after Free")
	_, err = db.Subconstraints()
	is(err, gdi.ErrDatabase, "Subconstraints after Free")
	is(db.Free(), gdi.ErrDatabase, "second Free")

	// Objects of a freed database are freed as well.
	is(tx.Commit(), gdi.ErrTransaction, "Commit of a transaction of a freed database")
	_, err = v.Labels()
	is(err, gdi.ErrVertex, "holder of a freed database")
	_, err = idx.Type()
	is(err, gdi.ErrIndex, "index of a freed database")
	_, err = cons.IsStale()
	is(err, gdi.ErrConstraint, "constraint of a freed database")
	_, err = sub.IsStale()
	is(err, gdi.ErrSubconstraint, "subconstraint of a freed database")
}

// databaseOtherDB: labels, property types, indexes, constraints,
// subconstraints, holders and UIDs of another database are rejected with
// ErrObjectMismatch (UIDs: ErrUID is allowed as well).
func databaseOtherDB(e *Env) {
	db2 := e.NewDatabase()
	l1 := e.label("L")
	p1 := e.single("p", gdi.Int64)
	l2, err := db2.CreateLabel("L")
	okf(err, "db2 CreateLabel")
	p2, err := db2.CreatePropertyType(gdi.PropertyTypeInfo{Name: "p", Entity: gdi.SingleEntity, Datatype: gdi.Int64, Size: gdi.NoSizeLimit})
	okf(err, "db2 CreatePropertyType")
	idx2, err := db2.CreateIndex(gdi.HashTableIndex, 0)
	okf(err, "db2 CreateIndex")
	idx1 := must(e.DB.CreateIndex(gdi.HashTableIndex, 0))
	e.barrier()
	if l1 == l2 || p1 == p2 {
		failf("handles of two databases are equal: %v %v", l1, l2)
	}
	checkForeignHandles(e, e.DB, l2, p2, idx2, db2, idx1)
}

// checkForeignHandles checks that db rejects handles of other (a label, a
// property type and an index of another Database; db2 is that Database,
// used to make constraints, subconstraints and a transaction there).
func checkForeignHandles(e *Env, db gdi.Database, l2 gdi.Label, p2 gdi.PropertyType, idx2 gdi.Index, db2 gdi.Database, idx1 gdi.Index) {
	_, err := db.LabelName(l2)
	is(err, gdi.ErrObjectMismatch, "LabelName(foreign label)")
	is(db.UpdateLabel(l2, "Z"), gdi.ErrObjectMismatch, "UpdateLabel(foreign label)")
	_, err = db.PropertyTypeInfo(p2)
	is(err, gdi.ErrObjectMismatch, "PropertyTypeInfo(foreign property type)")

	sub := must(db.CreateSubconstraint())
	is(sub.AddLabelCondition(l2, gdi.Equal), gdi.ErrObjectMismatch, "AddLabelCondition(foreign label)")
	is(sub.AddPropertyCondition(p2, gdi.Equal, gdi.Int64s(1)), gdi.ErrObjectMismatch, "AddPropertyCondition(foreign property type)")
	_, err = sub.PropertyConditions(p2)
	is(err, gdi.ErrObjectMismatch, "PropertyConditions(foreign property type)")
	cons := must(db.CreateConstraint())
	var cons2 gdi.Constraint
	if db2 != nil {
		sub2, err := db2.CreateSubconstraint()
		okf(err, "foreign CreateSubconstraint")
		is(cons.AddSubconstraint(sub2), gdi.ErrObjectMismatch, "AddSubconstraint(foreign subconstraint)")
		cons2, err = db2.CreateConstraint()
		okf(err, "foreign CreateConstraint")
		okf(cons2.AddSubconstraint(sub2), "foreign AddSubconstraint")
	}

	tx := e.tx()
	v := vertex(tx, e.id("v"), nil)
	w := vertex(tx, e.id("w"), nil)
	is(v.AddLabel(l2), gdi.ErrObjectMismatch, "AddLabel(foreign label)")
	is(v.RemoveLabel(l2), gdi.ErrObjectMismatch, "RemoveLabel(foreign label)")
	is(v.AddProperty(p2, gdi.Int64s(1)), gdi.ErrObjectMismatch, "AddProperty(foreign property type)")
	is(v.SetProperty(p2, gdi.Int64s(1)), gdi.ErrObjectMismatch, "SetProperty(foreign property type)")
	_, err = v.Properties(p2)
	is(err, gdi.ErrObjectMismatch, "Properties(foreign property type)")
	is(v.RemoveProperties(p2), gdi.ErrObjectMismatch, "RemoveProperties(foreign property type)")
	_, _, err = tx.TranslateVertexID(l2, e.id("v"))
	is(err, gdi.ErrObjectMismatch, "TranslateVertexID(foreign label)")
	if idx2 != nil {
		_, err = tx.VerticesOfIndex(idx2, nil)
		is(err, gdi.ErrObjectMismatch, "VerticesOfIndex(foreign index)")
		_, err = tx.EdgesOfIndex(idx2, nil)
		is(err, gdi.ErrObjectMismatch, "EdgesOfIndex(foreign index)")
		_, err = tx.LocalVerticesOfIndex(idx2, nil)
		is(err, gdi.ErrObjectMismatch, "LocalVerticesOfIndex(foreign index)")
		_, err = tx.LocalEdgesOfIndex(idx2, nil)
		is(err, gdi.ErrObjectMismatch, "LocalEdgesOfIndex(foreign index)")
	}
	if cons2 != nil {
		_, err = tx.VerticesOfIndex(idx1, cons2)
		is(err, gdi.ErrObjectMismatch, "VerticesOfIndex(foreign constraint)")
		_, err = v.Edges(gdi.EdgeAll, cons2)
		is(err, gdi.ErrObjectMismatch, "Edges(foreign constraint)")
		_, err = v.Neighbors(gdi.EdgeAll, cons2)
		is(err, gdi.ErrObjectMismatch, "Neighbors(foreign constraint)")
	}
	if db2 != nil {
		tx2, err := db2.StartTransaction()
		okf(err, "foreign StartTransaction")
		x, err := tx2.CreateVertex(e.id("x"))
		okf(err, "foreign CreateVertex")
		_, err = tx.CreateEdge(gdi.Directed, v, x)
		is(err, gdi.ErrObjectMismatch, "CreateEdge(foreign holder)")
		h := edge(tx, gdi.Directed, v, w, gdi.PropertyTypeNull, "")
		is(h.SetTarget(x), gdi.ErrObjectMismatch, "SetTarget(foreign holder)")
		is(h.SetOrigin(x), gdi.ErrObjectMismatch, "SetOrigin(foreign holder)")
		_, err = tx.AssociateVertex(vuid(x))
		isOneOf(err, []gdi.Code{gdi.ErrObjectMismatch, gdi.ErrUID}, "AssociateVertex(UID of another database)")
		okf(tx2.Abort(), "foreign Abort")
	}
	okf(tx.Abort(), "Abort")

	is(idx1.AddLabel(l2), gdi.ErrObjectMismatch, "Index.AddLabel(foreign label)")
	is(idx1.AddPropertyType(p2), gdi.ErrObjectMismatch, "Index.AddPropertyType(foreign property type)")
	l1 := must(db.Labels())
	if len(l1) == 0 {
		failf("no label in the database")
	}
	is(idx1.AddLabelsAndPropertyTypes([]gdi.Label{l1[0], l2}, nil), gdi.ErrObjectMismatch, "AddLabelsAndPropertyTypes with one foreign label")
	if got := must(idx1.Labels()); len(got) != 0 {
		failf("AddLabelsAndPropertyTypes failed but added %v", got)
	}
}

// databaseOtherRank: where ranks share a process, handles of another
// rank's Database are rejected like handles of another database.
func databaseOtherRank(e *Env) {
	l := e.label("L")
	p := e.single("p", gdi.Int64)
	idx := must(e.DB.CreateIndex(gdi.HashTableIndex, 0))
	type handles struct {
		l gdi.Label
		p gdi.PropertyType
	}
	all := e.publish("handles", handles{l, p})
	if len(all) < 2 {
		e.Skipf("needs two ranks in one process (%d here)", len(all))
	}
	other := all[(e.Rank()+1)%e.Size()]
	if other == nil {
		failf("handles of rank %d not published", (e.Rank()+1)%e.Size())
	}
	h := other.(handles)
	if h.l == l {
		failf("label handles of two ranks are equal (%v): handles must be rank specific", l)
	}
	checkForeignHandles(e, e.DB, h.l, h.p, nil, nil, idx)
	e.barrier()
}
