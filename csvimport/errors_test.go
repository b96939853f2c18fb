package csvimport_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdi-go/gdi/csvimport"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// writeFiles writes files (name to content) into a new directory.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// people is a vertex file of 40 lines, so that every rank of 3 has some.
func people() string {
	var b strings.Builder
	b.WriteString("id:ID(Person),name,age:int,tags:string[]\n")
	for i := range 40 {
		fmt.Fprintf(&b, "%d,p%d,%d,a;b\n", i, i, 20+i)
	}
	return b.String()
}

// TestImportErrors: a malformed file fails the import on every rank with
// the class of its error and a message that names the file and line, and
// nothing is loaded.
func TestImportErrors(t *testing.T) {
	knows := ":START_ID(Person),:END_ID(Person),since:date\n0,1,2020-01-02\n1,2,2021-03-04\n"
	for _, c := range []struct {
		name  string
		files map[string]string
		want  gdi.Code
		where string
	}{
		{"bad int", map[string]string{"Person.csv": strings.Replace(people(), "p7,27", "p7,old", 1)}, gdi.ErrFileFormat, "Person.csv:9"},
		{"fields", map[string]string{"Person.csv": strings.Replace(people(), "p30,50,a;b", "p30,50", 1)}, gdi.ErrFileFormat, "Person.csv:32"},
		{"quote", map[string]string{"Person.csv": strings.Replace(people(), "p12", `"p12`, 1)}, gdi.ErrFileFormat, "Person.csv:14"},
		{"no ID", map[string]string{"Person.csv": strings.Replace(people(), "\n5,", "\n,", 1)}, gdi.ErrFileFormat, "Person.csv:7"},
		{"duplicate ID", map[string]string{"Person.csv": strings.Replace(people(), "\n33,", "\n3,", 1)}, gdi.ErrNonUniqueID, "Person.csv:5"},
		{"unknown end", map[string]string{"Person.csv": people(), "Person_knows_Person.csv": knows + "2,77,2022-05-06\n"}, gdi.ErrFileFormat, "Person_knows_Person.csv:4"},
		{"bad date", map[string]string{"Person.csv": people(), "Person_knows_Person.csv": strings.Replace(knows, "2021-03-04", "2021-13-04", 1)}, gdi.ErrFileFormat, "Person_knows_Person.csv:3"},
		{"unknown type", map[string]string{"Person.csv": strings.Replace(people(), "age:int", "age:money", 1)}, gdi.ErrFileFormat, "Person.csv: header"},
		{"no ID space", map[string]string{"Person.csv": strings.Replace(people(), "id:ID(Person)", "id:ID", 1)}, gdi.ErrFileFormat, "Person.csv: header"},
		{"no files", map[string]string{"notes.txt": "x"}, gdi.ErrNoSuchFile, "no .csv file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := writeFiles(t, c.files)
			err := local.Run(3, func(comm rma.Comm) error {
				db, err := gdirma.Driver{}.CreateDatabase(comm, gdirma.Params{MemoryPerRank: 1 << 20})
				if err != nil {
					return err
				}
				defer db.Free()
				_, err = csvimport.Import(comm, db, dir, csvimport.Options{RoundEdges: 1})
				if gdi.ErrorClass(err) != c.want || !strings.Contains(err.Error(), c.where) {
					return fmt.Errorf("Import: %v; want %v naming %q", err, c.want, c.where)
				}
				if ls, err := db.Labels(); err != nil || len(ls) != 0 {
					return fmt.Errorf("after a failed import the database has labels %v (%v)", ls, err)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}
