package conformance

import (
	"encoding/base64"
	"path/filepath"
	"strings"
	"testing/fstest"

	"github.com/gdi-go/gdi/gdi"
)

var csvCases = []Case{
	c("CSV/vertices-with-header-and-properties", csvVertices),
	c("CSV/vertices-text-ids", csvTextIDs),
	c("CSV/vertices-without-header", csvNoHeader),
	c("CSV/escapes-and-delimiters", csvEscapes),
	c("CSV/crlf-line-endings", csvCRLF),
	c("CSV/datatypes-parsed", csvDatatypes),
	c("CSV/sort-types-same-result", csvSortTypes),
	c("CSV/size-limit-warns-not-all-loaded", csvSizeWarn),
	c("CSV/vertex-properties", csvVertexProperties),
	c("CSV/vertex-properties-single-entity-warns", csvVertexPropsSingle),
	c("CSV/vertex-properties-single-entity-present-warns-even-if-equal", csvVertexPropsSingleEqual),
	c("CSV/edges", csvEdges),
	c("CSV/edges-label-none-and-unknown-vertices", csvEdgesLabelNone),
	c("CSV/no-such-file", csvNoSuchFile),
	c("CSV/os-path", csvOSPath),
	c("CSV/bad-format-loads-nothing", csvBadFormat),
	c("CSV/invalid-arguments", csvInvalidArgs),
	c("CSV/objects-of-another-database", csvForeign),
}

func loader(e *Env) gdi.CSVLoader {
	l, ok := e.DB.(gdi.CSVLoader)
	if !ok {
		e.Skipf("backend has no gdi.CSVLoader")
	}
	return l
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func mapFS(files map[string]string) fstest.MapFS {
	fs := fstest.MapFS{}
	for name, data := range files {
		fs[name] = &fstest.MapFile{Data: []byte(data)}
	}
	return fs
}

func csvFile(fs fstest.MapFS, path string, header bool, sort gdi.SortType) gdi.CSVFile {
	return gdi.CSVFile{FS: fs, Path: path, Header: header, FieldDelimiter: ',', ElementDelimiter: ';', Sort: sort}
}

// labelIndex returns a collective index over l.
func (e *Env) labelIndex(l gdi.Label) gdi.Index {
	idx := must(e.DB.CreateIndex(gdi.HashTableIndex, 0))
	okf(idx.AddLabel(l), "Index.AddLabel")
	return idx
}

// allIDs lists the IDs of the vertices in idx.
func allIDs(e *Env, idx gdi.Index) []string {
	var out []string
	e.view(func(tx gdi.Transaction) { out = idsOfVertices(tx, must(tx.VerticesOfIndex(idx, nil))) })
	return out
}

func csvVertices(e *Env) {
	ld := loader(e)
	person, extra := e.label("Person"), e.label("Extra")
	name := e.single("name", gdi.Char)
	age := e.single("age", gdi.Int32)
	pair := e.ptype("pair", gdi.SingleEntity, gdi.Int64, gdi.FixedSize, 2)
	fs := mapFS(map[string]string{"v.csv": "id,name,age,pair\n" +
		b64("p1") + ",Ada,36,1;2\n" +
		b64("p2") + ",Bob,,3;4\n" +
		b64("p3") + ",,41,\n"})
	okf(ld.LoadVertexCSV(gdi.VertexCSV{CSVFile: csvFile(fs, "v.csv", true, gdi.NoSorting),
		PropertyTypes: []gdi.PropertyType{name, age, pair}, Labels: ls(person, extra)}), "LoadVertexCSV")
	idx := e.labelIndex(person)
	sameStrings(allIDs(e, idx), strs("p1", "p2", "p3"), "loaded vertices (each once, whatever the rank count)")
	e.view(func(tx gdi.Transaction) {
		v := find(tx, person, []byte("p1"))
		sameSet(labelsOf(v), ls(person, extra), "labels of a loaded vertex")
		sameSet(values(v, name), []gdi.Value{gdi.Chars("Ada")}, "name")
		sameSet(values(v, age), []gdi.Value{gdi.Int32s(36)}, "age")
		sameSet(values(v, pair), []gdi.Value{gdi.Int64s(1, 2)}, "pair (element delimiter)")
		v = find(tx, extra, []byte("p2"))
		sameSet(values(v, age), nil, "empty field: no property")
		v = find(tx, person, []byte("p3"))
		sameSet(must(v.PropertyTypes()), []gdi.PropertyType{gdi.PropertyTypeID, age}, "property types of a vertex with empty fields")
	})
}

func csvTextIDs(e *Env) {
	ld := loader(e)
	person := e.label("Person")
	name := e.single("name", gdi.Char)
	fs := mapFS(map[string]string{"v.csv": "id|name\nada|Ada\nb\\|ob|Bob\n"})
	f := csvFile(fs, "v.csv", true, gdi.NoSorting)
	f.FieldDelimiter = '|'
	f.TextIDs = true
	okf(ld.LoadVertexCSV(gdi.VertexCSV{CSVFile: f, PropertyTypes: []gdi.PropertyType{name}, Labels: ls(person)}), "LoadVertexCSV with TextIDs")
	e.view(func(tx gdi.Transaction) {
		sameSet(values(find(tx, person, []byte("ada")), name), []gdi.Value{gdi.Chars("Ada")}, "name of text ID ada")
		sameSet(values(find(tx, person, []byte("b|ob")), name), []gdi.Value{gdi.Chars("Bob")}, "name of text ID with an escaped delimiter")
	})
}

func csvNoHeader(e *Env) {
	ld := loader(e)
	l := e.label("L")
	fs := mapFS(map[string]string{"v.csv": b64("first") + "\n" + b64("second") + "\n"})
	okf(ld.LoadVertexCSV(gdi.VertexCSV{CSVFile: csvFile(fs, "v.csv", false, gdi.NoSorting), Labels: ls(l)}), "LoadVertexCSV")
	sameStrings(allIDs(e, e.labelIndex(l)), strs("first", "second"), "vertices of a file without header (first line is data)")
}

func csvEscapes(e *Env) {
	ld := loader(e)
	l := e.label("L")
	text := e.single("text", gdi.Char)
	nums := e.single("nums", gdi.Int16)
	// Field delimiter ';', element delimiter ','.
	fs := mapFS(map[string]string{"v.csv": "id;text;nums\n" +
		b64("a") + ";x\\;y;1,2\n" +
		b64("b") + ";back\\\\slash\\nnew\\ttab\\rcr;-3\n" +
		b64("c") + ";comma,kept;4\n"})
	f := csvFile(fs, "v.csv", true, gdi.NoSorting)
	f.FieldDelimiter, f.ElementDelimiter = ';', ','
	okf(ld.LoadVertexCSV(gdi.VertexCSV{CSVFile: f, PropertyTypes: []gdi.PropertyType{text, nums}, Labels: ls(l)}), "LoadVertexCSV")
	e.view(func(tx gdi.Transaction) {
		sameSet(values(find(tx, l, []byte("a")), text), []gdi.Value{gdi.Chars("x;y")}, "escaped field delimiter")
		sameSet(values(find(tx, l, []byte("a")), nums), []gdi.Value{gdi.Int16s(1, 2)}, "two elements")
		sameSet(values(find(tx, l, []byte("b")), text), []gdi.Value{gdi.Chars("back\\slash\nnew\ttab\rcr")}, "escape sequences")
		sameSet(values(find(tx, l, []byte("c")), text), []gdi.Value{gdi.Chars("comma,kept")}, "element delimiter inside a Char field")
	})
}

func csvCRLF(e *Env) {
	ld := loader(e)
	l := e.label("L")
	name := e.single("name", gdi.Char)
	fs := mapFS(map[string]string{"v.csv": "id,name\r\n" + b64("a") + ",A\r\n" + b64("b") + ",B\r\n"})
	okf(ld.LoadVertexCSV(gdi.VertexCSV{CSVFile: csvFile(fs, "v.csv", true, gdi.NoSorting), PropertyTypes: []gdi.PropertyType{name}, Labels: ls(l)}), "LoadVertexCSV")
	e.view(func(tx gdi.Transaction) {
		sameSet(values(find(tx, l, []byte("a")), name), []gdi.Value{gdi.Chars("A")}, "value before \\r\\n")
		sameSet(values(find(tx, l, []byte("b")), name), []gdi.Value{gdi.Chars("B")}, "value of the last line")
	})
}

func csvDatatypes(e *Env) {
	ld := loader(e)
	l := e.label("L")
	types := []gdi.Datatype{gdi.Bool, gdi.Int8, gdi.Uint64, gdi.Double, gdi.DecimalType, gdi.DateType, gdi.TimeType, gdi.DatetimeType, gdi.Byte}
	fields := []string{"true;0", "-128", "18446744073709551615", "-2.5", "12.50", "2024-02-29", "23:59:58.999", "-0330 1999-12-31 23:59:59.001", b64("\x00\xff")}
	var pts []gdi.PropertyType
	for _, t := range types {
		pts = append(pts, e.single("p"+t.String(), t))
	}
	fs := mapFS(map[string]string{"v.csv": b64("v") + "," + strings.Join(fields, ",") + "\n"})
	okf(ld.LoadVertexCSV(gdi.VertexCSV{CSVFile: csvFile(fs, "v.csv", false, gdi.NoSorting), PropertyTypes: pts, Labels: ls(l)}), "LoadVertexCSV")
	e.view(func(tx gdi.Transaction) {
		v := find(tx, l, []byte("v"))
		for i, t := range types {
			want, _, err := gdi.ParseCSVValue(t, fields[i], ';')
			okf(err, "ParseCSVValue")
			sameSet(values(v, pts[i]), []gdi.Value{want}, "loaded %v field %q", t, fields[i])
		}
	})
}

func csvSortTypes(e *Env) {
	ld := loader(e)
	name := e.single("name", gdi.Char)
	ids := []string{"a", "b", "c", "d"}
	var asc, desc []string
	for _, id := range ids {
		asc = append(asc, b64(id)+","+strings.ToUpper(id))
	}
	for i := len(asc) - 1; i >= 0; i-- {
		desc = append(desc, asc[i])
	}
	fs := mapFS(map[string]string{"asc.csv": strings.Join(asc, "\n") + "\n", "desc.csv": strings.Join(desc, "\n") + "\n"})
	for _, c := range []struct {
		file string
		sort gdi.SortType
	}{{"asc.csv", gdi.AscSorting}, {"desc.csv", gdi.DescSorting}, {"desc.csv", gdi.NoSorting}} {
		l := e.label("L" + c.file + c.sort.String())
		okf(ld.LoadVertexCSV(gdi.VertexCSV{CSVFile: csvFile(fs, c.file, false, c.sort), PropertyTypes: []gdi.PropertyType{name}, Labels: ls(l)}), "LoadVertexCSV(%v)", c.sort)
		sameStrings(allIDs(e, e.labelIndex(l)), strs(ids...), "vertices loaded with %v", c.sort)
		e.view(func(tx gdi.Transaction) {
			sameSet(values(find(tx, l, []byte("c")), name), []gdi.Value{gdi.Chars("C")}, "name with %v", c.sort)
		})
	}
}

// csvSizeWarn: a value outside its size limit is skipped, the rest is
// loaded, and the call returns WarnNotAllDataLoaded (spec 14.1).
func csvSizeWarn(e *Env) {
	ld := loader(e)
	l := e.label("L")
	short := e.ptype("short", gdi.SingleEntity, gdi.Char, gdi.MaxSize, 3)
	n := e.single("n", gdi.Int8)
	fs := mapFS(map[string]string{"v.csv": b64("ok") + ",abc,1\n" + b64("long") + ",abcd,2\n"})
	err := ld.LoadVertexCSV(gdi.VertexCSV{CSVFile: csvFile(fs, "v.csv", false, gdi.NoSorting), PropertyTypes: []gdi.PropertyType{short, n}, Labels: ls(l)})
	is(err, gdi.WarnNotAllDataLoaded, "LoadVertexCSV with a value over the size limit")
	sameStrings(allIDs(e, e.labelIndex(l)), strs("long", "ok"), "vertices loaded despite the warning")
	e.view(func(tx gdi.Transaction) {
		v := find(tx, l, []byte("long"))
		sameSet(values(v, short), nil, "the oversize value is not added")
		sameSet(values(v, n), []gdi.Value{gdi.Int8s(2)}, "the other values of the line are added")
		sameSet(values(find(tx, l, []byte("ok")), short), []gdi.Value{gdi.Chars("abc")}, "value within the limit")
	})
}

func csvVertexProperties(e *Env) {
	ld := loader(e)
	l := e.label("L")
	lang := e.multi("lang", gdi.Char)
	fs := mapFS(map[string]string{
		"v.csv": b64("23") + "\n" + b64("42") + "\n",
		"p.csv": "id,lang\n" + b64("23") + ",English\n" + b64("23") + ",French\n" + b64("42") + ",English\n" + b64("99") + ",Chinese\n",
		"g.csv": b64("42") + ",German\n" + b64("42") + ",Dutch\n" + b64("23") + ",Latin\n",
	})
	okf(ld.LoadVertexCSV(gdi.VertexCSV{CSVFile: csvFile(fs, "v.csv", false, gdi.NoSorting), Labels: ls(l)}), "LoadVertexCSV")
	err := ld.LoadVertexPropertiesCSV(gdi.VertexPropertiesCSV{CSVFile: csvFile(fs, "p.csv", true, gdi.NoSorting), PropertyType: lang, Label: l})
	is(err, gdi.WarnNotAllDataLoaded, "LoadVertexPropertiesCSV with a line of an unknown vertex")
	okf(ld.LoadVertexPropertiesCSV(gdi.VertexPropertiesCSV{CSVFile: csvFile(fs, "g.csv", false, gdi.Grouped), PropertyType: lang, Label: l}), "LoadVertexPropertiesCSV(Grouped)")
	e.view(func(tx gdi.Transaction) {
		sameSet(values(find(tx, l, []byte("23")), lang), []gdi.Value{gdi.Chars("English"), gdi.Chars("French"), gdi.Chars("Latin")}, "properties of 23")
		sameSet(values(find(tx, l, []byte("42")), lang), []gdi.Value{gdi.Chars("English"), gdi.Chars("German"), gdi.Chars("Dutch")}, "properties of 42")
		if exists(tx, l, []byte("99")) {
			failf("LoadVertexPropertiesCSV created a vertex")
		}
	})
	sameStrings(allIDs(e, e.labelIndex(l)), strs("23", "42"), "vertices after the property loads")
}

func csvVertexPropsSingle(e *Env) {
	ld := loader(e)
	l := e.label("L")
	s := e.single("s", gdi.Int32)
	fs := mapFS(map[string]string{
		"v.csv": b64("a") + ",1\n" + b64("b") + ",\n",
		"p.csv": b64("a") + ",5\n" + b64("b") + ",6\n" + b64("b") + ",7\n",
	})
	okf(ld.LoadVertexCSV(gdi.VertexCSV{CSVFile: csvFile(fs, "v.csv", false, gdi.NoSorting), PropertyTypes: []gdi.PropertyType{s}, Labels: ls(l)}), "LoadVertexCSV")
	err := ld.LoadVertexPropertiesCSV(gdi.VertexPropertiesCSV{CSVFile: csvFile(fs, "p.csv", false, gdi.NoSorting), PropertyType: s, Label: l})
	is(err, gdi.WarnNotAllDataLoaded, "second values of a single-entity type")
	e.view(func(tx gdi.Transaction) {
		sameSet(values(find(tx, l, []byte("a")), s), []gdi.Value{gdi.Int32s(1)}, "a keeps its value")
		vs := values(find(tx, l, []byte("b")), s)
		if len(vs) != 1 || (vs[0] != gdi.Int32s(6) && vs[0] != gdi.Int32s(7)) {
			failf("b has %v, want exactly one of 6 and 7", vs)
		}
	})
}

// csvVertexPropsSingleEqual: spec 14.1 on GDI_LoadVertexPropertiesCSVFile:
// "If ptype is a single entity property type, but a property of that type
// is already present on the vertex in question (either because the
// property was already there before the bulk loading call or the vertex
// appears on multiple lines of the CSV file), that property is ignored
// ... In all three cases the function returns GDI WARNING NOT ALL DATA
// LOADED." The rule is on the property type being present, not on the
// values differing: a value equal to the present one warns too.
func csvVertexPropsSingleEqual(e *Env) {
	ld := loader(e)
	l := e.label("L")
	s := e.single("s", gdi.Int32)
	fs := mapFS(map[string]string{
		"v.csv":     b64("a") + ",1\n" + b64("b") + ",\n",
		"same.csv":  b64("a") + ",1\n",
		"twice.csv": b64("b") + ",6\n" + b64("b") + ",6\n",
	})
	okf(ld.LoadVertexCSV(gdi.VertexCSV{CSVFile: csvFile(fs, "v.csv", false, gdi.NoSorting), PropertyTypes: []gdi.PropertyType{s}, Labels: ls(l)}), "LoadVertexCSV")
	err := ld.LoadVertexPropertiesCSV(gdi.VertexPropertiesCSV{CSVFile: csvFile(fs, "same.csv", false, gdi.NoSorting), PropertyType: s, Label: l})
	is(err, gdi.WarnNotAllDataLoaded, "LoadVertexPropertiesCSV of a single-entity value equal to the one already on the vertex (spec 14.1: a property of that type already present is ignored, with WARNING_NOT_ALL_DATA_LOADED)")
	err = ld.LoadVertexPropertiesCSV(gdi.VertexPropertiesCSV{CSVFile: csvFile(fs, "twice.csv", false, gdi.NoSorting), PropertyType: s, Label: l})
	is(err, gdi.WarnNotAllDataLoaded, "LoadVertexPropertiesCSV of one single-entity value on two lines of the same vertex (spec 14.1: a property of that type already present is ignored, with WARNING_NOT_ALL_DATA_LOADED)")
	e.view(func(tx gdi.Transaction) {
		sameSet(values(find(tx, l, []byte("a")), s), []gdi.Value{gdi.Int32s(1)}, "a keeps its one value")
		sameSet(values(find(tx, l, []byte("b")), s), []gdi.Value{gdi.Int32s(6)}, "b gets the value once")
	})
}

func csvEdges(e *Env) {
	ld := loader(e)
	p, c := e.label("Person"), e.label("City")
	knows := e.label("Knows")
	since := e.single("since", gdi.DateType)
	w := e.single("w", gdi.Double)
	fs := mapFS(map[string]string{
		"p.csv": b64("1") + "\n" + b64("2") + "\n" + b64("3") + "\n",
		"c.csv": b64("1") + "\n",
		"e.csv": "o,t,since,w\n" + b64("1") + "," + b64("2") + ",2019-10-17,0.5\n" + b64("1") + "," + b64("3") + ",,1.5\n" + b64("2") + "," + b64("3") + ",1990-12-31,\n",
		"u.csv": b64("3") + "," + b64("1") + "\n",
	})
	okf(ld.LoadVertexCSV(gdi.VertexCSV{CSVFile: csvFile(fs, "p.csv", false, gdi.AscSorting), Labels: ls(p)}), "LoadVertexCSV(persons)")
	okf(ld.LoadVertexCSV(gdi.VertexCSV{CSVFile: csvFile(fs, "c.csv", false, gdi.NoSorting), Labels: ls(c)}), "LoadVertexCSV(cities)")
	okf(ld.LoadEdgeCSV(gdi.EdgeCSV{CSVFile: csvFile(fs, "e.csv", true, gdi.OriginTarget), Direction: gdi.Directed,
		PropertyTypes: []gdi.PropertyType{since, w}, Labels: ls(knows), OriginLabel: p, TargetLabel: p}), "LoadEdgeCSV")
	okf(ld.LoadEdgeCSV(gdi.EdgeCSV{CSVFile: csvFile(fs, "u.csv", false, gdi.TargetOrigin), Direction: gdi.Undirected,
		OriginLabel: p, TargetLabel: c}), "LoadEdgeCSV(undirected, person to city)")
	d, _ := gdi.NewDate(2019, 10, 17)
	e.view(func(tx gdi.Transaction) {
		one := find(tx, p, []byte("1"))
		out := must(one.Edges(gdi.EdgeOutgoing, nil))
		if len(out) != 2 {
			failf("person 1 has %d outgoing edges, want 2", len(out))
		}
		sameStrings(idsOfVertices(tx, must(one.Neighbors(gdi.EdgeOutgoing, nil))), strs("2", "3"), "targets of person 1")
		for _, u := range out {
			h := must(tx.AssociateEdge(u))
			sameSet(labelsOf(h), ls(knows), "edge labels")
			if got := must(h.Direction()); got != gdi.Directed {
				failf("direction %v", got)
			}
			_, t := must2(h.Vertices())
			switch idsOfVertices(tx, []gdi.VertexUID{t})[0] {
			case "2":
				sameSet(values(h, since), []gdi.Value{gdi.Dates(d)}, "since of 1->2")
				sameSet(values(h, w), []gdi.Value{gdi.Doubles(0.5)}, "w of 1->2")
			case "3":
				sameSet(values(h, since), nil, "since of 1->3 (empty field)")
				sameSet(values(h, w), []gdi.Value{gdi.Doubles(1.5)}, "w of 1->3")
			}
		}
		three := find(tx, p, []byte("3"))
		sameStrings(idsOfVertices(tx, must(three.Neighbors(gdi.EdgeIncoming, nil))), strs("1", "2"), "sources of person 3")
		city := find(tx, c, []byte("1"))
		un := must(city.Edges(gdi.EdgeUndirected, nil))
		if len(un) != 1 {
			failf("city has %d undirected edges, want 1", len(un))
		}
		sameSet(labelsOf(must(tx.AssociateEdge(un[0]))), nil, "labels of an edge loaded without labels")
		if vs := values(three, gdi.PropertyTypeDegree); len(vs) != 1 || vs[0] != gdi.Uint64s(3) {
			failf("degree of person 3 = %v, want [3]", vs)
		}
	})
}

func csvEdgesLabelNone(e *Env) {
	ld := loader(e)
	p := e.label("P")
	fs := mapFS(map[string]string{
		"n.csv": b64("x") + "\n" + b64("y") + "\n",
		"p.csv": b64("x") + "\n",
		"e.csv": b64("x") + "," + b64("y") + "\n" + b64("x") + "," + b64("nobody") + "\n",
		"m.csv": b64("x") + "," + b64("x") + "\n",
	})
	okf(ld.LoadVertexCSV(gdi.VertexCSV{CSVFile: csvFile(fs, "n.csv", false, gdi.NoSorting)}), "LoadVertexCSV without labels")
	okf(ld.LoadVertexCSV(gdi.VertexCSV{CSVFile: csvFile(fs, "p.csv", false, gdi.NoSorting), Labels: ls(p)}), "LoadVertexCSV(P)")
	err := ld.LoadEdgeCSV(gdi.EdgeCSV{CSVFile: csvFile(fs, "e.csv", false, gdi.NoSorting), Direction: gdi.Directed, OriginLabel: gdi.LabelNone, TargetLabel: gdi.LabelNone})
	is(err, gdi.WarnNotAllDataLoaded, "LoadEdgeCSV with a line naming an unknown vertex")
	okf(ld.LoadEdgeCSV(gdi.EdgeCSV{CSVFile: csvFile(fs, "m.csv", false, gdi.NoSorting), Direction: gdi.Directed, OriginLabel: p, TargetLabel: gdi.LabelNone}), "LoadEdgeCSV(P to no label)")
	e.view(func(tx gdi.Transaction) {
		x := find(tx, gdi.LabelNone, []byte("x"))
		sameStrings(idsOfVertices(tx, must(x.Neighbors(gdi.EdgeOutgoing, nil))), strs("y"), "targets of unlabelled x")
		sameStrings(idsOfVertices(tx, must(x.Neighbors(gdi.EdgeIncoming, nil))), strs("x"), "sources of unlabelled x (from labelled x)")
		px := find(tx, p, []byte("x"))
		sameStrings(idsOfVertices(tx, must(px.Neighbors(gdi.EdgeOutgoing, nil))), strs("x"), "targets of labelled x")
	})
}

func csvNoSuchFile(e *Env) {
	ld := loader(e)
	l := e.label("L")
	fs := mapFS(map[string]string{"v.csv": b64("a") + "\n"})
	is(ld.LoadVertexCSV(gdi.VertexCSV{CSVFile: csvFile(fs, "missing.csv", false, gdi.NoSorting), Labels: ls(l)}), gdi.ErrNoSuchFile, "LoadVertexCSV(missing file in FS)")
	f := csvFile(nil, filepath.Join(e.TempDir(), "missing.csv"), false, gdi.NoSorting)
	f.FS = nil
	is(ld.LoadVertexCSV(gdi.VertexCSV{CSVFile: f, Labels: ls(l)}), gdi.ErrNoSuchFile, "LoadVertexCSV(missing OS file)")
	is(ld.LoadVertexPropertiesCSV(gdi.VertexPropertiesCSV{CSVFile: csvFile(fs, "missing.csv", false, gdi.NoSorting), PropertyType: e.single("p", gdi.Int8), Label: l}), gdi.ErrNoSuchFile, "LoadVertexPropertiesCSV(missing file)")
	is(ld.LoadEdgeCSV(gdi.EdgeCSV{CSVFile: csvFile(fs, "missing.csv", false, gdi.NoSorting), Direction: gdi.Directed, OriginLabel: l, TargetLabel: l}), gdi.ErrNoSuchFile, "LoadEdgeCSV(missing file)")
}

func csvOSPath(e *Env) {
	ld := loader(e)
	l := e.label("L")
	path := e.WriteFile("v.csv", []byte(b64("a")+"\n"+b64("b")+"\n"))
	f := csvFile(nil, path, false, gdi.NoSorting)
	f.FS = nil
	okf(ld.LoadVertexCSV(gdi.VertexCSV{CSVFile: f, Labels: ls(l)}), "LoadVertexCSV(OS path)")
	sameStrings(allIDs(e, e.labelIndex(l)), strs("a", "b"), "vertices loaded from an OS path")
}

// csvBadFormat: a line with the wrong number of fields, or a field that
// does not parse, returns ErrFileFormat and loads nothing (spec 14.1).
func csvBadFormat(e *Env) {
	ld := loader(e)
	l := e.label("L")
	n := e.single("n", gdi.Int32)
	fs := mapFS(map[string]string{
		"cols.csv":  b64("a") + ",1\n" + b64("b") + ",2\n" + b64("c") + ",3,extra\n",
		"few.csv":   b64("a") + ",1\n" + b64("b") + "\n",
		"value.csv": b64("a") + ",1\n" + b64("b") + ",two\n",
		"id.csv":    b64("a") + ",1\n" + "not*base64,2\n",
		"lead.csv":  b64("a") + ",01\n",
		"esc.csv":   b64("a") + ",1\\\n",
		"ok.csv":    b64("a") + ",1\n" + b64("b") + ",2\n",
		"edge.csv":  b64("a") + "\n",
		"prop.csv":  b64("a") + ",1,2\n",
	})
	for _, file := range []string{"cols.csv", "few.csv", "value.csv", "id.csv", "lead.csv", "esc.csv"} {
		err := ld.LoadVertexCSV(gdi.VertexCSV{CSVFile: csvFile(fs, file, false, gdi.NoSorting), PropertyTypes: []gdi.PropertyType{n}, Labels: ls(l)})
		is(err, gdi.ErrFileFormat, "LoadVertexCSV(%s)", file)
	}
	idx := e.labelIndex(l)
	sameStrings(allIDs(e, idx), nil, "vertices after failed loads (nothing loaded)")
	okf(ld.LoadVertexCSV(gdi.VertexCSV{CSVFile: csvFile(fs, "ok.csv", false, gdi.NoSorting), PropertyTypes: []gdi.PropertyType{n}, Labels: ls(l)}), "LoadVertexCSV(ok.csv)")
	is(ld.LoadEdgeCSV(gdi.EdgeCSV{CSVFile: csvFile(fs, "edge.csv", false, gdi.NoSorting), Direction: gdi.Directed, OriginLabel: l, TargetLabel: l}), gdi.ErrFileFormat, "LoadEdgeCSV with one column")
	m := e.multi("m", gdi.Int32)
	is(ld.LoadVertexPropertiesCSV(gdi.VertexPropertiesCSV{CSVFile: csvFile(fs, "prop.csv", false, gdi.NoSorting), PropertyType: m, Label: l}), gdi.ErrFileFormat, "LoadVertexPropertiesCSV with three columns")
	e.view(func(tx gdi.Transaction) {
		a := find(tx, l, []byte("a"))
		if n := len(must(a.Edges(gdi.EdgeAll, nil))); n != 0 {
			failf("failed edge load added %d edges", n)
		}
		sameSet(values(a, m), nil, "failed property load added values")
	})
}

func csvInvalidArgs(e *Env) {
	ld := loader(e)
	l := e.label("L")
	p := e.multi("p", gdi.Int8)
	fs := mapFS(map[string]string{"v.csv": b64("a") + "\n", "e.csv": b64("a") + "," + b64("a") + "\n", "p.csv": b64("a") + ",1\n"})
	v := func(mod func(*gdi.CSVFile)) gdi.VertexCSV {
		f := csvFile(fs, "v.csv", false, gdi.NoSorting)
		mod(&f)
		return gdi.VertexCSV{CSVFile: f, Labels: ls(l)}
	}
	is(ld.LoadVertexCSV(v(func(f *gdi.CSVFile) { f.Sort = 0 })), gdi.ErrState, "vertex load with sort 0")
	is(ld.LoadVertexCSV(v(func(f *gdi.CSVFile) { f.Sort = gdi.Grouped })), gdi.ErrState, "vertex load with Grouped")
	is(ld.LoadVertexCSV(v(func(f *gdi.CSVFile) { f.Sort = gdi.OriginTarget })), gdi.ErrState, "vertex load with OriginTarget")
	is(ld.LoadVertexCSV(v(func(f *gdi.CSVFile) { f.Assert = 1 })), gdi.ErrAssert, "vertex load with assert 1")
	is(ld.LoadVertexCSV(v(func(f *gdi.CSVFile) { f.ElementDelimiter = ',' })), gdi.ErrDelimiter, "equal delimiters")
	is(ld.LoadVertexCSV(v(func(f *gdi.CSVFile) { f.FieldDelimiter = 'n' })), gdi.ErrDelimiter, "delimiter 'n'")
	is(ld.LoadVertexCSV(v(func(f *gdi.CSVFile) { f.FieldDelimiter = '\\' })), gdi.ErrDelimiter, "delimiter backslash")
	is(ld.LoadVertexCSV(v(func(f *gdi.CSVFile) { f.FieldDelimiter = 0xe9 })), gdi.ErrDelimiter, "non-ASCII delimiter")
	ef := csvFile(fs, "e.csv", false, gdi.NoSorting)
	is(ld.LoadEdgeCSV(gdi.EdgeCSV{CSVFile: ef, Direction: 0, OriginLabel: l, TargetLabel: l}), gdi.ErrState, "edge load with direction 0")
	ef.Sort = gdi.AscSorting
	is(ld.LoadEdgeCSV(gdi.EdgeCSV{CSVFile: ef, Direction: gdi.Directed, OriginLabel: l, TargetLabel: l}), gdi.ErrState, "edge load with AscSorting")
	pf := csvFile(fs, "p.csv", false, gdi.OriginTarget)
	is(ld.LoadVertexPropertiesCSV(gdi.VertexPropertiesCSV{CSVFile: pf, PropertyType: p, Label: l}), gdi.ErrState, "property load with OriginTarget")
	vf := csvFile(fs, "v.csv", false, gdi.NoSorting)
	is(ld.LoadVertexCSV(gdi.VertexCSV{CSVFile: vf, Labels: ls(gdi.LabelNull)}), gdi.ErrLabel, "vertex load with LabelNull")
	is(ld.LoadVertexCSV(gdi.VertexCSV{CSVFile: vf, PropertyTypes: []gdi.PropertyType{gdi.PropertyTypeNull}}), gdi.ErrPropertyType, "vertex load with PropertyTypeNull")
	is(ld.LoadVertexCSV(gdi.VertexCSV{CSVFile: vf, PropertyTypes: []gdi.PropertyType{gdi.PropertyTypeDegree}}), gdi.ErrReadOnlyPropertyType, "vertex load of a degree column")
	sameStrings(allIDs(e, e.labelIndex(l)), nil, "vertices after the failed loads")
}

func csvForeign(e *Env) {
	ld := loader(e)
	db2 := e.NewDatabase()
	l2, err := db2.CreateLabel("L")
	okf(err, "db2 CreateLabel")
	p2, err := db2.CreatePropertyType(gdi.PropertyTypeInfo{Name: "p", Entity: gdi.MultipleEntity, Datatype: gdi.Int8, Size: gdi.NoSizeLimit})
	okf(err, "db2 CreatePropertyType")
	l := e.label("L")
	fs := mapFS(map[string]string{"v.csv": b64("a") + ",1\n", "e.csv": b64("a") + "," + b64("a") + "\n"})
	f := csvFile(fs, "v.csv", false, gdi.NoSorting)
	is(ld.LoadVertexCSV(gdi.VertexCSV{CSVFile: f, Labels: ls(l2)}), gdi.ErrObjectMismatch, "vertex load with a label of another database")
	is(ld.LoadVertexCSV(gdi.VertexCSV{CSVFile: f, PropertyTypes: []gdi.PropertyType{p2}, Labels: ls(l)}), gdi.ErrObjectMismatch, "vertex load with a property type of another database")
	is(ld.LoadVertexPropertiesCSV(gdi.VertexPropertiesCSV{CSVFile: f, PropertyType: p2, Label: l}), gdi.ErrObjectMismatch, "property load with a property type of another database")
	ef := csvFile(fs, "e.csv", false, gdi.NoSorting)
	is(ld.LoadEdgeCSV(gdi.EdgeCSV{CSVFile: ef, Direction: gdi.Directed, OriginLabel: l2, TargetLabel: l}), gdi.ErrObjectMismatch, "edge load with an origin label of another database")
	is(ld.LoadEdgeCSV(gdi.EdgeCSV{CSVFile: ef, Direction: gdi.Directed, OriginLabel: l, TargetLabel: l, Labels: ls(l2)}), gdi.ErrObjectMismatch, "edge load with an edge label of another database")
}
