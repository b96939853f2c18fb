package checkpoint

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/internal/vfs"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// withWindows runs f on one rank with two windows filled with a pattern.
func withWindows(t *testing.T, f func(secs []Section)) {
	t.Helper()
	err := local.Run(1, func(c rma.Comm) error {
		var secs []Section
		for i, name := range []string{"data", "control"} {
			w, err := c.NewWindow(64 * (i + 1))
			if err != nil {
				return err
			}
			defer w.Free()
			b := bytes.Repeat([]byte{byte(0x10 + i)}, w.Size())
			b[3] = byte(i)
			if err := w.Put(b, 0, 0); err != nil {
				return err
			}
			if err := w.Flush(0); err != nil {
				return err
			}
			secs = append(secs, Section{Name: name, W: w})
		}
		f(secs)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// writeRankFile writes secs to a rank file of rank 0 of 1 in dir, of
// format 4, and returns its path, header and state.
func writeRankFile(t *testing.T, dir string, secs []Section) (string, Header, FileState) {
	t.Helper()
	path := filepath.Join(dir, RankFileName(0))
	h := Header{Format: 4, Rank: 0, Ranks: 1}
	fst, err := WriteRankFile(vfs.OS, path, h, secs)
	if err != nil {
		t.Fatal(err)
	}
	return path, h, fst
}

// contents returns rank 0's part of w.
func contents(w rma.Window) []byte {
	b := make([]byte, w.Size())
	_ = w.Get(b, 0, 0)
	_ = w.Flush(0)
	return b
}

// clearWindows zeroes rank 0's part of the windows of secs.
func clearWindows(secs []Section) {
	for _, s := range secs {
		_ = s.W.Put(make([]byte, s.W.Size()), 0, 0)
		_ = s.W.Flush(0)
	}
}

// TestRankFileRoundTrip: what WriteRankFile writes, ReadRankFile loads
// back into cleared windows, byte for byte.
func TestRankFileRoundTrip(t *testing.T) {
	withWindows(t, func(secs []Section) {
		path, h, fst := writeRankFile(t, t.TempDir(), secs)
		want := make([][]byte, len(secs))
		for i, s := range secs {
			want[i] = contents(s.W)
		}
		clearWindows(secs)
		if err := ReadRankFile(vfs.OS, path, fst, h, 3, secs); err != nil {
			t.Fatal(err)
		}
		for i, s := range secs {
			if got := contents(s.W); !bytes.Equal(got, want[i]) {
				t.Errorf("section %s reads back % x, want % x", s.Name, got, want[i])
			}
		}
	})
}

// TestRankFileFirst: ReadRankFileFirst loads the first sections of a file
// that holds more, leaves the windows of the others alone, and still
// refuses a file damaged past the sections it loads.
func TestRankFileFirst(t *testing.T) {
	withWindows(t, func(secs []Section) {
		path, h, fst := writeRankFile(t, t.TempDir(), secs)
		want := contents(secs[0].W)
		clearWindows(secs)
		if err := ReadRankFileFirst(vfs.OS, path, fst, h, 3, secs[:1]); err != nil {
			t.Fatalf("the first section of two: %v", err)
		}
		if got := contents(secs[0].W); !bytes.Equal(got, want) {
			t.Errorf("section %s reads back % x, want % x", secs[0].Name, got, want)
		}
		if got := contents(secs[1].W); !bytes.Equal(got, make([]byte, len(got))) {
			t.Errorf("section %s, not asked for, was loaded: % x", secs[1].Name, got)
		}
		if err := ReadRankFile(vfs.OS, path, fst, h, 3, secs[:1]); gdi.ErrorClass(err) != gdi.ErrFileFormat {
			t.Errorf("ReadRankFile of the first section of two: got %v, want ErrFileFormat", err)
		}
		good, _ := os.ReadFile(path)
		if err := os.WriteFile(path, flip(good, len(good)-10), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := ReadRankFileFirst(vfs.OS, path, fst, h, 3, secs[:1]); gdi.ErrorClass(err) != gdi.ErrFileFormat {
			t.Errorf("a byte flipped in a section not loaded: got %v, want ErrFileFormat", err)
		}
	})
}

// TestRankFileRefusesDamage: a file that is truncated, has a flipped
// byte, belongs to another rank or format, or is missing is refused with
// the gdi error that says so, naming the file.
func TestRankFileRefusesDamage(t *testing.T) {
	withWindows(t, func(secs []Section) {
		dir := t.TempDir()
		path, h, fst := writeRankFile(t, dir, secs)
		good, _ := os.ReadFile(path)
		if err := CheckRankFile(vfs.OS, path, fst); err != nil {
			t.Errorf("CheckRankFile of the file as written: %v", err)
		}
		cases := []struct {
			rule  string
			bytes []byte
			fst   FileState
			h     Header
			code  gdi.Code
		}{
			{"a truncated file is refused", good[:len(good)-5], fst, h, gdi.ErrFileFormat},
			{"a flipped byte is refused", flip(good, 40), fst, h, gdi.ErrFileFormat},
			{"a flipped byte is refused even if the manifest agrees", flip(good, 40), FileState{Size: fst.Size, SHA256: "x"}, h, gdi.ErrFileFormat},
			{"another rank's file is refused", good, fst, Header{Format: 4, Rank: 1, Ranks: 2}, gdi.ErrFileFormat},
			{"a newer format is refused", good, fst, Header{Format: 3, Rank: 0, Ranks: 1}, gdi.ErrFileFormat},
		}
		for _, c := range cases {
			if err := os.WriteFile(path, c.bytes, 0o644); err != nil {
				t.Fatal(err)
			}
			err := ReadRankFile(vfs.OS, path, c.fst, c.h, 3, secs)
			if gdi.ErrorClass(err) != c.code || !bytes.Contains([]byte(err.Error()), []byte(path)) {
				t.Errorf("%s: got %v, want %v naming %s", c.rule, err, c.code, path)
			}
			if !bytes.Equal(c.bytes, good) || c.fst != fst {
				if err := CheckRankFile(vfs.OS, path, c.fst); gdi.ErrorClass(err) != gdi.ErrFileFormat {
					t.Errorf("%s (CheckRankFile): got %v, want ErrFileFormat", c.rule, err)
				}
			}
		}
		err := ReadRankFile(vfs.OS, filepath.Join(dir, "none"), fst, h, 3, secs)
		if gdi.ErrorClass(err) != gdi.ErrNoSuchFile {
			t.Errorf("a missing file: got %v, want ErrNoSuchFile", err)
		}
	})
}

func flip(b []byte, i int) []byte {
	c := bytes.Clone(b)
	c[i] ^= 0xff
	return c
}
