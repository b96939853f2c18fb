package gdirma_test

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/gdiutil"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// Two ranks share one graph: rank 0 creates a vertex in its own blocks,
// and rank 1 finds it by its ID and reads it, with one-sided calls only.
// The catalog (labels, property types) is made collectively, by both.
func Example() {
	err := local.Run(2, func(comm rma.Comm) error {
		db, err := gdirma.Driver{}.CreateDatabase(comm, gdirma.Params{BlockSize: 256})
		if err != nil {
			return err
		}
		defer db.Free()
		person, err1 := db.CreateLabel("Person")
		name, err2 := db.CreatePropertyType(gdiutil.PropertyType("name", gdi.Char))
		if err := errors.Join(err1, err2); err != nil {
			return err
		}
		ctx := context.Background()
		if comm.Rank() == 0 {
			err = gdiutil.RunTransaction(ctx, db, func(tx gdi.Transaction) error {
				ada, err := tx.CreateVertex([]byte("ada"))
				if err != nil {
					return err
				}
				return errors.Join(ada.AddLabel(person), ada.AddProperty(name, gdi.Chars("Ada Lovelace")))
			})
		}
		if err := errors.Join(err, comm.Barrier()); err != nil || comm.Rank() == 0 {
			return err
		}
		return gdiutil.RunTransaction(ctx, db, func(tx gdi.Transaction) error {
			uid, found, err := tx.TranslateVertexID(person, []byte("ada"))
			if err != nil || !found {
				return fmt.Errorf("ada: found %v, %v", found, err)
			}
			ada, err := tx.AssociateVertex(uid)
			if err != nil {
				return err
			}
			s, _, err := gdiutil.Text(ada, name)
			fmt.Println("rank 1 reads", s)
			return err
		})
	})
	fmt.Println(err)
	// Output:
	// rank 1 reads Ada Lovelace
	// <nil>
}

// A checkpoint is written by every rank, collectively, and a database is
// created from it on as many ranks.
func ExampleDatabase_Checkpoint() {
	dir, err := os.MkdirTemp("", "gdirma-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	err = local.Run(2, func(comm rma.Comm) error {
		db, err := gdirma.Driver{}.CreateDatabase(comm, nil)
		if err != nil {
			return err
		}
		if comm.Rank() == 1 {
			err = gdiutil.RunTransaction(context.Background(), db, func(tx gdi.Transaction) error {
				_, err := tx.CreateVertex([]byte("kept"))
				return err
			})
		}
		// Checkpointer is an optional capability; Checkpoint is collective.
		if err := errors.Join(err, comm.Barrier(), db.(gdi.Checkpointer).Checkpoint(dir), db.Free()); err != nil {
			return err
		}
		again, err := gdirma.Driver{}.CreateDatabase(comm, gdirma.Params{Restore: dir})
		if err != nil {
			return err
		}
		defer again.Free()
		return gdiutil.RunTransaction(context.Background(), again, func(tx gdi.Transaction) error {
			_, found, err := tx.TranslateVertexID(gdi.LabelNone, []byte("kept"))
			if comm.Rank() == 0 {
				fmt.Println("restored, found:", found)
			}
			return err
		})
	})
	fmt.Println(err)
	// Output:
	// restored, found: true
	// <nil>
}
