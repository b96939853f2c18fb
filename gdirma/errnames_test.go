package gdirma_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// wantMessage checks that err has class c and that its message holds
// each of want and none of the C names of the specification (GDI_).
func wantMessage(err error, c gdi.Code, want ...string) error {
	if gdi.ErrorClass(err) != c {
		return fmt.Errorf("got %v, want %v", err, c)
	}
	msg := err.Error()
	for _, w := range want {
		if !strings.Contains(msg, w) {
			return fmt.Errorf("%q does not say %s", msg, w)
		}
	}
	if strings.Contains(msg, "GDI_") {
		return fmt.Errorf("%q gives a C name", msg)
	}
	return nil
}

// oneRank runs fn on a database of one rank with the label "Person".
func oneRank(t *testing.T, fn func(db gdi.Database, person gdi.Label) error) {
	t.Helper()
	err := local.Run(1, func(c rma.Comm) error {
		db, err := gdirma.Driver{}.CreateDatabase(c, gdirma.Params{MemoryPerRank: 4 << 20})
		if err != nil {
			return err
		}
		defer db.Free()
		person, err := db.CreateLabel("Person")
		if err != nil {
			return err
		}
		return fn(db, person)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// createPerson creates a vertex with the ID id and the label person in
// tx.
func createPerson(tx gdi.Transaction, id string, person gdi.Label) error {
	v, err := tx.CreateVertex([]byte(id))
	if err != nil {
		return err
	}
	return v.AddLabel(person)
}

// TestNonUniqueIDNamesLabel: the ErrNonUniqueID of a labelled vertex
// names the label, when the transaction finds the clash (AddLabel) and
// when the implicit index does (the commit of a concurrent transaction,
// and BulkLoad).
func TestNonUniqueIDNamesLabel(t *testing.T) {
	oneRank(t, func(db gdi.Database, person gdi.Label) error {
		var txs [2]gdi.Transaction
		for i := range txs {
			tx, err := db.StartTransaction()
			if err != nil {
				return err
			}
			if err := createPerson(tx, "42", person); err != nil {
				return err
			}
			txs[i] = tx
		}
		if err := txs[0].Commit(); err != nil {
			return err
		}
		if err := wantMessage(txs[1].Commit(), gdi.ErrTransactionCommitFail, `label "Person"`, `ID "42"`); err != nil {
			return fmt.Errorf("Commit: %w", err)
		}
		tx, err := db.StartTransaction()
		if err != nil {
			return err
		}
		err = wantMessage(createPerson(tx, "42", person), gdi.ErrNonUniqueID, `label "Person"`, `ID "42"`)
		if err = errors.Join(err, tx.Abort()); err != nil {
			return fmt.Errorf("AddLabel: %w", err)
		}
		src := gdi.BulkSource{Vertices: 2, Direction: gdi.Directed,
			Vertex: func(x uint64, v *gdi.BulkVertex) error {
				v.ID, v.Labels = []byte("7"), append(v.Labels, person)
				return nil
			},
			Edges: func(int, int, func(uint64, uint64, int) error) error { return nil }}
		if err := wantMessage(db.(gdi.BulkLoader).BulkLoad(src), gdi.ErrNonUniqueID, `label "Person"`, `ID "7"`); err != nil {
			return fmt.Errorf("BulkLoad: %w", err)
		}
		return nil
	})
}

// TestDatatypeErrorNamesTypes: a value of the wrong datatype for a
// property type is an error that names the property type and both
// datatypes as the Go binding calls them; so do the errors of a missing
// or present property.
func TestDatatypeErrorNamesTypes(t *testing.T) {
	oneRank(t, func(db gdi.Database, _ gdi.Label) error {
		age, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "age", Entity: gdi.SingleEntity, Datatype: gdi.Int64, Size: gdi.NoSizeLimit})
		if err != nil {
			return err
		}
		tx, err := db.StartTransaction()
		if err != nil {
			return err
		}
		defer tx.Abort()
		v, err := tx.CreateVertex(nil)
		if err != nil {
			return err
		}
		text := gdi.Chars("forty")
		for _, c := range []struct {
			call string
			err  error
			code gdi.Code
			want []string
		}{
			{"AddProperty", v.AddProperty(age, text), gdi.ErrDatatype, []string{`"age"`, "Int64", "Char"}},
			{"RemoveProperty", v.RemoveProperty(age, text), gdi.ErrDatatype, []string{`"age"`, "Int64", "Char"}},
			{"UpdateSpecificProperty", v.UpdateSpecificProperty(age, text, gdi.Int64s(40)), gdi.ErrDatatype, []string{`"age"`, "Int64", "Char"}},
			{"UpdateProperty", v.UpdateProperty(age, gdi.Int64s(40)), gdi.ErrNoProperty, []string{`"age"`}},
			{"UpdateSpecificProperty of none", v.UpdateSpecificProperty(age, gdi.Int64s(39), gdi.Int64s(40)), gdi.ErrNoProperty, []string{`"age"`, "39"}},
		} {
			if err := wantMessage(c.err, c.code, c.want...); err != nil {
				return fmt.Errorf("%s: %w", c.call, err)
			}
		}
		if err := v.SetProperty(age, gdi.Int64s(40)); err != nil {
			return err
		}
		err = wantMessage(v.UpdateSpecificProperty(age, gdi.Int64s(40), gdi.Int64s(40)), gdi.ErrPropertyExists, `"age"`, "40")
		if err != nil {
			return fmt.Errorf("UpdateSpecificProperty to itself: %w", err)
		}
		return nil
	})
}
