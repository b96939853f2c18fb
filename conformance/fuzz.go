package conformance

import (
	"errors"
	"fmt"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/rma"
)

// Fuzz harnesses for the input paths of a backend. A backend's test file
// calls them from its own Fuzz functions, for example
//
//	func FuzzVertexCSV(f *testing.F) { conformance.FuzzVertexCSV(f, backend) }
//
// Each input runs on one rank of a fresh database. Nothing may panic, every
// error must carry a GDI code, and the database must stay consistent.

// fuzzHang is how long one input may run before the harness calls it a
// hang: far more than any input needs, even under the race detector.
const fuzzHang = 60 * time.Second

// onOneRank runs fn on one rank of a new database of b. An input that takes
// longer than fuzzHang fails as a hang (its goroutines are left behind).
func onOneRank(b Backend, fn func(db gdi.Database, c rma.Comm) error) error {
	done := make(chan error, 1)
	go func() { done <- onOneRankNow(b, fn) }()
	select {
	case err := <-done:
		return err
	case <-time.After(fuzzHang):
		return fmt.Errorf("%s: the input hangs: no result after %v", b.Name, fuzzHang)
	}
}

func onOneRankNow(b Backend, fn func(db gdi.Database, c rma.Comm) error) error {
	return b.Launch(1, func(c rma.Comm) error {
		var params any
		if b.Params != nil {
			params = b.Params()
		}
		db, err := b.Driver.CreateDatabase(c, params)
		if err != nil {
			return err
		}
		return errors.Join(fn(db, c), db.Free())
	})
}

func mustCode(what string, err error) error {
	if err != nil && gdi.ErrorClass(err) == gdi.ErrErrorCode {
		return fmt.Errorf("%s: error without a GDI code: %v", what, err)
	}
	return nil
}

// countLabelled counts the vertices with label l through a fresh index.
func countLabelled(db gdi.Database, l gdi.Label) (int, error) {
	idx, err := db.CreateIndex(gdi.HashTableIndex, 0)
	if err != nil {
		return 0, err
	}
	defer idx.Free()
	if err := idx.AddLabel(l); err != nil {
		return 0, err
	}
	tx, err := db.StartTransaction()
	if err != nil {
		return 0, err
	}
	uids, err := tx.VerticesOfIndex(idx, nil)
	return len(uids), errors.Join(err, tx.Commit())
}

// FuzzVertexCSV loads arbitrary files with LoadVertexCSV: text IDs, '|'
// between fields, ';' between elements, a header, and three property types
// (Int64 up to 3 elements, Char up to 8, Date). A file refused as malformed
// (ErrFileFormat) must load nothing; otherwise at most one vertex per line
// after the header is created. Then it loads the same file with
// LoadVertexPropertiesCSV (see fuzzVertexPropertiesCSV).
func FuzzVertexCSV(f *testing.F, b Backend) {
	f.Add("id|n|s|d\n1|1;2|ab|2020-01-02\n2|||\n")
	f.Add("id|n|s|d\n1|1;2;3;4|toolongstring|2020-02-30\n")
	f.Add("id|n|s|d\r\n\\|x|-9223372036854775808|a\\;b\\|c|1999-12-31\r\n")
	f.Add("id|n|s|d\n1|2|3\n")
	f.Add("id|n|s|d\n1|x|y|z|w\n\x00\xff|1||\n")
	f.Add("id|n|s|d\n\\")
	f.Add("id|m\n1|1;2\n2|3\n2|3\né|1;2;3\nnobody|1\n")
	f.Add("id|m\n1|x\n")
	f.Fuzz(func(t *testing.T, file string) {
		err := onOneRank(b, func(db gdi.Database, c rma.Comm) error {
			loader, ok := db.(gdi.CSVLoader)
			if !ok {
				return nil
			}
			l, err := db.CreateLabel("V")
			if err != nil {
				return err
			}
			var pts []gdi.PropertyType
			for _, info := range []gdi.PropertyTypeInfo{
				{Name: "n", Entity: gdi.SingleEntity, Datatype: gdi.Int64, Size: gdi.MaxSize, Count: 3},
				{Name: "s", Entity: gdi.SingleEntity, Datatype: gdi.Char, Size: gdi.MaxSize, Count: 8},
				{Name: "d", Entity: gdi.SingleEntity, Datatype: gdi.DateType, Size: gdi.FixedSize, Count: 1},
			} {
				p, err := db.CreatePropertyType(info)
				if err != nil {
					return err
				}
				pts = append(pts, p)
			}
			if err := c.Barrier(); err != nil {
				return err
			}
			loadErr := loader.LoadVertexCSV(gdi.VertexCSV{
				CSVFile: gdi.CSVFile{FS: fstest.MapFS{"v.csv": {Data: []byte(file)}}, Path: "v.csv", Header: true,
					FieldDelimiter: '|', ElementDelimiter: ';', Sort: gdi.NoSorting, TextIDs: true},
				PropertyTypes: pts, Labels: []gdi.Label{l},
			})
			if err := mustCode("LoadVertexCSV", loadErr); err != nil {
				return err
			}
			n, err := countLabelled(db, l)
			if err != nil {
				return fmt.Errorf("the database after a load: %w", err)
			}
			switch lines := countLines(file) - 1; {
			case errors.Is(loadErr, gdi.ErrFileFormat) && n != 0:
				return fmt.Errorf("a malformed file (%v) loaded %d vertices", loadErr, n)
			case n > max(lines, 0):
				return fmt.Errorf("%d vertices from %d lines", n, lines)
			}
			return fuzzVertexPropertiesCSV(db, c, loader, l, file, n)
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

// fuzzVertexPropertiesCSV loads file again, with LoadVertexPropertiesCSV
// (ID and one value of a multiple-entity Int64 type of at most two
// elements per line), into a database with n vertices of label l. The call
// never creates vertices; a file refused as malformed adds no value;
// otherwise at most one value per line is added.
func fuzzVertexPropertiesCSV(db gdi.Database, c rma.Comm, loader gdi.CSVLoader, l gdi.Label, file string, n int) error {
	// Vertices under IDs a file may name, unless the vertex load made them
	// (rank 0 makes them; the others count them after).
	if err := inTx(db, func(tx gdi.Transaction) error {
		if c.Rank() != 0 {
			return nil
		}
		for _, id := range []string{"1", "2", "\\", "\x00", "é"} {
			_, found, err := tx.TranslateVertexID(l, []byte(id))
			if err != nil || found {
				continue
			}
			v, err := tx.CreateVertex([]byte(id))
			if err != nil {
				return err
			}
			if err := v.AddLabel(l); err != nil {
				return err
			}
			n++
		}
		return nil
	}); err != nil {
		return fmt.Errorf("adding vertices: %w", err)
	}
	if err := c.Barrier(); err != nil {
		return err
	}
	if c.Size() > 1 {
		var err error
		if n, err = countLabelled(db, l); err != nil {
			return err
		}
	}
	m, err := db.CreatePropertyType(gdi.PropertyTypeInfo{Name: "m", Entity: gdi.MultipleEntity, Datatype: gdi.Int64, Size: gdi.MaxSize, Count: 2})
	if err != nil {
		return err
	}
	loadErr := loader.LoadVertexPropertiesCSV(gdi.VertexPropertiesCSV{
		CSVFile: gdi.CSVFile{FS: fstest.MapFS{"v.csv": {Data: []byte(file)}}, Path: "v.csv", Header: true,
			FieldDelimiter: '|', ElementDelimiter: ';', Sort: gdi.NoSorting, TextIDs: true},
		PropertyType: m, Label: l,
	})
	if err := mustCode("LoadVertexPropertiesCSV", loadErr); err != nil {
		return err
	}
	switch gdi.ErrorClass(loadErr) {
	case gdi.Success, gdi.WarnNotAllDataLoaded, gdi.ErrFileFormat:
	default:
		return fmt.Errorf("LoadVertexPropertiesCSV: %v", loadErr)
	}
	idx, err := db.CreateIndex(gdi.HashTableIndex, 0)
	if err != nil {
		return err
	}
	defer idx.Free()
	if err := idx.AddLabel(l); err != nil {
		return err
	}
	values := 0
	if err := inTx(db, func(tx gdi.Transaction) error {
		uids, err := tx.VerticesOfIndex(idx, nil)
		if err != nil {
			return err
		}
		if len(uids) != n {
			return fmt.Errorf("LoadVertexPropertiesCSV (%v) changed the number of vertices from %d to %d", loadErr, n, len(uids))
		}
		for _, u := range uids {
			v, err := tx.AssociateVertex(u)
			if err != nil {
				return err
			}
			vals, err := v.Properties(m)
			if err != nil {
				return err
			}
			for _, x := range vals {
				if x.Datatype() != gdi.Int64 || x.Len() == 0 || x.Len() > 2 {
					return fmt.Errorf("LoadVertexPropertiesCSV stored %v, outside the type's limits", x)
				}
			}
			values += len(vals)
		}
		return nil
	}); err != nil {
		return err
	}
	switch lines := countLines(file) - 1; {
	case errors.Is(loadErr, gdi.ErrFileFormat) && values != 0:
		return fmt.Errorf("a malformed properties file (%v) added %d values", loadErr, values)
	case values > max(lines, 0):
		return fmt.Errorf("%d values from %d lines", values, lines)
	}
	return nil
}

// countLines counts lines as the loaders see them: ended by "\n", the last
// one possibly not.
func countLines(s string) int {
	n := 0
	for i := range len(s) {
		if s[i] == '\n' {
			n++
		}
	}
	if len(s) > 0 && s[len(s)-1] != '\n' {
		n++
	}
	return n
}

// FuzzTranslateVertexID stores two vertices under arbitrary application IDs,
// one with label A and one with label B, and translates the IDs back after
// the commit: an ID is found exactly under the labels of the vertices that
// carry it, and the vertex found carries it. Once the first vertex is freed,
// its ID is no longer found under A.
func FuzzTranslateVertexID(f *testing.F, b Backend) {
	f.Add([]byte("alice"), []byte("bob"))
	f.Add([]byte("same"), []byte("same"))
	f.Add([]byte{0}, []byte{0, 0})
	f.Add([]byte("\xff\x00|;\n"), make([]byte, 200))
	f.Fuzz(func(t *testing.T, idA, idB []byte) {
		if len(idA) == 0 || len(idB) == 0 {
			return // an empty ID means no ID
		}
		err := onOneRank(b, func(db gdi.Database, c rma.Comm) error {
			la, err := db.CreateLabel("A")
			if err != nil {
				return err
			}
			lb, err := db.CreateLabel("B")
			if err != nil {
				return err
			}
			if err := c.Barrier(); err != nil {
				return err
			}
			if err := inTx(db, func(tx gdi.Transaction) error {
				for _, v := range []struct {
					id []byte
					l  gdi.Label
				}{{idA, la}, {idB, lb}} {
					h, err := tx.CreateVertex(v.id)
					if err != nil {
						return mustCodeOr("CreateVertex", err)
					}
					if err := h.AddLabel(v.l); err != nil {
						return mustCodeOr("AddLabel", err)
					}
				}
				return nil
			}); err != nil {
				return err
			}
			same := string(idA) == string(idB)
			checks := []struct {
				l    gdi.Label
				id   []byte
				want bool
			}{{la, idA, true}, {lb, idB, true}, {lb, idA, same}, {la, idB, same}}
			if err := inTx(db, func(tx gdi.Transaction) error {
				for _, ch := range checks {
					if err := translates(tx, ch.l, ch.id, ch.want); err != nil {
						return err
					}
				}
				uid, _, err := tx.TranslateVertexID(la, idA)
				if err != nil {
					return err
				}
				v, err := tx.AssociateVertex(uid)
				if err != nil {
					return err
				}
				return v.Free()
			}); err != nil {
				return err
			}
			return inTx(db, func(tx gdi.Transaction) error { return translates(tx, la, idA, false) })
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

// mustCodeOr returns err itself if it carries a GDI code, and a complaint
// otherwise.
func mustCodeOr(what string, err error) error {
	if e := mustCode(what, err); e != nil {
		return e
	}
	return fmt.Errorf("%s: %w", what, err)
}

// inTx runs fn in a transaction and commits it, or aborts on error.
func inTx(db gdi.Database, fn func(tx gdi.Transaction) error) error {
	tx, err := db.StartTransaction()
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		return errors.Join(err, tx.Abort())
	}
	return tx.Commit()
}

// translates checks that id is found under l exactly when want is true,
// and that the vertex found carries id.
func translates(tx gdi.Transaction, l gdi.Label, id []byte, want bool) error {
	uid, found, err := tx.TranslateVertexID(l, id)
	if err := mustCode("TranslateVertexID", err); err != nil {
		return err
	}
	if err != nil {
		return fmt.Errorf("TranslateVertexID(%q): %w", id, err)
	}
	if found != want {
		return fmt.Errorf("TranslateVertexID(%v, %q) found %v, want %v", l, id, found, want)
	}
	if !found {
		return nil
	}
	v, err := tx.AssociateVertex(uid)
	if err != nil {
		return err
	}
	ids, err := v.Properties(gdi.PropertyTypeID)
	if err != nil {
		return err
	}
	if len(ids) != 1 || string(ids[0].Raw()) != string(id) {
		return fmt.Errorf("TranslateVertexID(%v, %q) found a vertex with IDs %v", l, id, ids)
	}
	return nil
}
