package gdirma_test

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
)

// TestLoadVertexCSVShares: on 3 ranks each rank creates the vertices of
// its share of the lines, so every rank holds some; an ID that a later
// line of another share gives again keeps the values of its first line,
// and the others are skipped (WarnNotAllDataLoaded on every rank); the
// lines of LoadVertexPropertiesCSV reach the ranks of their vertices.
func TestLoadVertexCSVShares(t *testing.T) {
	var vfile, pfile strings.Builder
	for i := range 200 {
		fmt.Fprintf(&vfile, "v%d|%d\n", i%150, i)
		fmt.Fprintf(&pfile, "v%d|%d\n", i%150, 1000+i)
	}
	fs := fstest.MapFS{"v.csv": {Data: []byte(vfile.String())}, "p.csv": {Data: []byte(pfile.String())}}
	run(t, 3, gdirma.Params{MemoryPerRank: 4 << 20}, func(c rma.Comm, db gdi.Database) error {
		l, err := db.CreateLabel("L")
		if err != nil {
			return err
		}
		n, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "n", Entity: gdi.SingleEntity, Datatype: gdi.Int64, Size: gdi.FixedSize, Count: 1})
		if err != nil {
			return err
		}
		m, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "m", Entity: gdi.MultipleEntity, Datatype: gdi.Int64, Size: gdi.FixedSize, Count: 1})
		if err != nil {
			return err
		}
		file := func(path string) gdi.CSVFile {
			return gdi.CSVFile{FS: fs, Path: path, FieldDelimiter: '|', ElementDelimiter: ';', Sort: gdi.NoSorting, TextIDs: true}
		}
		ld := db.(gdi.CSVLoader)
		err = ld.LoadVertexCSV(gdi.VertexCSV{CSVFile: file("v.csv"), PropertyTypes: []gdi.PropertyType{n}, Labels: []gdi.Label{l}})
		if gdi.ErrorClass(err) != gdi.WarnNotAllDataLoaded || !strings.Contains(err.Error(), "50 lines") {
			return fmt.Errorf("LoadVertexCSV with 50 repeated IDs: %v, want WarnNotAllDataLoaded for 50 lines", err)
		}
		if err := ld.LoadVertexPropertiesCSV(gdi.VertexPropertiesCSV{CSVFile: file("p.csv"), PropertyType: m, Label: l}); err != nil {
			return fmt.Errorf("LoadVertexPropertiesCSV: %v", err)
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		homes := map[int]int{}
		err = gdirma.InTx(db, func(tx gdi.Transaction) error {
			for i := range 150 {
				uid, ok, err := tx.TranslateVertexID(l, fmt.Appendf(nil, "v%d", i))
				if err != nil || !ok {
					return fmt.Errorf("v%d: found %v (%v)", i, ok, err)
				}
				home, err := gdirma.HomeOf(db.(*gdirma.Database), uid)
				if err != nil {
					return err
				}
				homes[home]++
				v, err := tx.AssociateVertex(uid)
				if err != nil {
					return err
				}
				got, err := v.Properties(n)
				if err != nil || len(got) != 1 || got[0] != gdi.Int64s(int64(i)) {
					return fmt.Errorf("v%d has n = %v (%v), want the value of its first line, %d", i, got, err, i)
				}
				ms, err := v.Properties(m)
				want := 1
				if i < 50 {
					want = 2 // its ID is on two lines of p.csv
				}
				if err != nil || len(ms) != want {
					return fmt.Errorf("v%d has m = %v (%v), want %d values", i, ms, err, want)
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		if len(homes) != 3 {
			return fmt.Errorf("the vertices are on the ranks %v, want all 3", homes)
		}
		return nil
	})
}
