package gdirma_test

import (
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
)

// BenchmarkEmptyTransaction is the fixed cost of a transaction: start and
// commit, with nothing read, on one rank. Everything stays in the cache,
// so it shows the CPU work and allocations of starting and ending alone.
func BenchmarkEmptyTransaction(b *testing.B) {
	run(b, 1, gdirma.Params{MemoryPerRank: 1 << 20}, func(c rma.Comm, db gdi.Database) error {
		b.ReportAllocs()
		for b.Loop() {
			tx, err := db.StartTransaction()
			if err != nil {
				return err
			}
			if err := tx.Commit(); err != nil {
				return err
			}
		}
		return nil
	})
}
