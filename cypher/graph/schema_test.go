package graph

import (
	"errors"
	"testing"

	"github.com/gdi-go/gdi/cypher/internal/backendtest"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
)

// onEvery runs fn on every rank of a fresh database of every backend.
func onEvery(t *testing.T, fn func(t *testing.T, c rma.Comm, db gdi.Database) error) {
	for _, b := range backendtest.All {
		t.Run(b.String(), func(t *testing.T) {
			err := b.Run(func(c rma.Comm, db gdi.Database) error { return fn(t, c, db) })
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestEnsure: Ensure makes the labels and one property type per kind of
// each key, with the kind's datatype, the same on every rank, and makes
// nothing the second time.
func TestEnsure(t *testing.T) {
	onEvery(t, func(t *testing.T, c rma.Comm, db gdi.Database) error {
		s := NewSchema(db)
		if err := s.Ensure([]string{"Person", "KNOWS"}, []string{"name", "age"}); err != nil {
			return err
		}
		before, err := db.PropertyTypes()
		if err != nil {
			return err
		}
		if len(before) != 2*int(numKinds) {
			t.Errorf("rank %d: %d property types after Ensure of two keys, want %d", c.Rank(), len(before), 2*numKinds)
		}
		f, err := NewSchema(db).Family("age") // as the catalog has it
		if err != nil {
			return err
		}
		for _, k := range Kinds {
			info, err := db.PropertyTypeInfo(f.Write[k])
			if err != nil || info.Name != "age#"+k.String() || info.Datatype != k.Datatype() || info.Entity != gdi.SingleEntity {
				t.Errorf("rank %d: the %v member of age is %+v, %v", c.Rank(), k, info, err)
			}
		}
		if l, err := s.Label("KNOWS"); err != nil || l == gdi.LabelNull {
			t.Errorf("rank %d: label KNOWS is %v, %v after Ensure", c.Rank(), l, err)
		}
		if err := s.Ensure([]string{"KNOWS"}, []string{"age", "name"}); err != nil {
			return err
		}
		after, err := db.PropertyTypes()
		if len(after) != len(before) {
			t.Errorf("rank %d: a second Ensure made %d property types", c.Rank(), len(after)-len(before))
		}
		return err
	})
}

// TestPlainMember: a property type named plainly after the key, made by
// another program, is read as the kinds its datatype holds, and written
// to where its datatype is the kind's own.
func TestPlainMember(t *testing.T) {
	onEvery(t, func(t *testing.T, c rma.Comm, db gdi.Database) error {
		_, err1 := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "age", Entity: gdi.SingleEntity, Datatype: gdi.Int32, Size: gdi.NoSizeLimit})
		name, err2 := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "name", Entity: gdi.SingleEntity, Datatype: gdi.Char, Size: gdi.NoSizeLimit})
		_, err3 := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "tags", Entity: gdi.MultipleEntity, Datatype: gdi.Char, Size: gdi.NoSizeLimit})
		s := NewSchema(db)
		if err := errors.Join(err1, err2, err3, s.Ensure(nil, []string{"age", "name", "tags"})); err != nil {
			return err
		}
		age, err := s.Family("age")
		if err != nil {
			return err
		}
		if age.Members[0].Kind != Integer || age.Members[0].Datatype != gdi.Int32 || len(age.Members) != 1+int(numKinds) {
			t.Errorf("age's members %+v: want the Int32 one read as Integer, then one per kind", age.Members)
		}
		if info, _ := db.PropertyTypeInfo(age.Write[Integer]); info.Name != "age#Integer" {
			t.Errorf("integers of age are written to %q, want age#Integer (Int32 cannot hold every Int64)", info.Name)
		}
		f, err := s.Family("name")
		if err != nil || f.Write[String] != name {
			t.Errorf("strings of name are written to %v (%v), want the plain name", f.Write[String], err)
		}
		tags, err := s.Family("tags")
		if err != nil || len(tags.Members) != int(numKinds) {
			t.Errorf("tags (multiple entity) has members %+v, %v: want the engine's five only", tags.Members, err)
		}
		return nil
	})
}

// TestBadKeys: keys the mapping cannot name are refused on every rank
// before anything is made.
func TestBadKeys(t *testing.T) {
	long := string(make([]byte, MaxKey+1))
	for i := range []byte(long) {
		long = long[:i] + "k" + long[i+1:]
	}
	onEvery(t, func(t *testing.T, c rma.Comm, db gdi.Database) error {
		for _, key := range []string{"a#b", long, ""} {
			err := NewSchema(db).Ensure([]string{"L"}, []string{"ok", key})
			if gdi.ErrorClass(err) != gdi.ErrArgument && gdi.ErrorClass(err) != gdi.ErrEmptyName {
				t.Errorf("rank %d: Ensure of key %.12q: %v, want ErrArgument or ErrEmptyName", c.Rank(), key, err)
			}
		}
		pts, err1 := db.PropertyTypes()
		ls, err2 := db.Labels()
		if len(pts) != 0 || len(ls) != 0 {
			t.Errorf("rank %d: refused keys left %d property types and %d labels", c.Rank(), len(pts), len(ls))
		}
		return errors.Join(err1, err2)
	})
}
