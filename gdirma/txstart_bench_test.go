package gdirma_test

import (
	"testing"

	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// BenchmarkEmptyTransaction is the fixed cost of a transaction: start and
// commit, with nothing read, on one rank. Everything stays in the cache,
// so it shows the CPU work and allocations of starting and ending alone.
func BenchmarkEmptyTransaction(b *testing.B) {
	err := local.Run(1, func(c rma.Comm) error {
		db, err := gdirma.Driver{}.CreateDatabase(c, gdirma.Params{MemoryPerRank: 1 << 20})
		if err != nil {
			return err
		}
		defer db.Free()
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
	if err != nil {
		b.Fatal(err)
	}
}
