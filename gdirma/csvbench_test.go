package gdirma_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// BenchmarkLoadEdgeCSV loads 100,000 edges between 10,000 vertices with
// LoadEdgeCSV on 2 ranks, the ends given with their label and with
// LabelNone (the vertices without labels): both find the ends in the
// implicit index. Only LoadEdgeCSV is timed.
func BenchmarkLoadEdgeCSV(b *testing.B) {
	const vertices, edges = 10_000, 100_000
	dir := b.TempDir()
	var vs, es strings.Builder
	for i := range vertices {
		fmt.Fprintf(&vs, "v%d\n", i)
	}
	for i := range edges {
		fmt.Fprintf(&es, "v%d,v%d\n", i%vertices, (i*7919+13)%vertices)
	}
	vpath, epath := filepath.Join(dir, "v.csv"), filepath.Join(dir, "e.csv")
	if err := errors.Join(os.WriteFile(vpath, []byte(vs.String()), 0o644), os.WriteFile(epath, []byte(es.String()), 0o644)); err != nil {
		b.Fatal(err)
	}
	for _, labelled := range []bool{true, false} {
		b.Run(fmt.Sprintf("labelled=%v", labelled), func(b *testing.B) {
			var timed time.Duration
			for range b.N {
				err := local.Run(2, func(c rma.Comm) error {
					db, err := gdirma.Driver{}.CreateDatabase(c, gdirma.Params{MemoryPerRank: 64 << 20, DHTBuckets: 1 << 14, DHTEntries: 1 << 15})
					if err != nil {
						return err
					}
					defer db.Free()
					l := gdi.LabelNone
					var labels []gdi.Label
					if labelled {
						if l, err = db.CreateLabel("V"); err != nil {
							return err
						}
						labels = []gdi.Label{l}
					}
					file := func(p string) gdi.CSVFile {
						return gdi.CSVFile{Path: p, FieldDelimiter: ',', ElementDelimiter: ';', Sort: gdi.NoSorting, TextIDs: true}
					}
					loader := db.(gdi.CSVLoader)
					if err := loader.LoadVertexCSV(gdi.VertexCSV{CSVFile: file(vpath), Labels: labels}); err != nil {
						return err
					}
					start := time.Now()
					err = loader.LoadEdgeCSV(gdi.EdgeCSV{CSVFile: file(epath), Direction: gdi.Directed, OriginLabel: l, TargetLabel: l})
					if c.Rank() == 0 {
						timed += time.Since(start)
					}
					return err
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(timed.Nanoseconds())/float64(b.N), "ns/load")
			b.ReportMetric(0, "ns/op")
		})
	}
}
