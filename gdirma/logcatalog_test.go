package gdirma_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/internal/ranktest"
	"github.com/gdi-go/gdi/rma"
)

// TestRedoLogManyLabels creates many labels and a few property types
// with the log on: the log grows by a record of the change each, not by
// the whole catalog (which made it grow with the square of their number),
// and a restore has them all.
func TestRedoLogManyLabels(t *testing.T) {
	n := ranktest.Iterations(3000, 100000)
	base := t.TempDir()
	ranktest.Run(t, 2, func(c rma.Comm) error {
		db, dir, err := loggedDB(c, base, gdirma.LogAsync, ckptParams)
		if err != nil {
			return err
		}
		for i := range n {
			if _, err := db.CreateLabel(fmt.Sprintf("label-%d", i)); err != nil {
				db.Free()
				return err
			}
		}
		pt, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "p", Entity: gdi.SingleEntity, Datatype: gdi.Int64, Size: gdi.FixedSize, Count: 1})
		if err != nil {
			db.Free()
			return err
		}
		l, _ := db.LabelFromName("label-7")
		if err := db.UpdateLabel(l, "renamed"); err != nil {
			db.Free()
			return err
		}
		if err := gdirma.FlushLog(db.(*gdirma.Database)); err != nil {
			return err
		}
		if c.Rank() == 0 {
			path, err := gdirma.CheckpointFile(dir, "rank-0.log")
			if err != nil {
				return err
			}
			fi, err := os.Stat(path)
			if err != nil {
				return err
			}
			t.Logf("%d labels: %d bytes of log", n, fi.Size())
			if per := fi.Size() / int64(n); per > 100 {
				return fmt.Errorf("%d labels took %d bytes of log, %d per label; want at most 100", n, fi.Size(), per)
			}
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		rdb, err := freeAndRestore(c, db, dir)
		if err != nil {
			return err
		}
		defer rdb.Free()
		ls, err := rdb.Labels()
		if err != nil || len(ls) != n {
			return fmt.Errorf("restored %d labels (%v), want %d", len(ls), err, n)
		}
		for _, name := range []string{"label-0", "renamed", fmt.Sprintf("label-%d", n-1)} {
			if l, err := rdb.LabelFromName(name); err != nil || l == gdi.LabelNull {
				return fmt.Errorf("label %s lost (%v)", name, err)
			}
		}
		if l, _ := rdb.LabelFromName("label-7"); l != gdi.LabelNull {
			return fmt.Errorf("label-7 still there after its rename")
		}
		if q, err := rdb.PropertyTypeFromName("p"); err != nil || q == gdi.PropertyTypeNull || q.ID() != pt.ID() {
			return fmt.Errorf("property type p: %v, %v", q, err)
		}
		return nil
	})
}
