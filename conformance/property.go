package conformance

import (
	"strings"

	"github.com/gdi-go/gdi/gdi"
)

var propertyCases = []Case{
	c("Property/add-list-remove", propertyAddListRemove),
	c("Property/pair-unique-on-object", propertyPairUnique),
	c("Property/single-entity-second-value-fails", propertySingleEntity),
	c("Property/wrong-datatype", propertyWrongDatatype),
	c("Property/fixed-size", propertyFixedSize),
	c("Property/max-size", propertyMaxSize),
	c("Property/no-size-limit", propertyNoLimit),
	c("Property/update-single-entity", propertyUpdate),
	c("Property/update-specific", propertyUpdateSpecific),
	c("Property/set-single-entity", propertySet),
	c("Property/remove-specific-exact-match", propertyRemoveSpecific),
	c("Property/degree-types-read-only-and-counted", propertyDegree),
	c("Property/degree-types-cannot-be-used-on-edges", propertyDegreeOnEdge),
	c("Property/persist-all-datatypes", propertyAllDatatypes),
	c("Property/edge-properties-follow-vertex-rules", propertyEdgeRules),
	c("Property/failed-call-changes-nothing", propertyFailedNoChange),
}

func propertyAddListRemove(e *Env) {
	a := e.label("A")
	tags := e.multi("tags", gdi.Char)
	age := e.single("age", gdi.Int32)
	e.barrier()
	e.update(func(tx gdi.Transaction) {
		v := vertex(tx, e.id("v"), ls(a))
		okf(v.AddProperty(tags, gdi.Chars("x")), "AddProperty")
		okf(v.AddProperty(tags, gdi.Chars("y")), "AddProperty")
		okf(v.AddProperty(age, gdi.Int32s(36)), "AddProperty")
		sameSet(values(v, tags), []gdi.Value{gdi.Chars("x"), gdi.Chars("y")}, "tags")
	})
	e.update(func(tx gdi.Transaction) {
		v := find(tx, a, e.id("v"))
		sameSet(values(v, tags), []gdi.Value{gdi.Chars("x"), gdi.Chars("y")}, "tags after commit")
		sameSet(values(v, age), []gdi.Value{gdi.Int32s(36)}, "age after commit")
		sameSet(must(v.PropertyTypes()), []gdi.PropertyType{gdi.PropertyTypeID, tags, age}, "PropertyTypes")
		okf(v.RemoveProperties(tags), "RemoveProperties")
		okf(v.RemoveProperties(tags), "RemoveProperties of a type the vertex lacks")
		if vs := values(v, tags); len(vs) != 0 {
			failf("tags after RemoveProperties: %v", vs)
		}
	})
	e.view(func(tx gdi.Transaction) {
		v := find(tx, a, e.id("v"))
		if vs, err := v.Properties(tags); err != nil || len(vs) != 0 {
			failf("Properties of a removed type: %v, %v (want none and no error)", vs, err)
		}
		sameSet(must(v.PropertyTypes()), []gdi.PropertyType{gdi.PropertyTypeID, age}, "PropertyTypes after removal")
	})
}

func propertyPairUnique(e *Env) {
	tags := e.multi("tags", gdi.Int64)
	e.update(func(tx gdi.Transaction) {
		v := vertex(tx, e.id("v"), nil)
		okf(v.AddProperty(tags, gdi.Int64s(1, 2)), "AddProperty")
		okf(v.AddProperty(tags, gdi.Int64s(1, 2)), "AddProperty of an existing pair (no-op)")
		okf(v.AddProperty(tags, gdi.Int64s(1)), "AddProperty of a different value")
		sameSet(values(v, tags), []gdi.Value{gdi.Int64s(1, 2), gdi.Int64s(1)}, "values")
	})
}

// propertySingleEntity: a second value of a single-entity type is
// ErrPropertyTypeExists (spec 7.5), on vertices and edges, in the same and
// in a later transaction; the first value stays.
func propertySingleEntity(e *Env) {
	a := e.label("A")
	p := e.single("p", gdi.Int16)
	e.barrier()
	e.update(func(tx gdi.Transaction) {
		v := vertex(tx, e.id("v"), ls(a))
		w := vertex(tx, e.id("w"), ls(a))
		okf(v.AddProperty(p, gdi.Int16s(1)), "AddProperty")
		is(v.AddProperty(p, gdi.Int16s(2)), gdi.ErrPropertyTypeExists, "second value of a single-entity type on a vertex")
		h := edge(tx, gdi.Directed, v, w, gdi.PropertyTypeNull, "")
		okf(h.AddProperty(p, gdi.Int16s(1)), "edge AddProperty")
		is(h.AddProperty(p, gdi.Int16s(2)), gdi.ErrPropertyTypeExists, "second value of a single-entity type on an edge")
		sameSet(values(h, p), []gdi.Value{gdi.Int16s(1)}, "edge values")
		is(v.AddProperty(gdi.PropertyTypeID, gdi.Bytes([]byte("other"))), gdi.ErrPropertyTypeExists, "second application-level ID")
	})
	e.update(func(tx gdi.Transaction) {
		v := find(tx, a, e.id("v"))
		is(v.AddProperty(p, gdi.Int16s(3)), gdi.ErrPropertyTypeExists, "second value after commit")
		sameSet(values(v, p), []gdi.Value{gdi.Int16s(1)}, "values")
	})
}

func propertyWrongDatatype(e *Env) {
	p := e.single("p", gdi.Int32)
	m := e.multi("m", gdi.Char)
	tx := e.tx()
	v := vertex(tx, e.id("v"), nil)
	is(v.AddProperty(p, gdi.Int64s(1)), gdi.ErrDatatype, "AddProperty(Int32 type, Int64 value)")
	is(v.AddProperty(m, gdi.Bytes([]byte("x"))), gdi.ErrDatatype, "AddProperty(Char type, Byte value)")
	is(v.SetProperty(p, gdi.Uint32s(1)), gdi.ErrDatatype, "SetProperty(Int32 type, Uint32 value)")
	okf(v.AddProperty(p, gdi.Int32s(1)), "AddProperty")
	is(v.UpdateProperty(p, gdi.Doubles(1)), gdi.ErrDatatype, "UpdateProperty with a wrong datatype")
	is(v.UpdateSpecificProperty(p, gdi.Int32s(1), gdi.Int16s(2)), gdi.ErrDatatype, "UpdateSpecificProperty with a wrong new datatype")
	is(v.AddProperty(gdi.PropertyTypeID, gdi.Chars("x")), gdi.ErrDatatype, "ID of Char datatype")
	sameSet(values(v, p), []gdi.Value{gdi.Int32s(1)}, "values after the errors")
	commit(tx)
}

func propertyFixedSize(e *Env) {
	p := e.ptype("fixed", gdi.MultipleEntity, gdi.Int32, gdi.FixedSize, 3)
	s := e.ptype("fixed1", gdi.SingleEntity, gdi.Int32, gdi.FixedSize, 3)
	e.update(func(tx gdi.Transaction) {
		v := vertex(tx, e.id("v"), nil)
		okf(v.AddProperty(p, gdi.Int32s(1, 2, 3)), "3 elements for FixedSize 3")
		is(v.AddProperty(p, gdi.Int32s(1, 2)), gdi.ErrSizeLimit, "2 elements for FixedSize 3")
		is(v.AddProperty(p, gdi.Int32s(1, 2, 3, 4)), gdi.ErrSizeLimit, "4 elements for FixedSize 3")
		is(v.AddProperty(p, gdi.Int32s()), gdi.ErrSizeLimit, "0 elements for FixedSize 3")
		is(v.SetProperty(s, gdi.Int32s(1)), gdi.ErrSizeLimit, "SetProperty with 1 element for FixedSize 3")
		okf(v.SetProperty(s, gdi.Int32s(1, 2, 3)), "SetProperty")
		is(v.UpdateProperty(s, gdi.Int32s(1, 2, 3, 4)), gdi.ErrSizeLimit, "UpdateProperty over the size")
		is(v.UpdateSpecificProperty(p, gdi.Int32s(1, 2, 3), gdi.Int32s(9)), gdi.ErrSizeLimit, "UpdateSpecificProperty to a short value")
		sameSet(values(v, p), []gdi.Value{gdi.Int32s(1, 2, 3)}, "values after the errors")
		sameSet(values(v, s), []gdi.Value{gdi.Int32s(1, 2, 3)}, "single values after the errors")
	})
}

func propertyMaxSize(e *Env) {
	p := e.ptype("max", gdi.MultipleEntity, gdi.Char, gdi.MaxSize, 4)
	e.update(func(tx gdi.Transaction) {
		v := vertex(tx, e.id("v"), nil)
		okf(v.AddProperty(p, gdi.Chars("abcd")), "4 elements for MaxSize 4")
		okf(v.AddProperty(p, gdi.Chars("a")), "1 element for MaxSize 4")
		is(v.AddProperty(p, gdi.Chars("abcde")), gdi.ErrSizeLimit, "5 elements for MaxSize 4")
		sameSet(values(v, p), []gdi.Value{gdi.Chars("abcd"), gdi.Chars("a")}, "values")
	})
}

func propertyNoLimit(e *Env) {
	p := e.single("big", gdi.Byte)
	q := e.single("bigc", gdi.Char)
	big := gdi.Bytes([]byte(strings.Repeat("\x00\xffab", 5000)))
	bigc := gdi.Chars(strings.Repeat("z", 70000))
	e.update(func(tx gdi.Transaction) {
		v := vertex(tx, e.id("v"), nil)
		okf(v.AddProperty(p, big), "20000-byte value without limit")
		okf(v.AddProperty(q, bigc), "70000-char value without limit")
	})
	e.view(func(tx gdi.Transaction) {
		v := find(tx, gdi.LabelNone, e.id("v"))
		if vs := values(v, p); len(vs) != 1 || vs[0] != big {
			failf("big value not read back intact")
		}
		if vs := values(v, q); len(vs) != 1 || vs[0] != bigc {
			failf("big char value not read back intact")
		}
	})
}

func propertyUpdate(e *Env) {
	s := e.single("s", gdi.Int64)
	m := e.multi("m", gdi.Int64)
	t := e.single("t", gdi.Int64)
	e.update(func(tx gdi.Transaction) {
		v := vertex(tx, e.id("v"), nil, prop{s, gdi.Int64s(1)}, prop{m, gdi.Int64s(1)})
		okf(v.UpdateProperty(s, gdi.Int64s(2)), "UpdateProperty")
		okf(v.UpdateProperty(s, gdi.Int64s(2)), "UpdateProperty to the same value")
		sameSet(values(v, s), []gdi.Value{gdi.Int64s(2)}, "values after update")
		is(v.UpdateProperty(m, gdi.Int64s(2)), gdi.ErrWrongType, "UpdateProperty of a multiple-entity type")
		is(v.UpdateProperty(t, gdi.Int64s(2)), gdi.ErrNoProperty, "UpdateProperty of a missing property")
		if vs := values(v, t); len(vs) != 0 {
			failf("UpdateProperty of a missing property added %v", vs)
		}
		is(v.UpdateProperty(gdi.PropertyTypeDegree, gdi.Uint64s(9)), gdi.ErrReadOnlyPropertyType, "UpdateProperty(degree)")
	})
	e.view(func(tx gdi.Transaction) {
		sameSet(values(find(tx, gdi.LabelNone, e.id("v")), s), []gdi.Value{gdi.Int64s(2)}, "values after commit")
	})
}

func propertyUpdateSpecific(e *Env) {
	m := e.multi("m", gdi.Char)
	e.update(func(tx gdi.Transaction) {
		v := vertex(tx, e.id("v"), nil, prop{m, gdi.Chars("a")}, prop{m, gdi.Chars("b")})
		okf(v.UpdateSpecificProperty(m, gdi.Chars("a"), gdi.Chars("c")), "UpdateSpecificProperty")
		sameSet(values(v, m), []gdi.Value{gdi.Chars("c"), gdi.Chars("b")}, "values")
		is(v.UpdateSpecificProperty(m, gdi.Chars("a"), gdi.Chars("d")), gdi.ErrNoProperty, "old value missing")
		is(v.UpdateSpecificProperty(m, gdi.Chars("c"), gdi.Chars("b")), gdi.ErrPropertyExists, "new value present")
		is(v.UpdateSpecificProperty(m, gdi.Chars("bb"), gdi.Chars("x")), gdi.ErrNoProperty, "old value of another length")
		sameSet(values(v, m), []gdi.Value{gdi.Chars("c"), gdi.Chars("b")}, "values after the errors")
	})
	e.view(func(tx gdi.Transaction) {
		sameSet(values(find(tx, gdi.LabelNone, e.id("v")), m), []gdi.Value{gdi.Chars("c"), gdi.Chars("b")}, "values after commit")
	})
}

func propertySet(e *Env) {
	s := e.single("s", gdi.Double)
	m := e.multi("m", gdi.Double)
	e.update(func(tx gdi.Transaction) {
		v := vertex(tx, e.id("v"), nil)
		okf(v.SetProperty(s, gdi.Doubles(1.5)), "SetProperty (adds)")
		okf(v.SetProperty(s, gdi.Doubles(2.5)), "SetProperty (overwrites)")
		sameSet(values(v, s), []gdi.Value{gdi.Doubles(2.5)}, "values")
		is(v.SetProperty(m, gdi.Doubles(1)), gdi.ErrWrongType, "SetProperty of a multiple-entity type")
		if vs := values(v, m); len(vs) != 0 {
			failf("SetProperty of a multiple-entity type added %v", vs)
		}
		is(v.SetProperty(gdi.PropertyTypeOutDegree, gdi.Uint64s(1)), gdi.ErrReadOnlyPropertyType, "SetProperty(outdegree)")
	})
	e.view(func(tx gdi.Transaction) {
		sameSet(values(find(tx, gdi.LabelNone, e.id("v")), s), []gdi.Value{gdi.Doubles(2.5)}, "values after commit")
	})
}

func propertyRemoveSpecific(e *Env) {
	m := e.multi("m", gdi.Uint16)
	e.update(func(tx gdi.Transaction) {
		v := vertex(tx, e.id("v"), nil, prop{m, gdi.Uint16s(1, 2)}, prop{m, gdi.Uint16s(3)})
		okf(v.RemoveProperty(m, gdi.Uint16s(1)), "RemoveProperty of a prefix (no-op)")
		okf(v.RemoveProperty(m, gdi.Uint16s(1, 2, 3)), "RemoveProperty of a longer value (no-op)")
		okf(v.RemoveProperty(m, gdi.Uint16s(4)), "RemoveProperty of an absent value (no-op)")
		sameSet(values(v, m), []gdi.Value{gdi.Uint16s(1, 2), gdi.Uint16s(3)}, "values after no-op removals")
		okf(v.RemoveProperty(m, gdi.Uint16s(1, 2)), "RemoveProperty")
		sameSet(values(v, m), []gdi.Value{gdi.Uint16s(3)}, "values after removal")
	})
	e.view(func(tx gdi.Transaction) {
		sameSet(values(find(tx, gdi.LabelNone, e.id("v")), m), []gdi.Value{gdi.Uint16s(3)}, "values after commit")
	})
}

// propertyDegree: the degree types count edges (a loop twice in the
// degree), are not listed, and cannot be written (spec 6.2).
func propertyDegree(e *Env) {
	check := func(v gdi.VertexHolder, deg, in, out uint64, when string) {
		for _, c := range []struct {
			p    gdi.PropertyType
			want uint64
		}{{gdi.PropertyTypeDegree, deg}, {gdi.PropertyTypeInDegree, in}, {gdi.PropertyTypeOutDegree, out}} {
			vs := values(v, c.p)
			if len(vs) != 1 || vs[0] != gdi.Uint64s(c.want) {
				fatal(1, "%v %s = %v, want [%d]", c.p, when, vs, c.want)
			}
		}
	}
	e.update(func(tx gdi.Transaction) {
		a := vertex(tx, e.id("a"), nil)
		b := vertex(tx, e.id("b"), nil)
		c := vertex(tx, e.id("c"), nil)
		check(a, 0, 0, 0, "of a new vertex")
		edge(tx, gdi.Directed, a, b, gdi.PropertyTypeNull, "")
		edge(tx, gdi.Directed, c, a, gdi.PropertyTypeNull, "")
		edge(tx, gdi.Undirected, a, c, gdi.PropertyTypeNull, "")
		edge(tx, gdi.Directed, a, a, gdi.PropertyTypeNull, "")
		check(a, 5, 2, 2, "in the creating transaction")
		for _, p := range []gdi.PropertyType{gdi.PropertyTypeDegree, gdi.PropertyTypeInDegree, gdi.PropertyTypeOutDegree} {
			is(a.AddProperty(p, gdi.Uint64s(1)), gdi.ErrReadOnlyPropertyType, "AddProperty(%v)", p)
			is(a.RemoveProperties(p), gdi.ErrReadOnlyPropertyType, "RemoveProperties(%v)", p)
			is(a.SetProperty(p, gdi.Uint64s(1)), gdi.ErrReadOnlyPropertyType, "SetProperty(%v)", p)
		}
		for _, p := range must(a.PropertyTypes()) {
			if p.IsReadOnly() {
				failf("PropertyTypes lists %v", p)
			}
		}
	})
	e.update(func(tx gdi.Transaction) {
		a := find(tx, gdi.LabelNone, e.id("a"))
		check(a, 5, 2, 2, "after commit")
		b := find(tx, gdi.LabelNone, e.id("b"))
		check(b, 1, 1, 0, "of b")
		for _, u := range must(a.Edges(gdi.EdgeUndirected, nil)) {
			okf(must(tx.AssociateEdge(u)).Free(), "FreeEdge")
		}
		check(a, 4, 2, 2, "after freeing the undirected edge")
	})
	e.view(func(tx gdi.Transaction) {
		check(find(tx, gdi.LabelNone, e.id("a")), 4, 2, 2, "after the second commit")
		check(find(tx, gdi.LabelNone, e.id("c")), 1, 0, 1, "of c after the second commit")
	})
}

// propertyDegreeOnEdge: the degree types "can't be used on edges" (spec
// 6.2, for each of GDI_PROPERTY_TYPE_DEGREE, _INDEGREE and _OUTDEGREE; the
// binding: "vertices only"), so reading one on an edge is an erroneous
// call and fails with a coded error, for a new edge and a committed one,
// rather than answering that the edge has no such property. The
// specification names no code, so any failure passes.
func propertyDegreeOnEdge(e *Env) {
	rule := "spec 6.2: the degree types can't be used on edges"
	checkEdge := func(h gdi.EdgeHolder, which string) {
		for _, p := range []gdi.PropertyType{gdi.PropertyTypeDegree, gdi.PropertyTypeInDegree, gdi.PropertyTypeOutDegree} {
			vs, err := h.Properties(p)
			if !gdi.Failed(err) {
				fatal(1, "Properties(%v) of %s = %v, %v; want an error (%s)", p, which, vs, err, rule)
			}
			failed(err, "Properties(%v) of %s (%s)", p, which, rule)
		}
	}
	var eu gdi.EdgeUID
	e.update(func(tx gdi.Transaction) {
		a := vertex(tx, e.id("a"), nil)
		b := vertex(tx, e.id("b"), nil)
		eu = euid(edge(tx, gdi.Directed, a, b, gdi.PropertyTypeNull, ""))
	})
	tx := e.tx()
	checkEdge(must(tx.AssociateEdge(eu)), "a committed edge")
	abortQuietly(tx)
	tx = e.tx()
	a := find(tx, gdi.LabelNone, e.id("a"))
	c := vertex(tx, e.id("c"), nil)
	checkEdge(edge(tx, gdi.Undirected, a, c, gdi.PropertyTypeNull, ""), "an edge created in the transaction")
	abortQuietly(tx)
}

// propertyAllDatatypes: values of every datatype are stored and read back
// exactly.
func propertyAllDatatypes(e *Env) {
	dec, _ := gdi.ParseDecimal("-12345678901234567890.000000000000000000000000000001")
	tm, _ := gdi.NewTime(23, 59, 58, 999)
	dt, _ := gdi.NewDate(2024, 2, 29)
	dtt, _ := gdi.NewDatetime(1999, 12, 31, 23, 59, 59, 1, -330)
	vals := []gdi.Value{
		gdi.Chars("héllo"), gdi.Bools(true, false), gdi.Int8s(-128, 127), gdi.Int16s(-32768), gdi.Int32s(1 << 30),
		gdi.Int64s(-1 << 63), gdi.Uint8s(255), gdi.Uint16s(65535), gdi.Uint32s(1 << 31), gdi.Uint64s(1<<64 - 1),
		gdi.Floats(1.25, -0.5), gdi.Doubles(3.141592653589793), gdi.Decimals(dec), gdi.Times(tm), gdi.Dates(dt),
		gdi.Datetimes(dtt), gdi.Bytes([]byte{0, 1, 2, 255}),
	}
	var pts []gdi.PropertyType
	for _, v := range vals {
		pts = append(pts, e.single("p"+v.Datatype().String(), v.Datatype()))
	}
	e.update(func(tx gdi.Transaction) {
		v := vertex(tx, e.id("v"), nil)
		for i, x := range vals {
			okf(v.AddProperty(pts[i], x), "AddProperty(%v)", x.Datatype())
		}
	})
	e.view(func(tx gdi.Transaction) {
		v := find(tx, gdi.LabelNone, e.id("v"))
		for i, x := range vals {
			if vs := values(v, pts[i]); len(vs) != 1 || vs[0] != x {
				failf("%v read back as %v, want %v", x.Datatype(), vs, x)
			}
		}
	})
}

func propertyEdgeRules(e *Env) {
	m := e.multi("m", gdi.Int8)
	s := e.single("s", gdi.Int8)
	f := e.ptype("f", gdi.SingleEntity, gdi.Int8, gdi.FixedSize, 2)
	lab := e.label("E")
	e.barrier()
	var eu gdi.EdgeUID
	e.update(func(tx gdi.Transaction) {
		a := vertex(tx, e.id("a"), nil)
		b := vertex(tx, e.id("b"), nil)
		h := edge(tx, gdi.Directed, a, b, gdi.PropertyTypeNull, "", lab)
		eu = euid(h)
		okf(h.AddProperty(m, gdi.Int8s(1)), "AddProperty")
		okf(h.AddProperty(m, gdi.Int8s(2)), "AddProperty")
		okf(h.AddProperty(s, gdi.Int8s(1)), "AddProperty")
		is(h.AddProperty(f, gdi.Int8s(1)), gdi.ErrSizeLimit, "edge AddProperty over the size limit")
		is(h.AddProperty(s, gdi.Int16s(1)), gdi.ErrDatatype, "edge AddProperty with a wrong datatype")
		is(h.UpdateProperty(m, gdi.Int8s(1)), gdi.ErrWrongType, "edge UpdateProperty(multiple entity)")
		is(h.SetProperty(m, gdi.Int8s(1)), gdi.ErrWrongType, "edge SetProperty(multiple entity)")
		is(h.UpdateProperty(f, gdi.Int8s(1, 2)), gdi.ErrNoProperty, "edge UpdateProperty(missing)")
		okf(h.AddProperty(gdi.PropertyTypeID, gdi.Bytes(e.id("edge-id"))), "edge AddProperty(PropertyTypeID)")
		is(h.AddProperty(gdi.PropertyTypeDegree, gdi.Uint64s(1)), gdi.ErrReadOnlyPropertyType, "edge AddProperty(degree)")
	})
	e.update(func(tx gdi.Transaction) {
		h := must(tx.AssociateEdge(eu))
		sameSet(labelsOf(h), ls(lab), "edge labels")
		sameSet(values(h, m), []gdi.Value{gdi.Int8s(1), gdi.Int8s(2)}, "edge m")
		sameSet(must(h.PropertyTypes()), []gdi.PropertyType{m, s, gdi.PropertyTypeID}, "edge PropertyTypes")
		okf(h.UpdateProperty(s, gdi.Int8s(5)), "edge UpdateProperty")
		okf(h.UpdateSpecificProperty(m, gdi.Int8s(1), gdi.Int8s(3)), "edge UpdateSpecificProperty")
		is(h.UpdateSpecificProperty(m, gdi.Int8s(1), gdi.Int8s(4)), gdi.ErrNoProperty, "edge UpdateSpecificProperty(missing old)")
		is(h.UpdateSpecificProperty(m, gdi.Int8s(3), gdi.Int8s(2)), gdi.ErrPropertyExists, "edge UpdateSpecificProperty(new exists)")
		okf(h.RemoveProperty(m, gdi.Int8s(2)), "edge RemoveProperty")
		okf(h.SetProperty(f, gdi.Int8s(7, 8)), "edge SetProperty")
		okf(h.RemoveLabel(lab), "edge RemoveLabel")
	})
	e.update(func(tx gdi.Transaction) {
		h := must(tx.AssociateEdge(eu))
		sameSet(labelsOf(h), nil, "edge labels after removal")
		sameSet(values(h, m), []gdi.Value{gdi.Int8s(3)}, "edge m after changes")
		sameSet(values(h, s), []gdi.Value{gdi.Int8s(5)}, "edge s after changes")
		sameSet(values(h, f), []gdi.Value{gdi.Int8s(7, 8)}, "edge f after changes")
		okf(h.RemoveProperties(m), "edge RemoveProperties")
		sameSet(must(h.PropertyTypes()), []gdi.PropertyType{s, f, gdi.PropertyTypeID}, "edge PropertyTypes after RemoveProperties")
	})
}

// propertyFailedNoChange: a call that fails with a non-critical error
// leaves the object and the transaction as they were, and the
// transaction commits.
func propertyFailedNoChange(e *Env) {
	s := e.single("s", gdi.Int8)
	f := e.ptype("f", gdi.MultipleEntity, gdi.Int8, gdi.FixedSize, 1)
	a := e.label("A")
	e.barrier()
	e.update(func(tx gdi.Transaction) { vertex(tx, e.id("v"), ls(a), prop{s, gdi.Int8s(1)}) })
	tx := e.tx()
	v := find(tx, a, e.id("v"))
	is(v.AddProperty(s, gdi.Int8s(2)), gdi.ErrPropertyTypeExists, "AddProperty")
	is(v.AddProperty(f, gdi.Int8s(1, 2)), gdi.ErrSizeLimit, "AddProperty")
	is(v.UpdateProperty(f, gdi.Int8s(1)), gdi.ErrWrongType, "UpdateProperty")
	okf(v.AddProperty(f, gdi.Int8s(9)), "AddProperty after the errors")
	commit(tx)
	e.view(func(tx gdi.Transaction) {
		v := find(tx, a, e.id("v"))
		sameSet(values(v, s), []gdi.Value{gdi.Int8s(1)}, "s")
		sameSet(values(v, f), []gdi.Value{gdi.Int8s(9)}, "f")
	})
}
