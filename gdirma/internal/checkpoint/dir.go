package checkpoint

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/internal/vfs"
)

// ManifestName is the name of the current checkpoint's manifest.
const ManifestName = "manifest.json"

const genPrefix = "gen-"

// fileErr names a file error of a checkpoint as a gdi error.
func fileErr(path string, err error) error { return vfs.Error("gdirma: checkpoint file", path, err) }

// GenDir returns the directory of generation g's files in dir.
func GenDir(dir string, g uint64) string {
	if g == 0 {
		return dir
	}
	return filepath.Join(dir, genPrefix+strconv.FormatUint(g, 10))
}

// GenerationOf returns the generation of a directory entry named name.
func GenerationOf(name string) (uint64, bool) {
	s, ok := strings.CutPrefix(name, genPrefix)
	if !ok {
		return 0, false
	}
	g, err := strconv.ParseUint(s, 10, 64)
	return g, err == nil && g > 0
}

// sealed is the content of manifest.json: the manifest as JSON and the
// SHA-256 of exactly those bytes.
type sealed struct {
	SHA256   string
	Manifest json.RawMessage
}

// Seal returns the content of manifest.json for the manifest js, any
// valid JSON. The bytes sealed are js indented as manifest.json holds
// them, so that Open reads back exactly the bytes the seal covers.
func Seal(js []byte) ([]byte, error) {
	var b bytes.Buffer
	if err := json.Indent(&b, js, "\t", "\t"); err != nil {
		return nil, gdi.Errorf(gdi.ErrIntern, "gdirma: Checkpoint: manifest: %v", err)
	}
	sum := sha256.Sum256(b.Bytes())
	out, err := json.MarshalIndent(sealed{hex.EncodeToString(sum[:]), b.Bytes()}, "", "\t")
	if err != nil {
		return nil, gdi.Errorf(gdi.ErrIntern, "gdirma: Checkpoint: %v", err)
	}
	return append(out, '\n'), nil
}

// Open checks the content raw of the manifest at path and returns the
// manifest's JSON. A manifest of a checkpoint written before generations
// has no seal and is returned as it is.
func Open(path string, raw []byte) ([]byte, error) {
	var s sealed
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, gdi.Errorf(gdi.ErrFileFormat, "gdirma: checkpoint file %s: %v", path, err)
	}
	if s.Manifest == nil && s.SHA256 == "" {
		return raw, nil // generation 0: checked by its format
	}
	sum := sha256.Sum256(s.Manifest)
	if hex.EncodeToString(sum[:]) != s.SHA256 {
		return nil, gdi.Errorf(gdi.ErrFileFormat, "gdirma: checkpoint file %s: SHA-256 of the manifest does not match (corrupt)", path)
	}
	return s.Manifest, nil
}

// Read reads and opens the manifest of dir, and returns its path and JSON.
func Read(fsys vfs.FS, dir string) (path string, js []byte, err error) {
	path = filepath.Join(dir, ManifestName)
	raw, err := vfs.ReadFile(fsys, path)
	if err != nil {
		return path, nil, fileErr(path, err)
	}
	js, err = Open(path, raw)
	return path, js, err
}

// NewGeneration makes the directory of the next generation of dir: one
// above current (the current manifest's) and every generation directory
// found, so that no file of the current checkpoint is touched.
func NewGeneration(fsys vfs.FS, dir string, current uint64) (uint64, error) {
	if err := MkdirDurable(fsys, dir); err != nil {
		return 0, err
	}
	g := current
	names, err := fsys.ReadDir(dir)
	if err != nil {
		return 0, fileErr(dir, err)
	}
	for _, name := range names {
		if n, ok := GenerationOf(name); ok {
			g = max(g, n)
		}
	}
	g++
	return g, MkdirDurable(fsys, GenDir(dir, g))
}

// MkdirDurable creates dir, and makes its name durable.
func MkdirDurable(fsys vfs.FS, dir string) error {
	if err := fsys.MkdirAll(dir); err != nil {
		return fileErr(dir, err)
	}
	if err := fsys.SyncDir(filepath.Dir(dir)); err != nil {
		return fileErr(filepath.Dir(dir), err)
	}
	return nil
}

// CommitManifest makes the checkpoint of generation g current: it syncs
// the generation's directory, writes the manifest content to a temporary
// name, syncs it, renames it over manifest.json and syncs dir. The rename
// is the commit point.
func CommitManifest(fsys vfs.FS, dir string, g uint64, content []byte) error {
	gd := GenDir(dir, g)
	if err := fsys.SyncDir(gd); err != nil {
		return fileErr(gd, err)
	}
	tmp, final := filepath.Join(dir, ManifestName+".tmp"), filepath.Join(dir, ManifestName)
	if err := vfs.WriteFileSync(fsys, tmp, content); err != nil {
		return fileErr(tmp, err)
	}
	if err := fsys.Rename(tmp, final); err != nil {
		return fileErr(final, err)
	}
	if err := fsys.SyncDir(dir); err != nil {
		return fileErr(dir, err)
	}
	return nil
}

// RemoveOldGenerations removes the files of every generation of dir
// before keep, and those of generation 0. They are no longer read: an
// error leaves them for the next checkpoint to remove, and is not
// reported.
func RemoveOldGenerations(fsys vfs.FS, dir string, keep uint64) {
	names, err := fsys.ReadDir(dir)
	if err != nil {
		return
	}
	for _, name := range names {
		n, isGen := GenerationOf(name)
		legacy := strings.HasPrefix(name, "rank-") && (strings.HasSuffix(name, ".ckpt") || strings.HasSuffix(name, ".log"))
		if isGen && n < keep || legacy {
			_ = fsys.RemoveAll(filepath.Join(dir, name))
		}
	}
	_ = fsys.SyncDir(dir)
}

// SameDir reports whether a and b name the same directory, as far as
// their names tell.
func SameDir(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	x, errA := filepath.Abs(a)
	y, errB := filepath.Abs(b)
	return errA == nil && errB == nil && x == y
}
