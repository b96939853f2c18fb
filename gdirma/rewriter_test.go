package gdirma_test

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/generator"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// BenchmarkFreeLabel frees the vertex label Project of a generated graph
// (scale 14, GDIRMA_BENCH_SCALE to change it) on 1 and 2 ranks: every rank
// rewrites its own holders. Project is half of the vertices, numbered from
// a quarter of them on, so that both ranks have as many (BulkLoad gives
// each rank a range of numbers). Only FreeLabel is timed; each iteration
// loads the graph anew.
func BenchmarkFreeLabel(b *testing.B) {
	scale := 14
	if n, err := strconv.Atoi(os.Getenv("GDIRMA_BENCH_SCALE")); err == nil && n > 0 {
		scale = n
	}
	g, err := generator.New(generator.Config{Scale: scale, EdgeFactor: 16, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	for _, ranks := range []int{1, 2} {
		b.Run(fmt.Sprintf("scale=%d/ranks=%d", scale, ranks), func(b *testing.B) {
			var timed time.Duration
			for range b.N {
				err := local.Run(ranks, func(c rma.Comm) error {
					perRank := int(g.NumVertices()) / ranks
					p := gdirma.Params{MemoryPerRank: 6 * 1024 * perRank, DHTBuckets: 2 * perRank, DHTEntries: 4 * perRank}
					db, err := gdirma.Driver{}.CreateDatabase(c, p)
					if err != nil {
						return err
					}
					defer db.Free()
					m, err := g.Scheme().CreateMetadata(db)
					if err == nil {
						err = db.(gdi.BulkLoader).BulkLoad(g.BulkSource(m))
					}
					if err := errors.Join(err, c.Barrier()); err != nil {
						return err
					}
					start := time.Now()
					if err := db.(gdi.MetadataRewriter).FreeLabel(m.VertexLabels[3]); err != nil && !gdi.IsWarning(err) {
						return err
					}
					if c.Rank() == 0 {
						timed += time.Since(start)
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(timed.Nanoseconds())/float64(b.N), "ns/FreeLabel")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// TestFreeLabelWarnsAcrossRanks: FreeLabel warns WarnNonUniqueID, on
// every rank, when it leaves two vertices of different ranks without
// labels and with the same ID, and not while one keeps a label.
func TestFreeLabelWarnsAcrossRanks(t *testing.T) {
	err := local.Run(2, func(c rma.Comm) error {
		db, err := gdirma.Driver{}.CreateDatabase(c, nil)
		if err != nil {
			return err
		}
		defer db.Free()
		l1, err1 := db.CreateLabel("L1")
		l2, err2 := db.CreateLabel("L2")
		if err := errors.Join(err1, err2); err != nil {
			return err
		}
		err = gdirma.InTx(db, func(tx gdi.Transaction) error {
			v, err := tx.CreateVertex([]byte("x"))
			if err == nil {
				err = v.AddLabel([]gdi.Label{l1, l2}[c.Rank()])
			}
			return err
		})
		if err := errors.Join(err, c.Barrier()); err != nil {
			return err
		}
		rw := db.(gdi.MetadataRewriter)
		if err := rw.FreeLabel(l1); err != nil {
			return fmt.Errorf("FreeLabel(L1): %v, want no warning (rank 1's vertex keeps L2)", err)
		}
		if err := rw.FreeLabel(l2); gdi.ErrorClass(err) != gdi.WarnNonUniqueID {
			return fmt.Errorf("FreeLabel(L2): %v, want WarnNonUniqueID", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
