package csvimport_test

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gdi-go/gdi/csvimport"
	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// unzip extracts the archive at path into a new directory.
func unzip(t *testing.T, path string) string {
	t.Helper()
	r, err := zip.OpenReader(path)
	if err != nil {
		t.Skipf("LDBC SNB test data: %v", err)
	}
	defer r.Close()
	dir := t.TempDir()
	for _, f := range r.File {
		dst := filepath.Join(dir, filepath.FromSlash(f.Name))
		if f.FileInfo().IsDir() {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		src, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(src)
		src.Close()
		if err == nil {
			err = os.WriteFile(dst, b, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestImportLDBC imports LDBC SNB's toy data set (composite-projected-fk,
// '|' separated, :LABEL columns, string arrays, datetimes) on 2 ranks and
// checks what the files say of person 1 and of place 1.
func TestImportLDBC(t *testing.T) {
	dir := unzip(t, filepath.Join("..", "..", "shared", "testdata", "ldbc-snb", "toy-csv-composite-projected-fk.zip"))
	err := local.Run(2, func(c rma.Comm) error {
		db, err := gdirma.Driver{}.CreateDatabase(c, gdirma.Params{MemoryPerRank: 4 << 20})
		if err != nil {
			return err
		}
		defer db.Free()
		st, err := csvimport.Import(c, db, dir, csvimport.Options{})
		if err != nil {
			return err
		}
		if st.Files != 31 || st.Vertices == 0 || st.Edges == 0 {
			return fmt.Errorf("imported %+v", st)
		}
		if c.Rank() != 1 {
			return nil
		}
		return inTx(db, func(tx gdi.Transaction) error {
			person, err := vertexByID(db, tx, "Person", "1")
			if err != nil {
				return err
			}
			got, err := describe(db, person)
			if err != nil {
				return err
			}
			want := " GDI_PROPERTY_TYPE_ID=[[]byte(\"1\")] Person birthday=[1990-01-01] browserUsed=[Lynx] creationDate=[2010-06-10T11:05:56.000+00:00] email=[amelie@mail.com amelie@messagerie.fr] firstName=[Amelie] gender=[female] lastName=[last_name] locationIP=[127.0.0.1] speaks=[en fr]"
			if got != want {
				return fmt.Errorf("person 1:\n got %s\nwant %s", got, want)
			}
			knows, err := labelled(db, tx, person, "knows")
			if err != nil || knows != 3 {
				return errors.Join(err, fmt.Errorf("person 1 knows %d persons, want 3", knows))
			}
			place, err := vertexByID(db, tx, "Place", "1")
			if err != nil {
				return err
			}
			ls, err := place.Labels()
			if err != nil || len(ls) != 2 {
				return errors.Join(err, fmt.Errorf("place 1 has labels %v, want Place and Continent", ls))
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
}

func vertexByID(db gdi.Database, tx gdi.Transaction, label, id string) (gdi.VertexHolder, error) {
	l, err := db.LabelFromName(label)
	if err != nil {
		return nil, err
	}
	uid, ok, err := tx.TranslateVertexID(l, []byte(id))
	if err != nil || !ok {
		return nil, errors.Join(err, fmt.Errorf("no %s %s", label, id))
	}
	return tx.AssociateVertex(uid)
}

// labelled counts the edges of v with the label named name.
func labelled(db gdi.Database, tx gdi.Transaction, v gdi.VertexHolder, name string) (int, error) {
	l, err := db.LabelFromName(name)
	if err != nil {
		return 0, err
	}
	uids, err := v.Edges(gdi.EdgeOutgoing, nil)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, uid := range uids {
		e, err := tx.AssociateEdge(uid)
		if err != nil {
			return 0, err
		}
		ls, err := e.Labels()
		if err != nil {
			return 0, err
		}
		if slices.Contains(ls, l) {
			n++
		}
	}
	return n, nil
}
