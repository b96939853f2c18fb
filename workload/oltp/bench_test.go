package oltp

import (
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/generator"
	"github.com/gdi-go/gdi/rma"
)

// BenchmarkOLTPMix runs each mix on one rank of the reference backend, on a
// Kronecker graph of scale 10 with edge factor 16. ns/op is per operation.
// The figures are for the record; the fast backend is gdirma.
func BenchmarkOLTPMix(b *testing.B) {
	for _, m := range Mixes {
		b.Run(m.Name, func(b *testing.B) {
			loaded(b, 1, generator.Config{Scale: 10, EdgeFactor: 16, Seed: 1}, func(c rma.Comm, db gdi.Database, g *generator.Graph, md *generator.Metadata) error {
				b.ReportAllocs()
				b.ResetTimer()
				r, err := Run(c, db, Config{Mix: m, Graph: g, Meta: md, Count: b.N, Seed: 2})
				b.StopTimer()
				if err != nil {
					return err
				}
				b.ReportMetric(r.Throughput, "committed/s")
				b.ReportMetric(r.FailedPercent, "%failed")
				return nil
			})
		})
	}
}
