package gdirma

import (
	"path/filepath"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/checkpoint"
	"github.com/gdi-go/gdi/gdirma/internal/redolog"
)

// CheckpointReport is what InspectCheckpoint found in a checkpoint
// directory.
type CheckpointReport struct {
	Generation    uint64
	Fuzzy         bool // taken while commits ran
	Format, Ranks int
	LogSeq        uint64 // the last sequence number the checkpoint covers
	Files         []string
	Logs          []LogReport
}

// LogReport describes a segment of a rank's redo log after a checkpoint.
type LogReport struct {
	Path    string
	Exists  bool
	Base    uint64 // the sequence number of the checkpoint it follows
	Records int    // records after the checkpoint
	Catalog int    // of them, metadata changes
	Torn    int64  // the offset of a torn tail cut off, or -1
}

// InspectCheckpoint checks the files of the checkpoint in dir offline, in
// the manner of a restore but without loading it: the manifest's seal and
// contents, the size and SHA-256 of every rank file, and the redo log of
// every rank beside it (header, sequence, checksums of every record). It
// returns what it found, up to the first damage, which is the error:
// ErrFileFormat or a file error, naming the file.
func InspectCheckpoint(dir string) (*CheckpointReport, error) {
	m, err := readManifest(dir)
	if err != nil {
		return nil, err
	}
	mpath := filepath.Join(dir, checkpoint.ManifestName)
	if _, err := m.check(mpath, Params{}, m.Ranks); err != nil {
		return nil, err
	}
	rep := &CheckpointReport{Generation: m.Generation, Fuzzy: m.Fuzzy, Format: m.Format, Ranks: m.Ranks, LogSeq: m.LogSeq}
	gd := checkpoint.GenDir(dir, m.Generation)
	for _, f := range m.Files {
		path := filepath.Join(gd, f.Name)
		if err := checkpoint.CheckRankFile(fsys, path, f); err != nil {
			return rep, err
		}
		rep.Files = append(rep.Files, path)
	}
	for r := range m.Ranks {
		paths, err := logSegments(dir, m, r)
		if err != nil {
			return rep, err
		}
		var last uint64
		for i, path := range paths {
			lc, err := redolog.ReadLog(fsys, path, r, m.Ranks)
			if err != nil {
				return rep, err
			}
			if i == 0 && lc.Exists {
				if err := m.checkFirstSegment(path, lc.Base); err != nil {
					return rep, err
				}
			}
			lr := LogReport{Path: path, Exists: lc.Exists, Base: lc.Base, Torn: lc.Torn}
			for _, rec := range lc.Records {
				if rec.Seq <= last {
					return rep, gdi.Errorf(gdi.ErrFileFormat, "gdirma: redo log file %s: sequence number %d after %d in an earlier segment", path, rec.Seq, last)
				}
				last = rec.Seq
				if rec.Seq > m.LogSeq {
					lr.Records++
					if rec.Type != redolog.RecWrites {
						lr.Catalog++
					}
				}
			}
			rep.Logs = append(rep.Logs, lr)
		}
	}
	return rep, nil
}
