package gdiutil_test

import (
	"context"
	"errors"
	"testing"

	"github.com/gdi-go/gdi/conformance/refdb"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdiutil"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// onDB runs fn with a reference database on one rank.
func onDB(t *testing.T, fn func(db gdi.Database) error) {
	t.Helper()
	err := local.Run(1, func(c rma.Comm) error {
		db, err := refdb.Driver{}.CreateDatabase(c, nil)
		if err != nil {
			return err
		}
		defer db.Free()
		return fn(db)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestRunTransaction: a transaction-critical error is tried again until
// fn succeeds; another error returns at once; a done context stops before
// fn runs; and the attempts are bounded.
func TestRunTransaction(t *testing.T) {
	critical := gdi.Errorf(gdi.ErrTransactionCritical, "in the way")
	onDB(t, func(db gdi.Database) error {
		calls := 0
		err := gdiutil.RunTransaction(context.Background(), db, func(gdi.Transaction) error {
			if calls++; calls < 3 {
				return critical
			}
			return nil
		})
		if err != nil || calls != 3 {
			t.Errorf("two conflicts, then success: %v after %d calls, want nil after 3", err, calls)
		}
		calls = 0
		other := gdi.Errorf(gdi.ErrArgument, "bad")
		if err := gdiutil.RunTransaction(context.Background(), db, func(gdi.Transaction) error { calls++; return other }); !errors.Is(err, other) || calls != 1 {
			t.Errorf("another error: %v after %d calls, want it after 1", err, calls)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		calls = 0
		if err := gdiutil.RunTransaction(ctx, db, func(gdi.Transaction) error { calls++; return nil }); !errors.Is(err, context.Canceled) || calls != 0 {
			t.Errorf("a done context: %v after %d calls, want context.Canceled before any", err, calls)
		}
		calls = 0
		if err := gdiutil.RunTransaction(context.Background(), db, func(gdi.Transaction) error { calls++; return critical }); gdi.ErrorClass(err) != gdi.ErrTransactionCritical || calls != gdiutil.Attempts {
			t.Errorf("always in the way: %v after %d calls, want it after %d", err, calls, gdiutil.Attempts)
		}
		return nil
	})
}

// TestGetters: Text, Int64 and Float64 read the one value of a property,
// report a missing one, and refuse another datatype.
func TestGetters(t *testing.T) {
	onDB(t, func(db gdi.Database) error {
		name, err1 := db.CreatePropertyType(gdiutil.PropertyType("name", gdi.Char))
		age, err2 := db.CreatePropertyType(gdiutil.PropertyType("age", gdi.Uint16))
		w, err3 := db.CreatePropertyType(gdiutil.PropertyType("w", gdi.Float))
		none, err4 := db.CreatePropertyType(gdiutil.PropertyType("none", gdi.Int64))
		if err := errors.Join(err1, err2, err3, err4); err != nil {
			return err
		}
		return gdiutil.RunTransaction(context.Background(), db, func(tx gdi.Transaction) error {
			v, err := tx.CreateVertex([]byte("v"))
			if err != nil {
				return err
			}
			if err := errors.Join(v.AddProperty(name, gdi.Chars("Ada")), v.AddProperty(age, gdi.Uint16s(36)), v.AddProperty(w, gdi.Floats(0.5))); err != nil {
				return err
			}
			s, ok1, err1 := gdiutil.Text(v, name)
			n, ok2, err2 := gdiutil.Int64(v, age)
			f, ok3, err3 := gdiutil.Float64(v, w)
			_, ok4, err4 := gdiutil.Int64(v, none)
			_, _, err5 := gdiutil.Text(v, age)
			if s != "Ada" || n != 36 || f != 0.5 || !ok1 || !ok2 || !ok3 || ok4 || errors.Join(err1, err2, err3, err4) != nil {
				t.Errorf("got %q %v %v, %d %v %v, %v %v %v, missing %v %v", s, ok1, err1, n, ok2, err2, f, ok3, err3, ok4, err4)
			}
			if gdi.ErrorClass(err5) != gdi.ErrDatatype {
				t.Errorf("Text of a Uint16: %v, want ErrDatatype", err5)
			}
			return nil
		})
	})
}
