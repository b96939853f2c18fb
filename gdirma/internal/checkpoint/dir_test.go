package checkpoint

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/internal/vfs"
)

// TestGenerationsAndManifest walks a directory through two checkpoints:
// each takes a generation above every one present, its committed
// manifest reads back, the older generation goes, and a damaged manifest
// is ErrFileFormat.
func TestGenerationsAndManifest(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ckpt")
	if err := os.MkdirAll(GenDir(dir, 5), 0o755); err != nil { // a leftover of a crash
		t.Fatal(err)
	}
	g1, err := NewGeneration(vfs.OS, dir, 0)
	if err != nil || g1 != 6 {
		t.Fatalf("NewGeneration over gen-5 = %d, %v; want 6", g1, err)
	}
	for i, g := range []uint64{g1, 0} {
		if g == 0 {
			if g, err = NewGeneration(vfs.OS, dir, g1); err != nil || g != g1+1 {
				t.Fatalf("second NewGeneration = %d, %v; want %d", g, err, g1+1)
			}
		}
		js := []byte(`{"Generation":` + string(rune('0'+i)) + `}`)
		content, err := Seal(js)
		if err != nil {
			t.Fatal(err)
		}
		if err := CommitManifest(vfs.OS, dir, g, content); err != nil {
			t.Fatal(err)
		}
		_, got, err := Read(vfs.OS, dir)
		var compact bytes.Buffer
		if err == nil {
			err = json.Compact(&compact, got)
		}
		if err != nil || compact.String() != string(js) {
			t.Fatalf("checkpoint %d: Read = %s, %v; want %s", i, got, err, js)
		}
		RemoveOldGenerations(vfs.OS, dir, g)
		if _, err := os.Stat(GenDir(dir, g)); err != nil {
			t.Fatalf("checkpoint %d: its own generation went: %v", i, err)
		}
		if _, err := os.Stat(GenDir(dir, 5)); !os.IsNotExist(err) {
			t.Fatalf("checkpoint %d: gen-5 is still there (%v)", i, err)
		}
	}
	path := filepath.Join(dir, ManifestName)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Still valid JSON, with a value the seal does not cover.
	raw = bytes.Replace(raw, []byte(`"Generation": 1`), []byte(`"Generation": 2`), 1)
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Read(vfs.OS, dir); gdi.ErrorClass(err) != gdi.ErrFileFormat {
		t.Fatalf("a damaged manifest: %v, want ErrFileFormat", err)
	}
	if _, _, err := Read(vfs.OS, t.TempDir()); gdi.ErrorClass(err) != gdi.ErrNoSuchFile {
		t.Fatalf("no manifest: %v, want ErrNoSuchFile", err)
	}
}

// TestSameDir: names of one directory are the same, others and empty
// ones are not.
func TestSameDir(t *testing.T) {
	d := t.TempDir()
	if !SameDir(d, filepath.Join(d, ".")) || SameDir(d, filepath.Join(d, "x")) || SameDir("", d) {
		t.Fatal("SameDir gives the wrong answer")
	}
}
