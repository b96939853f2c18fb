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

// TestTranslateWrongGuess: a guess of the DHT that names another vertex
// (as a slot torn by a concurrent delete could) is checked against the
// vertex it names and costs a whole lookup, never a wrong answer. Every
// guess is made wrong here: pointing at another vertex, at a block that
// holds no vertex, and at no block at all.
func TestTranslateWrongGuess(t *testing.T) {
	run(t, 2, gdirma.Params{BlockSize: 256, MemoryPerRank: 1 << 20}, func(c rma.Comm, db gdi.Database) error {
		l, err := db.CreateLabel("L")
		if err != nil {
			return err
		}
		if c.Rank() != 0 {
			// The hooks are the process's: one rank does it all, on
			// vertices and DHT entries of both ranks.
			return nil
		}
		uids := map[string]gdi.VertexUID{}
		for i := range 20 {
			id := fmt.Sprintf("v%d", i)
			err := retry(db, func(tx gdi.Transaction) error {
				v, err := tx.CreateVertex([]byte(id))
				if err == nil {
					err = v.AddLabel(l)
				}
				if err == nil {
					uids[id], err = v.UID()
				}
				return err
			})
			if err != nil {
				return err
			}
		}
		// The values the DHT holds, as the guesses find them.
		var nums []uint64
		restore := gdirma.SetGuessHook(func(v uint64) uint64 { nums = append(nums, v); return v })
		err = retry(db, func(tx gdi.Transaction) error {
			for id := range uids {
				if _, _, err := tx.TranslateVertexID(l, []byte(id)); err != nil {
					return err
				}
			}
			return nil
		})
		restore()
		if err != nil {
			return err
		}
		if len(nums) < len(uids)/2 {
			return fmt.Errorf("%d guesses for %d vertices: the test wants most keys in their home entries", len(nums), len(uids))
		}
		another := func(v uint64) uint64 {
			for _, n := range nums {
				if n != v {
					return n
				}
			}
			return v
		}
		for _, wrong := range []func(uint64) uint64{
			another,
			func(v uint64) uint64 { return v + 8 },
			func(uint64) uint64 { return 1<<62 | 7 },
		} {
			restore := gdirma.SetGuessHook(wrong)
			err := retry(db, func(tx gdi.Transaction) error {
				for id, want := range uids {
					got, found, err := tx.TranslateVertexID(l, []byte(id))
					if err != nil || !found || got != want {
						return fmt.Errorf("TranslateVertexID(%q) under a wrong guess = %v, %v, %v; want %v", id, got, found, err, want)
					}
				}
				return nil
			})
			restore()
			if err != nil {
				return err
			}
		}
		return nil
	})
}
