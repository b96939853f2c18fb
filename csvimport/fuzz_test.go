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

// FuzzImport imports a vertex file and an edge file of any content on 2
// ranks: the import succeeds with every line loaded, or fails on both
// ranks alike with the class of a malformed file, an ID given twice or a
// name the database refuses, having loaded nothing; it never panics.
func FuzzImport(f *testing.F) {
	f.Add("id:ID(P),name,age:int,tags:string[]\n1,a,3,x;y\n2,\"b,c\",4,\n", ":START_ID(P),:END_ID(P),w:double\n1,2,0.5\n2,1,\n")
	f.Add("id:ID(P)|:LABEL|t:datetime\n1|A;B|2020-01-02T03:04:05.006+01:00\n", ":START_ID(P)|:END_ID(P)|:TYPE\n1|1|self\n")
	f.Add(":ID(P),x:boolean[]\n1,true;false\n1,true\n", ":START_ID(P),:END_ID(Q)\n1,1\n")
	f.Add("no header at all", "")
	f.Fuzz(func(t *testing.T, vertices, edges string) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "P.csv"), []byte(vertices), 0o644); err != nil {
			t.Fatal(err)
		}
		if edges != "" {
			if err := os.WriteFile(filepath.Join(dir, "P_rel_P.csv"), []byte(edges), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		codes := make([]gdi.Code, 2)
		err := local.Run(2, func(c rma.Comm) error {
			db, err := gdirma.Driver{}.CreateDatabase(c, gdirma.Params{MemoryPerRank: 1 << 20})
			if err != nil {
				return err
			}
			defer db.Free()
			st, err := csvimport.Import(c, db, dir, csvimport.Options{RoundEdges: 1})
			codes[c.Rank()] = gdi.ErrorClass(err)
			switch gdi.ErrorClass(err) {
			case gdi.Success:
				if want := lines(vertices); st.Vertices != want {
					return fmt.Errorf("loaded %d vertices of %d lines", st.Vertices, want)
				}
				return nil
			case gdi.ErrFileFormat, gdi.ErrNonUniqueID, gdi.ErrEmptyName, gdi.ErrNameExists:
				if ls, lerr := db.Labels(); lerr != nil || len(ls) != 0 {
					return fmt.Errorf("import failed (%v), yet the database has labels %v", err, ls)
				}
				return nil
			}
			return fmt.Errorf("import: %v", err)
		})
		if err != nil {
			t.Fatal(err)
		}
		if codes[0] != codes[1] {
			t.Fatalf("the ranks returned %v and %v", codes[0], codes[1])
		}
	})
}

// lines counts the records of a file: its lines after the header.
func lines(s string) uint64 {
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return uint64(max(n-1, 0))
}
