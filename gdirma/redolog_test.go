package gdirma_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/internal/ranktest"
	"github.com/gdi-go/gdi/rma"
)

// TestRedoLogRestore builds a database with the log on (metadata, commits,
// an index, deletions), drops it without a checkpoint, and restores it
// from the checkpoint CreateDatabase wrote and the logs: the dumps must be
// equal. The restored database logs on, and a second restore gives the
// database after more work.
func TestRedoLogRestore(t *testing.T) {
	n := ranktest.Iterations(16, 120)
	defer gdirma.SetReplayRound(5)() // many rounds of replay
	for _, mode := range []gdirma.LogMode{gdirma.LogSync, gdirma.LogAsync} {
		for _, ranks := range ranktest.Ranks {
			if testing.Short() && mode == gdirma.LogAsync && ranks != 2 {
				continue
			}
			t.Run(fmt.Sprintf("%s/ranks=%d", mode, ranks), func(t *testing.T) {
				base := t.TempDir()
				ranktest.Run(t, ranks, func(c rma.Comm) error {
					dir, err := sharedDir(c, filepath.Join(base, "log"))
					if err != nil {
						return err
					}
					p := ckptParams
					p.Log, p.LogDir = mode, dir
					db, err := gdirma.Driver{}.CreateDatabase(c, p)
					if err != nil {
						return err
					}
					s, err := makeSchema(db)
					if err != nil {
						return err
					}
					if err := buildCkptGraph(c, db, s, n); err != nil {
						return err
					}
					if _, err := moreWork(c, db, s, 5); err != nil {
						return err
					}
					if err := c.Barrier(); err != nil {
						return err
					}
					want, err := dumpCkpt(db)
					if err != nil {
						return err
					}
					if err := db.Free(); err != nil {
						return err
					}
					// Restore and go on logging.
					rdb, err := gdirma.Driver{}.CreateDatabase(c, gdirma.Params{Restore: dir, Log: mode, LogDir: dir})
					if err != nil {
						return fmt.Errorf("restore: %w", err)
					}
					got, err := dumpCkpt(rdb)
					if err != nil {
						return err
					}
					if got != want {
						rdb.Free()
						return fmt.Errorf("rank %d: checkpoint + log differs from the live database:\n%s", c.Rank(), diffLines(want, got))
					}
					if err := rdb.(*gdirma.Database).CheckHolders(); err != nil {
						rdb.Free()
						return err
					}
					rs, err := schemaOf(rdb)
					if err != nil {
						return err
					}
					// Every rank has dumped the restored database before
					// any changes it.
					if err := c.Barrier(); err != nil {
						return err
					}
					for i := range 10 {
						err := retry(rdb, func(tx gdi.Transaction) error {
							v, err := tx.CreateVertex([]byte(fmt.Sprintf("after-r%d-%d", c.Rank(), i)))
							if err != nil {
								return err
							}
							return v.AddLabel(rs.person)
						})
						if err != nil {
							rdb.Free()
							return fmt.Errorf("restored: %w", err)
						}
					}
					if err := c.Barrier(); err != nil {
						return err
					}
					want, err = dumpCkpt(rdb)
					if err != nil {
						return err
					}
					if err := rdb.Free(); err != nil {
						return err
					}
					rdb, err = gdirma.Driver{}.CreateDatabase(c, gdirma.Params{Restore: dir, LogDir: dir})
					if err != nil {
						return fmt.Errorf("second restore: %w", err)
					}
					defer rdb.Free()
					if got, err = dumpCkpt(rdb); err != nil {
						return err
					}
					if got != want {
						return fmt.Errorf("rank %d: second restore differs:\n%s", c.Rank(), diffLines(want, got))
					}
					return rdb.(*gdirma.Database).CheckHolders()
				})
			})
		}
	}
}
