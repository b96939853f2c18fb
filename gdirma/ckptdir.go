package gdirma

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/redolog"
	"github.com/gdi-go/gdi/internal/vfs"
)

// The layout of a checkpoint directory (see "Checkpoints" in checkpoint.go):
//
//	manifest.json        the current checkpoint: its manifest, checksummed
//	gen-<g>/rank-<r>.ckpt   rank r's windows in generation g
//	gen-<g>/rank-<r>.log    rank r's redo log since generation g (log dir)
//
// A checkpoint is written as a new generation beside the current one,
// made durable, and made current by the rename of its manifest over
// manifest.json, the one step that commits it; older generations are
// removed after that. A crash at any moment leaves either the old or the
// new checkpoint current, each whole. Checkpoints written before
// generations keep their files in the directory itself: generation 0.

// fsys is the file system of checkpoints and logs: a test puts a failing
// one in its place.
var fsys = vfs.OS

const genPrefix = "gen-"

// genDir returns the directory of generation g's files in dir.
func genDir(dir string, g uint64) string {
	if g == 0 {
		return dir
	}
	return filepath.Join(dir, genPrefix+strconv.FormatUint(g, 10))
}

// sealedManifest is the content of manifest.json: the manifest as JSON and
// the SHA-256 of exactly those bytes.
type sealedManifest struct {
	SHA256   string
	Manifest json.RawMessage
}

// sealManifest returns the content of manifest.json for m.
func sealManifest(m *manifest) ([]byte, error) {
	b, err := json.MarshalIndent(m, "\t", "\t")
	if err != nil {
		return nil, gdi.Errorf(gdi.ErrIntern, "gdirma: Checkpoint: %v", err)
	}
	sum := sha256.Sum256(b)
	out, err := json.MarshalIndent(sealedManifest{hex.EncodeToString(sum[:]), b}, "", "\t")
	if err != nil {
		return nil, gdi.Errorf(gdi.ErrIntern, "gdirma: Checkpoint: %v", err)
	}
	return append(out, '\n'), nil
}

// openManifest checks the content raw of the manifest at path and returns
// the manifest's JSON. A manifest of a checkpoint written before
// generations has no checksum and is returned as it is.
func openManifest(path string, raw []byte) ([]byte, error) {
	var s sealedManifest
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, gdi.Errorf(gdi.ErrFileFormat, "gdirma: checkpoint file %s: %v", path, err)
	}
	if s.Manifest == nil && s.SHA256 == "" {
		return raw, nil // generation 0: checked by its Format
	}
	sum := sha256.Sum256(s.Manifest)
	if hex.EncodeToString(sum[:]) != s.SHA256 {
		return nil, gdi.Errorf(gdi.ErrFileFormat, "gdirma: checkpoint file %s: SHA-256 of the manifest does not match (corrupt)", path)
	}
	return s.Manifest, nil
}

// readManifest reads and checks the manifest of dir.
func readManifest(dir string) (*manifest, error) {
	path := filepath.Join(dir, manifestName)
	raw, err := vfs.ReadFile(fsys, path)
	if err != nil {
		return nil, fileErr(path, err)
	}
	js, err := openManifest(path, raw)
	if err != nil {
		return nil, err
	}
	var m manifest
	if err := json.Unmarshal(js, &m); err != nil {
		return nil, gdi.Errorf(gdi.ErrFileFormat, "gdirma: checkpoint file %s: %v", path, err)
	}
	if m.Generation == 0 && m.Format > legacyLayoutFormat {
		return nil, gdi.Errorf(gdi.ErrFileFormat, "gdirma: checkpoint file %s: format %d without a generation", path, m.Format)
	}
	return &m, nil
}

// newGeneration makes the directory of the next generation of dir (rank
// 0): one above the current manifest's and every generation directory
// found, so that no file of the current checkpoint is touched.
func newGeneration(dir string) (uint64, error) {
	if err := mkdirDurable(dir); err != nil {
		return 0, err
	}
	var g uint64
	if m, err := readManifest(dir); err == nil {
		g = m.Generation
	}
	names, err := fsys.ReadDir(dir)
	if err != nil {
		return 0, fileErr(dir, err)
	}
	for _, name := range names {
		if n, ok := generationOf(name); ok {
			g = max(g, n)
		}
	}
	g++
	return g, mkdirDurable(genDir(dir, g))
}

// generationOf returns the generation of a directory entry named name.
func generationOf(name string) (uint64, bool) {
	s, ok := strings.CutPrefix(name, genPrefix)
	if !ok {
		return 0, false
	}
	g, err := strconv.ParseUint(s, 10, 64)
	return g, err == nil && g > 0
}

// mkdirDurable creates dir, and makes its name durable.
func mkdirDurable(dir string) error {
	if err := fsys.MkdirAll(dir); err != nil {
		return fileErr(dir, err)
	}
	if err := fsys.SyncDir(filepath.Dir(dir)); err != nil {
		return fileErr(filepath.Dir(dir), err)
	}
	return nil
}

// commitManifest makes the checkpoint of generation g current (rank 0):
// it syncs the generation's directory, writes the manifest to a temporary
// name, syncs it, renames it over manifest.json and syncs dir. The rename
// is the commit point.
func commitManifest(dir string, g uint64, content []byte) error {
	gd := genDir(dir, g)
	if err := fsys.SyncDir(gd); err != nil {
		return fileErr(gd, err)
	}
	tmp, final := filepath.Join(dir, manifestName+".tmp"), filepath.Join(dir, manifestName)
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

// removeOldGenerations removes the files of every generation of dir
// before keep (rank 0, after a checkpoint whose first log segment is of
// generation keep became current), and those of generation 0. They are
// no longer read: an error leaves them for the next checkpoint to remove,
// and is not reported.
func removeOldGenerations(dir string, keep uint64) {
	names, err := fsys.ReadDir(dir)
	if err != nil {
		return
	}
	for _, name := range names {
		n, isGen := generationOf(name)
		legacy := strings.HasPrefix(name, "rank-") && (strings.HasSuffix(name, ".ckpt") || strings.HasSuffix(name, ".log"))
		if isGen && n < keep || legacy {
			_ = fsys.RemoveAll(filepath.Join(dir, name))
		}
	}
	_ = fsys.SyncDir(dir)
}

// sameDir reports whether a and b name the same directory, as far as
// their names tell.
func sameDir(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	x, errA := filepath.Abs(a)
	y, errB := filepath.Abs(b)
	return errA == nil && errB == nil && x == y
}

// unreplayedLogs returns an error if rank's log segments beside the
// checkpoint m in dir hold commits after it: a restore that was not told
// to replay them (Params.LogDir) would silently drop them.
func unreplayedLogs(dir string, m *manifest, rank, ranks int) error {
	paths, err := logSegments(dir, m, rank)
	if err != nil {
		return err
	}
	c, err := redolog.OpenChain(fsys, paths, rank, ranks)
	var sum logSummary
	if err == nil {
		sum, err = summarize(c, m.LogSeq)
		c.Close()
	}
	if err != nil {
		return fmt.Errorf("%w (restore with LogDir set to %s to replay it, or remove it to restore the checkpoint alone)", err, dir)
	}
	if n := len(sum.seqs); n > 0 {
		return gdi.Errorf(gdi.ErrArgument, "gdirma: restore: redo log files %s hold %d commits after the checkpoint: restore with LogDir set to %s to replay them, or remove them to restore the checkpoint alone", pathOf(paths), n, dir)
	}
	return nil
}
