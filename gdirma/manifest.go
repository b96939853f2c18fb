package gdirma

import (
	"encoding/json"
	"fmt"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/checkpoint"
	"github.com/gdi-go/gdi/gdirma/internal/redolog"
	"github.com/gdi-go/gdi/internal/vfs"
)

// The checkpoint directory's generations and manifest are package
// internal/checkpoint's; the manifest's content is gdirma's (checkpoint.go).

// fsys is the file system of checkpoints and logs: a test puts a failing
// one in its place.
var fsys = vfs.OS

// sealManifest returns the content of manifest.json for m.
func sealManifest(m *manifest) ([]byte, error) {
	b, err := json.MarshalIndent(m, "\t", "\t")
	if err != nil {
		return nil, gdi.Errorf(gdi.ErrIntern, "gdirma: Checkpoint: %v", err)
	}
	return checkpoint.Seal(b)
}

// readManifest reads and checks the manifest of dir.
func readManifest(dir string) (*manifest, error) {
	path, js, err := checkpoint.Read(fsys, dir)
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
// 0), after the current manifest's and every one found.
func newGeneration(dir string) (uint64, error) {
	var g uint64
	if m, err := readManifest(dir); err == nil {
		g = m.Generation
	}
	return checkpoint.NewGeneration(fsys, dir, g)
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
