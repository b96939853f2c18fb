package redolog

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/internal/vfs"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// withLog runs fn with a log of one rank, in mode async, whose segment
// follows a checkpoint numbered base, in a file of a temporary directory.
func withLog(t *testing.T, async bool, fn func(l *Log, path string)) {
	t.Helper()
	path := filepath.Join(t.TempDir(), FileName(0))
	err := local.Run(1, func(c rma.Comm) error {
		w, err := c.NewWindow(8)
		if err != nil {
			return err
		}
		defer w.Free()
		l := Open(Config{Rank: 0, Ranks: 1, Async: async, Seq: w, SeqOffset: 0, FS: func() vfs.FS { return vfs.OS }})
		f, err := l.Prepare(path, 0)
		if err != nil {
			return err
		}
		l.Follow(path, f, 1)
		fn(l, path)
		return l.Close()
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestLogReadsBackInOrder: what Commit and LogCatalog append, in either
// mode, ReadLog gives back in order, numbered 1, 2, 3, ...
func TestLogReadsBackInOrder(t *testing.T) {
	for _, async := range []bool{false, true} {
		withLog(t, async, func(l *Log, path string) {
			for i := range 5 {
				if err := l.Commit([]Write{{Rank: 0, Off: 8 * i, B: []byte{byte(i), 1, 2}}}); err != nil {
					t.Fatal(err)
				}
			}
			if err := l.LogCatalog([]byte(`{"x":1}`)); err != nil {
				t.Fatal(err)
			}
			if err := l.Flush(); err != nil {
				t.Fatal(err)
			}
			lc, err := ReadLog(vfs.OS, path, 0, 1)
			if err != nil || !lc.Exists || lc.Async != async || lc.Torn != -1 || len(lc.Records) != 6 {
				t.Fatalf("async %v: ReadLog = %+v, %v; want 6 records, no torn tail", async, lc, err)
			}
			for i, r := range lc.Records[:5] {
				if r.Seq != uint64(i+1) || r.Type != RecWrites || len(r.Writes) != 1 || r.Writes[0].Off != 8*i || r.Writes[0].B[0] != byte(i) {
					t.Fatalf("async %v: record %d is %+v", async, i, r)
				}
			}
			if r := lc.Records[5]; r.Seq != 6 || r.Type != RecDelta || string(r.JS) != `{"x":1}` {
				t.Fatalf("async %v: catalog record is %+v", async, r)
			}
		})
	}
}

// TestLogTornTailAndCorruption: a file cut inside its last record reads
// as the records before it, with the torn tail noted; a byte flipped in a
// record that whole records follow is ErrFileFormat.
func TestLogTornTailAndCorruption(t *testing.T) {
	withLog(t, false, func(l *Log, path string) {
		for i := range 3 {
			if err := l.Commit([]Write{{Rank: 0, Off: 0, B: make([]byte, 40+i)}}); err != nil {
				t.Fatal(err)
			}
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		torn := filepath.Join(filepath.Dir(path), "torn.log")
		if err := os.WriteFile(torn, b[:len(b)-30], 0o644); err != nil {
			t.Fatal(err)
		}
		lc, err := ReadLog(vfs.OS, torn, 0, 1)
		if err != nil || len(lc.Records) != 2 || lc.Torn < 0 {
			t.Fatalf("a cut file: %d records, torn %d, %v; want 2 records and a torn tail", len(lc.Records), lc.Torn, err)
		}
		bad := append([]byte(nil), b...)
		// A byte of the first record's data: sequence number (8), type (1),
		// count (4), rank (4), offset (8) and length (4) come before it.
		bad[HeaderSize+RecordHeaderSize+8+1+4+4+8+4+5] ^= 0x40
		corrupt := filepath.Join(filepath.Dir(path), "corrupt.log")
		if err := os.WriteFile(corrupt, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadLog(vfs.OS, corrupt, 0, 1); gdi.ErrorClass(err) != gdi.ErrFileFormat {
			t.Fatalf("a corrupt record followed by whole ones: %v, want ErrFileFormat", err)
		}
		if _, err := ReadLog(vfs.OS, filepath.Join(filepath.Dir(path), "missing.log"), 0, 1); err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("a missing log: %v, want an empty log", err)
		}
	})
}
