package gdirma_test

import (
	"fmt"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
)

// TestCommitSeesChangedReads: a write transaction whose reads another
// commit changed meanwhile fails to commit, in each way validation learns
// it: a holder it only read (the lock word it was read under moved), and
// a holder it writes (locked from that lock word: the lock is refused).
// Interleaved by hand, so that every run meets each case, where the
// concurrent tests (TestWriteSkew) meet them by chance.
func TestCommitSeesChangedReads(t *testing.T) {
	run(t, 2, gdirma.Params{BlockSize: 64, MemoryPerRank: 1 << 20}, func(c rma.Comm, db gdi.Database) error {
		pt, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "n", Entity: gdi.SingleEntity, Datatype: gdi.Int64, Size: gdi.FixedSize, Count: 1})
		if err != nil || c.Rank() != 0 {
			return err
		}
		var a, b gdi.VertexUID
		err = retry(db, func(tx gdi.Transaction) error {
			for _, u := range []*gdi.VertexUID{&a, &b} {
				v, err := tx.CreateVertex(nil)
				if err == nil {
					err = v.AddProperty(pt, gdi.Int64s(1))
				}
				if err == nil {
					*u, err = v.UID()
				}
				if err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		set := func(tx gdi.Transaction, u gdi.VertexUID, x int64) error {
			v, err := tx.AssociateVertex(u)
			if err == nil {
				err = v.UpdateProperty(pt, gdi.Int64s(x))
			}
			return err
		}
		read := func(tx gdi.Transaction, u gdi.VertexUID) error {
			v, err := tx.AssociateVertex(u)
			if err == nil {
				_, err = v.Properties(pt)
			}
			return err
		}
		changes := int64(0) // the other commit sets a new value each time
		for _, tc := range []struct {
			rule   string
			before func(tx gdi.Transaction) error // reads, before the other commit
			after  func(tx gdi.Transaction) error // after it
		}{
			{"a holder only read, then changed, fails the commit",
				func(tx gdi.Transaction) error { return read(tx, a) },
				func(tx gdi.Transaction) error { return set(tx, b, 5) }},
			{"a holder read, then changed, then written, fails the commit",
				func(tx gdi.Transaction) error { return read(tx, a) },
				func(tx gdi.Transaction) error { return set(tx, a, 5) }},
		} {
			changes++
			tx, err := db.StartTransaction()
			if err != nil {
				return err
			}
			if err := tc.before(tx); err != nil {
				tx.Abort()
				return err
			}
			if err := retry(db, func(other gdi.Transaction) error { return set(other, a, 100+changes) }); err != nil {
				tx.Abort()
				return err
			}
			if err := tc.after(tx); err != nil {
				tx.Abort()
				if gdi.ErrorClass(err) == gdi.ErrTransactionCritical {
					continue // found out even before the commit
				}
				return err
			}
			if err := tx.Commit(); gdi.ErrorClass(err) != gdi.ErrTransactionCommitFail {
				return fmt.Errorf("%s: Commit = %v, want a commit failure", tc.rule, err)
			}
		}
		return nil
	})
}
