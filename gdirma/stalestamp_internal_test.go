package gdirma

import (
	"fmt"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/txn"
)

// TestStaleStamp: a transaction that takes a holder's lock and lets it go
// without writing (as a commit that fails validation does) moves the lock
// word but not the checked block, whose stamp goes stale. A copy read
// from it then fails the comparison of lock words; the versions decide,
// so a write commits, and a read-only transaction of two holders
// validates, at the first try.
func TestStaleStamp(t *testing.T) {
	err := withLocalDB(Params{BlockSize: 512, MemoryPerRank: 1 << 20}, func(db *Database) error {
		pt, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "n", Entity: gdi.SingleEntity, Datatype: gdi.Int64, Size: gdi.FixedSize, Count: 1})
		if err != nil {
			return err
		}
		var uids [2]gdi.VertexUID
		if err := commitOnce(db, func(tx gdi.Transaction) error {
			for i := range uids {
				v, err := tx.CreateVertex(nil)
				if err == nil {
					err = v.AddProperty(pt, gdi.Int64s(1))
				}
				if err == nil {
					uids[i], err = v.UID()
				}
				if err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			return err
		}
		// Take and give back the lock of the first vertex, writing nothing.
		n, err := db.st.number(uint64(uids[0]), vertexKind)
		if err != nil {
			return err
		}
		ls := txn.NewLockSet(db.st.Locks())
		if err := ls.Lock(uint64(n), db.st.LockAddr(n.Holder()), txn.Write); err != nil {
			return err
		}
		if err := ls.ReleaseAll(); err != nil {
			return err
		}
		readBoth := func(tx gdi.Transaction) error {
			for _, u := range uids {
				v, err := tx.AssociateVertex(u)
				if err == nil {
					_, err = v.Properties(pt)
				}
				if err != nil {
					return err
				}
			}
			return nil
		}
		if err := commitOnce(db, readBoth); err != nil {
			return fmt.Errorf("a read of two holders, one stamped stale: %w", err)
		}
		return commitOnce(db, func(tx gdi.Transaction) error {
			v, err := tx.AssociateVertex(uids[0])
			if err == nil {
				err = v.UpdateProperty(pt, gdi.Int64s(2))
			}
			if err != nil {
				return fmt.Errorf("a write of a holder stamped stale: %w", err)
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
}

// commitOnce runs fn in a transaction and commits it, once.
func commitOnce(db *Database, fn func(tx gdi.Transaction) error) error {
	tx, err := db.StartTransaction()
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Abort()
		return err
	}
	return tx.Commit()
}
