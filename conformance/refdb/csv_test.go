package refdb_test

import (
	"archive/zip"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
)

func TestCSVLoading(t *testing.T) {
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	files := fstest.MapFS{
		"v.csv":    {Data: []byte("id,name,age\n" + b64("a") + ",Ada,36\r\n" + b64("b") + ",Bob,\n" + b64("c") + ",Carl the Great and Long-Named,7\n")},
		"vbad.csv": {Data: []byte(b64("x") + ",Xena,1\n" + b64("y") + ",Yuri\n")},
		"text.csv": {Data: []byte("p1|Pia|3\np2|Paul|4\n")},
		"nick.csv": {Data: []byte(b64("a") + ",ace\n" + b64("a") + ",ada\n" + b64("zz") + ",ghost\n")},
		"e.csv":    {Data: []byte(b64("a") + "," + b64("b") + ",1;2\n" + b64("b") + "," + b64("zz") + ",3\n")},
	}
	run(t, 2, func(comm rma.Comm, db gdi.Database) error {
		s := makeSchema(comm, db)
		nick, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "nick", Entity: gdi.MultipleEntity, Datatype: gdi.Char, Size: gdi.NoSizeLimit})
		must(err)
		weights, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "w", Entity: gdi.SingleEntity, Datatype: gdi.Int16, Size: gdi.MaxSize, Count: 4})
		must(err)
		loader := db.(gdi.CSVLoader)
		file := func(name string) gdi.CSVFile {
			return gdi.CSVFile{FS: files, Path: name, FieldDelimiter: ',', ElementDelimiter: ';', Sort: gdi.NoSorting}
		}
		vreq := gdi.VertexCSV{CSVFile: file("v.csv"), PropertyTypes: []gdi.PropertyType{s.name, s.age}, Labels: []gdi.Label{s.person}}
		vreq.Header = true
		if err := wantCode(loader.LoadVertexCSV(vreq), gdi.WarnNotAllDataLoaded, "name over the size limit"); err != nil {
			return err
		}
		bad := gdi.VertexCSV{CSVFile: file("vbad.csv"), PropertyTypes: []gdi.PropertyType{s.name, s.age}}
		if err := wantCode(loader.LoadVertexCSV(bad), gdi.ErrFileFormat, "short line"); err != nil {
			return err
		}
		missing := bad
		missing.Path = "nope.csv"
		if err := wantCode(loader.LoadVertexCSV(missing), gdi.ErrNoSuchFile, "missing file"); err != nil {
			return err
		}
		text := gdi.VertexCSV{CSVFile: file("text.csv"), PropertyTypes: []gdi.PropertyType{s.name, s.age}, Labels: []gdi.Label{s.knows}}
		text.FieldDelimiter, text.TextIDs = '|', true
		must(loader.LoadVertexCSV(text))
		props := gdi.VertexPropertiesCSV{CSVFile: file("nick.csv"), PropertyType: nick, Label: s.person}
		if err := wantCode(loader.LoadVertexPropertiesCSV(props), gdi.WarnNotAllDataLoaded, "unknown vertex"); err != nil {
			return err
		}
		edges := gdi.EdgeCSV{CSVFile: file("e.csv"), Direction: gdi.Directed, PropertyTypes: []gdi.PropertyType{weights},
			Labels: []gdi.Label{s.knows}, OriginLabel: s.person, TargetLabel: s.person}
		if err := wantCode(loader.LoadEdgeCSV(edges), gdi.WarnNotAllDataLoaded, "edge to an unknown vertex"); err != nil {
			return err
		}

		tx, _ := db.StartTransaction()
		defer tx.Abort()
		get := func(l gdi.Label, id string) gdi.VertexHolder {
			uid, found, err := tx.TranslateVertexID(l, []byte(id))
			if !found || err != nil {
				panic(fmt.Sprintf("vertex %q: %v", id, err))
			}
			v, err := tx.AssociateVertex(uid)
			must(err)
			return v
		}
		a := get(s.person, "a")
		if vs, _ := a.Properties(s.age); len(vs) != 1 || vs[0] != gdi.Int64s(36) {
			return fmt.Errorf("age of a: %v", vs)
		}
		if vs, _ := a.Properties(nick); len(vs) != 2 {
			return fmt.Errorf("nicks of a: %v", vs)
		}
		if vs, _ := get(s.person, "b").Properties(s.age); len(vs) != 0 {
			return fmt.Errorf("empty field loaded as %v", vs)
		}
		if vs, _ := get(s.person, "c").Properties(s.name); len(vs) != 0 {
			return fmt.Errorf("oversize name loaded as %v", vs)
		}
		if vs, _ := get(s.knows, "p2").Properties(s.name); len(vs) != 1 || vs[0] != gdi.Chars("Paul") {
			return fmt.Errorf("text ID vertex: %v", vs)
		}
		if _, found, _ := tx.TranslateVertexID(gdi.LabelNone, []byte("x")); found {
			return errors.New("a malformed file loaded data")
		}
		es, _ := a.Edges(gdi.EdgeOutgoing, nil)
		if len(es) != 1 {
			return fmt.Errorf("edges of a: %v", es)
		}
		e, _ := tx.AssociateEdge(es[0])
		if ws, _ := e.Properties(weights); len(ws) != 1 || ws[0] != gdi.Int16s(1, 2) {
			return fmt.Errorf("edge weights %v", ws)
		}
		return nil
	})
}

// ldbcZip is the LDBC SNB sample, relative to the package directory.
var ldbcZip = filepath.Join("..", "..", "..", "shared", "testdata", "ldbc-snb", "social-network-sf0.003-bi-composite-projected-fk.zip")

const ldbcDir = "social-network-sf0.003-bi-composite-projected-fk/graphs/csv/bi/composite-projected-fk/initial_snapshot/dynamic/"

// csvOf returns the content of the only CSV file in dir of the zip.
func csvOf(t *testing.T, zr fs.FS, dir string) string {
	t.Helper()
	names, err := fs.Glob(zr, ldbcDir+dir+"/*.csv")
	if err != nil || len(names) != 1 {
		t.Fatalf("CSV of %s: %v %v", dir, names, err)
	}
	data, err := fs.ReadFile(zr, names[0])
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// idFirst moves column col of every line of a '|' separated file to the
// front, because the loaders want IDs first. LDBC files contain no
// escapes, so plain splitting is exact.
func idFirst(data string, cols ...int) (header []string, out string) {
	var b strings.Builder
	for i, line := range strings.Split(strings.TrimSpace(data), "\n") {
		f := strings.Split(line, "|")
		var moved []string
		for _, c := range cols {
			moved = append(moved, f[c])
		}
		for j, x := range f {
			if !containsInt(cols, j) {
				moved = append(moved, x)
			}
		}
		if i == 0 {
			header = moved
		}
		b.WriteString(strings.Join(moved, "|") + "\n")
	}
	return header, b.String()
}

func containsInt(s []int, x int) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

func TestLDBCSample(t *testing.T) {
	if _, err := os.Stat(ldbcZip); err != nil {
		t.Skipf("LDBC sample not available: %v", err)
	}
	zr, err := zip.OpenReader(ldbcZip)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	personHeader, persons := idFirst(csvOf(t, zr, "Person"), 1)
	_, knows := idFirst(csvOf(t, zr, "Person_knows_Person"), 1, 2)
	files := fstest.MapFS{"person.csv": {Data: []byte(persons)}, "knows.csv": {Data: []byte(knows)}}
	if personHeader[0] != "id" || personHeader[2] != "firstName" || personHeader[3] != "lastName" {
		t.Fatalf("unexpected Person header %v", personHeader)
	}

	run(t, 2, func(comm rma.Comm, db gdi.Database) error {
		person, _ := db.CreateLabel("Person")
		knowsLabel, _ := db.CreateLabel("knows")
		// One property type per column after the ID, Date for birthday and
		// text for the rest (a Char value ignores the element delimiter, so
		// multi-valued fields stay whole).
		var ptypes []gdi.PropertyType
		byName := map[string]gdi.PropertyType{}
		for _, col := range personHeader[1:] {
			dt := gdi.Char
			if col == "birthday" {
				dt = gdi.DateType
			}
			p, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: col, Entity: gdi.SingleEntity, Datatype: dt, Size: gdi.NoSizeLimit})
			must(err)
			ptypes = append(ptypes, p)
			byName[col] = p
		}
		since, _ := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "knows.creationDate", Entity: gdi.SingleEntity, Datatype: gdi.Char, Size: gdi.NoSizeLimit})
		people, _ := db.CreateIndex(gdi.HashTableIndex, 50)
		must(people.AddLabel(person))
		friendships, _ := db.CreateIndex(gdi.HashTableIndex, 100)
		must(friendships.AddLabel(knowsLabel))

		file := gdi.CSVFile{FS: files, Header: true, FieldDelimiter: '|', ElementDelimiter: ';', Sort: gdi.NoSorting, TextIDs: true}
		loader := db.(gdi.CSVLoader)
		vf := file
		vf.Path = "person.csv"
		must(loader.LoadVertexCSV(gdi.VertexCSV{CSVFile: vf, PropertyTypes: ptypes, Labels: []gdi.Label{person}}))
		ef := file
		ef.Path = "knows.csv"
		must(loader.LoadEdgeCSV(gdi.EdgeCSV{CSVFile: ef, Direction: gdi.Undirected, PropertyTypes: []gdi.PropertyType{since},
			Labels: []gdi.Label{knowsLabel}, OriginLabel: person, TargetLabel: person}))

		ct, err := db.StartCollectiveTransaction()
		must(err)
		all, _ := ct.VerticesOfIndex(people, nil)
		mine, _ := ct.LocalVerticesOfIndex(people, nil)
		edges, _ := ct.EdgesOfIndex(friendships, nil)
		counts := []int64{int64(len(mine))}
		must(comm.AllreduceInt64(counts, rma.OpSum))
		if len(all) != 50 || counts[0] != 50 || len(edges) != 83 {
			return fmt.Errorf("%d persons (%d summed over ranks), %d knows edges; want 50 and 83", len(all), counts[0], len(edges))
		}
		uid, found, err := ct.TranslateVertexID(person, []byte("14"))
		if !found || err != nil {
			return fmt.Errorf("person 14: %v", err)
		}
		v, _ := ct.AssociateVertex(uid)
		want := map[string]gdi.Value{"firstName": gdi.Chars("Hossein"), "lastName": gdi.Chars("Forouhar"),
			"language": gdi.Chars("fa;ku;en"), "birthday": gdi.Dates(mustDate(1984, 3, 11))}
		for col, w := range want {
			if vs, _ := v.Properties(byName[col]); len(vs) != 1 || vs[0] != w {
				return fmt.Errorf("person 14 %s = %v, want %v", col, vs, w)
			}
		}
		degree := int64(strings.Count(knows, "\n14|") + strings.Count(knows, "|14|"))
		if d, _ := v.Properties(gdi.PropertyTypeDegree); d[0] != gdi.Uint64s(uint64(degree)) {
			return fmt.Errorf("degree of person 14 = %v, want %d", d, degree)
		}
		return ct.Commit()
	})
}

func mustDate(y, m, d int) gdi.Date {
	x, err := gdi.NewDate(y, m, d)
	must(err)
	return x
}
