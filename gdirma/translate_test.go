package gdirma_test

import (
	"fmt"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
)

// TestTranslateKeepsItsOwnID: TranslateVertexID reads the caller's ID in
// place, so it must copy it to check the lookup at commit. A transaction
// that found no vertex with ID x, and whose caller then reuses the buffer
// for another ID, must still fail to commit once another transaction has
// created x.
func TestTranslateKeepsItsOwnID(t *testing.T) {
	run(t, 1, gdirma.Params{BlockSize: 256, MemoryPerRank: 1 << 20}, func(c rma.Comm, db gdi.Database) error {
		l, err := db.CreateLabel("L")
		if err != nil {
			return err
		}
		buf := []byte("x")
		a, err := db.StartTransaction()
		if err != nil {
			return err
		}
		if _, found, err := a.TranslateVertexID(l, buf); err != nil || found {
			return fmt.Errorf("x before it exists: found %v, %v", found, err)
		}
		buf[0] = 'y' // the caller's buffer, reused
		err = retry(db, func(b gdi.Transaction) error {
			x, err := b.CreateVertex([]byte("x"))
			if err != nil {
				return err
			}
			return x.AddLabel(l)
		})
		if err != nil {
			return err
		}
		if err := a.Commit(); gdi.ErrorClass(err) != gdi.ErrTransactionCommitFail {
			return fmt.Errorf("commit after x was created meanwhile: %v, want a commit failure", err)
		}
		return nil
	})
}
