package gdirma

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/redolog"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// logOneRank makes a database of one rank with a synced log in dir, with
// a label and vertices v1 to v3, each created by a commit of its own.
func logOneRank(t *testing.T, dir string) {
	t.Helper()
	logOneRankWith(t, Params{BlockSize: 128, MemoryPerRank: 1 << 16, Log: LogSync, LogDir: dir})
}

// logOneRankWith is logOneRank with the parameters p.
func logOneRankWith(t *testing.T, p Params) {
	t.Helper()
	err := local.Run(1, func(c rma.Comm) error {
		db, err := Driver{}.CreateDatabase(c, p)
		if err != nil {
			return err
		}
		defer db.Free()
		l, err := db.CreateLabel("L")
		if err != nil {
			return err
		}
		for i := 1; i <= 3; i++ {
			tx, err := db.StartTransaction()
			if err != nil {
				return err
			}
			v, err := tx.CreateVertex([]byte(fmt.Sprintf("v%d", i)))
			if err == nil {
				err = v.AddLabel(l)
			}
			if err == nil {
				err = tx.Commit()
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// recordOffsets lists where the records of a log file with data start
// (not the seals that end each write), and the end of the last one.
func recordOffsets(b []byte) (offs []int, end int) {
	for off := redolog.HeaderSize; off+redolog.RecordHeaderSize <= len(b); {
		next := off + redolog.RecordHeaderSize + int(binary.LittleEndian.Uint32(b[off:]))
		if b[off+redolog.RecordHeaderSize+8] != redolog.RecSeal {
			offs, end = append(offs, off), next
		}
		off = next
	}
	return offs, end
}

// present restores dir and reports which of v1 to v3 exist.
func present(t *testing.T, dir string) (string, error) {
	var got string
	err := local.Run(1, func(c rma.Comm) error {
		db, err := Driver{}.CreateDatabase(c, Params{Restore: dir, LogDir: dir})
		if err != nil {
			return err
		}
		defer db.Free()
		l, err := db.LabelFromName("L")
		if err != nil {
			return err
		}
		tx, err := db.StartTransaction()
		if err != nil {
			return err
		}
		defer tx.Abort()
		for i := 1; i <= 3; i++ {
			if _, ok, err := tx.TranslateVertexID(l, []byte(fmt.Sprintf("v%d", i))); err != nil {
				return err
			} else if ok {
				got += fmt.Sprintf("v%d ", i)
			}
		}
		return db.(*Database).CheckHolders()
	})
	return got, err
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	if err := CopyTree(from, to); err != nil {
		t.Fatal(err)
	}
}

// logPath returns the path of rank 0's log beside the checkpoint in dir.
func logPath(t *testing.T, dir string) string {
	t.Helper()
	p, err := CheckpointFile(dir, redolog.FileName(0))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRedoLogTornTail cuts the log at every byte of its last record: the
// record is ignored and the earlier ones kept. Zero bytes after the last
// record are a torn tail too.
func TestRedoLogTornTail(t *testing.T) {
	dir := t.TempDir()
	logOneRank(t, dir)
	path := logPath(t, dir)
	full, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	offs, end := recordOffsets(full)
	if len(offs) != 4 { // the label, then v1 to v3
		t.Fatalf("%d records, want 4", len(offs))
	}
	last := offs[3]
	for cut := last; cut <= len(full); cut++ {
		if err := os.WriteFile(path, full[:cut], 0o644); err != nil {
			t.Fatal(err)
		}
		lc, err := redolog.ReadLog(fsys, path, 0, 1)
		want, torn := 3, int64(last)
		switch {
		case cut == len(full), cut == end:
			want, torn = 4, -1
		case cut > end: // the seal after the last record is torn
			want, torn = 4, int64(end)
		case cut == last:
			torn = -1
		}
		if err != nil || len(lc.Records) != want || lc.Torn != torn {
			t.Fatalf("cut at %d of %d: %d records, torn tail at %d, %v; want %d, %d", cut, len(full), len(lc.Records), lc.Torn, err, want, torn)
		}
	}
	// Restores: the whole log, a cut in the middle of the last record, and
	// zero bytes after it.
	for _, c := range []struct {
		name string
		b    []byte
		want string
	}{
		{"whole", full, "v1 v2 v3 "},
		{"cut", full[:last+(end-last)/2], "v1 v2 "},
		{"cut-header", full[:last+5], "v1 v2 "},
		{"zeros", append(append([]byte(nil), full...), make([]byte, 300)...), "v1 v2 v3 "},
	} {
		d := filepath.Join(t.TempDir(), c.name)
		copyDir(t, dir, d)
		if err := os.WriteFile(logPath(t, d), c.b, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := present(t, d)
		if err != nil || got != c.want {
			t.Errorf("%s: restored %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}

// TestRedoLogCorrupt flips a byte in a record that other records follow:
// the restore fails with ErrFileFormat naming the file and the offset,
// rather than dropping the records after it.
func TestRedoLogCorrupt(t *testing.T) {
	dir := t.TempDir()
	logOneRank(t, dir)
	path := logPath(t, dir)
	full, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	offs, _ := recordOffsets(full)
	for i, at := range []int{offs[2] + redolog.RecordHeaderSize + 3, offs[1] + 1, offs[3] - 1} {
		b := append([]byte(nil), full...)
		b[at] ^= 0x40
		d := filepath.Join(t.TempDir(), fmt.Sprint(i))
		copyDir(t, dir, d)
		p := logPath(t, d)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := present(t, d)
		if gdi.ErrorClass(err) != gdi.ErrFileFormat || !strings.Contains(fmt.Sprint(err), p) {
			t.Errorf("byte %d flipped: %v; want ErrFileFormat naming %s", at, err, p)
		}
	}
}
