package cypher

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gdi-go/gdi/csvimport"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/count"
	"github.com/gdi-go/gdi/rma/local"
)

// BenchmarkWholeGraphRead runs reads of the whole graph of 20,000 nodes,
// loaded by csvimport (so spread over the ranks, as gdi import spreads
// them), on 2 ranks of gdirma: a count and sum, a grouping and a selective
// filter. It reports the one-sided calls per statement of rank 0 and of
// the busiest rank (rank0-calls/op, max-calls/op): an engine that runs
// everything on rank 0 makes all the calls there.
func BenchmarkWholeGraphRead(b *testing.B) {
	for _, q := range []struct{ name, query string }{
		{"count", "MATCH (n:N) RETURN count(*) AS c, sum(n.i) AS s"},
		{"group", "MATCH (n:N) RETURN n.g AS g, count(*) AS c ORDER BY g"},
		{"filter", "MATCH (n:N) WHERE n.i % 1000 = 0 RETURN n.i ORDER BY n.i"},
	} {
		b.Run(q.name, func(b *testing.B) { benchWholeGraph(b, q.query, 2, 20000) })
	}
}

func benchWholeGraph(b *testing.B, query string, ranks, nodes int) {
	dir := b.TempDir()
	if err := writeNodesCSV(filepath.Join(dir, "N.csv"), nodes); err != nil {
		b.Fatal(err)
	}
	calls := make([]uint64, ranks)
	err := local.Run(ranks, func(c rma.Comm) error {
		cc := count.Wrap(c)
		db, err := gdirma.Driver{}.CreateDatabase(cc, gdirma.Params{MemoryPerRank: 64 << 20})
		if err != nil {
			return err
		}
		defer db.Free()
		if _, err := csvimport.Import(cc, db, dir, csvimport.Options{}); err != nil {
			return err
		}
		e, err := Open(cc, db)
		if err != nil {
			return err
		}
		ctx := context.Background()
		if c.Rank() == 0 {
			b.ResetTimer()
		}
		before := cc.Counts().Calls()
		for range b.N {
			if _, err := e.Run(ctx, query, nil); err != nil {
				return fmt.Errorf("%s: %w", query, err)
			}
		}
		calls[c.Rank()] = cc.Counts().Calls() - before
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(calls[0])/float64(b.N), "rank0-calls/op")
	b.ReportMetric(float64(slices.Max(calls))/float64(b.N), "max-calls/op")
}

// writeNodesCSV writes nodes N with IDs and integer properties i (1 to n)
// and g (i mod 100) in the headers of gdi import.
func writeNodesCSV(path string, n int) error {
	var sb strings.Builder
	sb.WriteString("id:ID(N),i:long,g:long\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&sb, "%d,%d,%d\n", i, i, i%100)
	}
	return os.WriteFile(path, []byte(sb.String()), 0o644)
}
