package catalog

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gdi-go/gdi/gdi"
)

// TestReadCSVShare: the shares of 1 to 5 ranks hold every line of the
// file once, with its number, as ReadCSV reads them, whatever the lengths
// of the lines, empty lines, a header and a last line without newline.
func TestReadCSVShare(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	cols := []CSVColumn{{Info: gdi.PropertyTypeInfo{Datatype: gdi.Int64}}}
	for trial := range 40 {
		var b strings.Builder
		for i := range rng.IntN(30) {
			if rng.IntN(6) == 0 {
				b.WriteString("\n") // an empty line
				continue
			}
			fmt.Fprintf(&b, "id%s%d,%d\n", strings.Repeat("x", rng.IntN(40)), i, i)
		}
		data := b.String()
		if trial%3 == 0 {
			data = strings.TrimSuffix(data, "\n")
		}
		path := filepath.Join(t.TempDir(), "f.csv")
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		f := gdi.CSVFile{Path: path, FieldDelimiter: ',', ElementDelimiter: ';', Header: trial%2 == 0, TextIDs: true}
		whole, err := ReadCSV(f, 1, cols)
		if err != nil {
			t.Fatal(err)
		}
		for size := 1; size <= 5; size++ {
			var all []CSVLine
			for r := range size {
				part, err := ReadCSVShare(f, 1, cols, r, size)
				if err != nil {
					t.Fatal(err)
				}
				all = append(all, part...)
			}
			if len(all) != len(whole) || len(all) > 0 && !reflect.DeepEqual(all, whole) {
				t.Fatalf("trial %d, %d ranks: the shares hold %d lines, the file %d:\n%v\n%v", trial, size, len(all), len(whole), all, whole)
			}
		}
	}
}
