package gdirma

import (
	"encoding/json"
	"path/filepath"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/checkpoint"
	"github.com/gdi-go/gdi/index"
	"github.com/gdi-go/gdi/internal/agree"
	"github.com/gdi-go/gdi/internal/vfs"
)

// restore loads the checkpoint in p.Restore into the new database db
// (collective): it reads and checks the manifest, creates the windows with
// its parameters, loads every rank's windows from its file and sets the
// mirrors; then, if p.LogDir is the checkpoint's directory, it replays the
// logs beside the checkpoint, and if not, it makes sure they hold nothing
// to replay. On any error, on any rank, every rank frees the windows and
// returns an error naming the file.
func (db *Database) restore(p Params) error {
	dir := p.Restore
	mpath := filepath.Join(dir, checkpoint.ManifestName)
	var js []byte
	var local error
	if db.rank == 0 {
		var raw []byte
		var err error
		if raw, err = vfs.ReadFile(fsys, mpath); err != nil {
			local = fileErr(mpath, err)
		} else {
			js, local = checkpoint.Open(mpath, raw)
		}
	}
	if err := agree.Errors(db.comm, local); err != nil {
		return err
	}
	js, err := bcastBytes(db.comm, js)
	if err != nil {
		return gdi.Errorf(gdi.ErrIntern, "gdirma: restore: broadcast of the manifest: %v", err)
	}
	var m manifest
	q := p
	if err := json.Unmarshal(js, &m); err != nil {
		local = gdi.Errorf(gdi.ErrFileFormat, "gdirma: checkpoint file %s: %v", mpath, err)
	} else {
		q, local = m.check(mpath, p, db.comm.Size())
	}
	if err := agree.Errors(db.comm, local); err != nil {
		return err
	}
	st, err := newGraph(db.comm, q, m.Tag, db.labelText)
	if err != nil {
		return gdi.Errorf(gdi.ErrNoMemory, "gdirma: %v", err)
	}
	fst := m.Files[db.rank]
	local = st.readRankFile(filepath.Join(checkpoint.GenDir(dir, m.Generation), fst.Name), fst, &m)
	if local == nil && !m.derived() {
		local = st.setMirrors(mpath, &m)
	}
	if local == nil {
		if err := db.SetState(m.Catalog); err != nil {
			local = gdi.Errorf(gdi.ErrFileFormat, "gdirma: checkpoint file %s: catalog: %v", mpath, err)
		}
	}
	replay := checkpoint.SameDir(p.LogDir, dir)
	if local == nil && !replay {
		local = unreplayedLogs(dir, &m, db.rank, db.comm.Size())
	}
	if err := agree.Errors(db.comm, local); err != nil {
		return freeAfter(st, err)
	}
	db.st, db.params = st, q
	if replay || m.derived() {
		// A fuzzy or an old checkpoint gives the holders alone: the
		// replay, of nothing if the logs hold nothing after it, derives
		// the rest.
		if err := db.replay(dir, &m, replay); err != nil {
			return freeAfter(st, err)
		}
	}
	return nil
}

// freeAfter frees the windows of st after a failed restore, and returns
// err.
func freeAfter(st *graph, err error) error {
	if ferr := st.free(); ferr != nil {
		return gdi.Errorf(gdi.ErrIntern, "gdirma: restore failed (%v), and freeing the windows too: %v", err, ferr)
	}
	return err
}

// check checks a manifest read from path against the Params p of the
// restoring CreateDatabase and the number of ranks, and returns the Params
// to create the windows with: the manifest's, which fields set in p must
// equal.
func (m *manifest) check(path string, p Params, ranks int) (Params, error) {
	bad := func(format string, args ...any) (Params, error) {
		return p, gdi.Errorf(gdi.ErrFileFormat, "gdirma: checkpoint file %s: "+format, append([]any{path}, args...)...)
	}
	switch {
	case !readableCheckpointFormat(m.Format):
		return bad("format %d, want %d to %d", m.Format, oldestCheckpointFormat, checkpointFormat)
	case m.Ranks != ranks:
		return p, gdi.Errorf(gdi.ErrArgument, "gdirma: checkpoint file %s: the checkpoint has %d ranks, the database %d", path, m.Ranks, ranks)
	case len(m.Files) != m.Ranks:
		return bad("%d rank files for %d ranks", len(m.Files), m.Ranks)
	case m.Tag == 0:
		return bad("tag 0")
	case m.Generation == 0 && m.Format > legacyLayoutFormat:
		return bad("format %d without a generation", m.Format)
	}
	for r, f := range m.Files {
		if f.Name != checkpoint.RankFileName(r) {
			return bad("rank %d has file %q, want %q", r, f.Name, checkpoint.RankFileName(r))
		}
	}
	q := m.Params
	q.Restore, q.Log, q.LogDir, q.LogCheckpointSize = p.Restore, p.Log, p.LogDir, p.LogCheckpointSize
	for _, x := range []struct {
		name       string
		given, got int
	}{
		{"BlockSize", p.BlockSize, q.BlockSize},
		{"MemoryPerRank", p.MemoryPerRank, q.MemoryPerRank},
		{"DHTBuckets", p.DHTBuckets, q.DHTBuckets},
		{"DHTEntries", p.DHTEntries, q.DHTEntries},
		{"IndexMemoryPerRank", p.IndexMemoryPerRank, q.IndexMemoryPerRank},
	} {
		if x.given != 0 && x.given != x.got {
			return p, gdi.Errorf(gdi.ErrArgument, "gdirma: checkpoint file %s: %s is %d, the parameters ask for %d", path, x.name, x.got, x.given)
		}
	}
	d, err := q.withDefaults()
	if err != nil || d != q {
		return bad("bad parameters %+v", m.Params)
	}
	return q, nil
}

// readRankFile loads the calling rank's windows of checkpoint m from
// path, checking it against fst: all of them, or the block data alone if
// the rest is derived (manifest.derived), which an old checkpoint's file
// holds more windows after.
func (st *graph) readRankFile(path string, fst checkpoint.FileState, m *manifest) error {
	h := checkpoint.Header{Format: checkpointFormat, Rank: st.Rank(), Ranks: st.Size()}
	if m.derived() && !m.Fuzzy {
		return checkpoint.ReadRankFileFirst(fsys, path, fst, h, oldestCheckpointFormat, st.sectionsOf(true))
	}
	return checkpoint.ReadRankFile(fsys, path, fst, h, oldestCheckpointFormat, st.sectionsOf(m.Fuzzy))
}

// setMirrors sets the store's local mirrors from the manifest.
func (st *graph) setMirrors(path string, m *manifest) error {
	bad := func(format string, args ...any) error {
		return gdi.Errorf(gdi.ErrFileFormat, "gdirma: checkpoint file %s: "+format, append([]any{path}, args...)...)
	}
	if err := st.forest.SetMirror(m.Forest.Gens, m.Forest.Live); err != nil {
		return bad("%v", err)
	}
	defs := map[uint32]*treeDef{}
	for _, t := range m.Trees {
		if defs[t.Index] != nil {
			return bad("index %d has two trees", t.Index)
		}
		// Len checks that the tree is live in the mirror and in this
		// rank's directory.
		if _, err := st.forest.Len(index.Tree(t.Tree), st.Rank()); err != nil {
			return bad("tree %#x of index %d: %v", t.Tree, t.Index, err)
		}
		defs[t.Index] = &treeDef{tree: index.Tree(t.Tree), labels: t.Labels, ptypes: t.Ptypes}
	}
	st.idx.mu.Lock()
	st.idx.defs = defs
	st.idx.mu.Unlock()
	return nil
}
