package gdirma

import (
	"encoding/binary"
	"encoding/json"
	"path/filepath"
	"time"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/checkpoint"
	"github.com/gdi-go/gdi/gdirma/internal/redolog"
	"github.com/gdi-go/gdi/internal/agree"
	"github.com/gdi-go/gdi/internal/catalog"
	"github.com/gdi-go/gdi/internal/vfs"
	"github.com/gdi-go/gdi/rma"
)

// Checkpoints.
//
// Database.Checkpoint(dir) (collective, gdi.Checkpointer) writes the
// database to a directory; CreateDatabase with Params.Restore = dir
// creates it again, on the same number of ranks. Everything a database
// stores lives in RMA windows (the block pool, the control words, the
// DHT, the index forest) plus a few mirrors that are alike on every rank
// (Params, the UID tag, the catalog of labels, property types and
// indexes, the forest's directory mirror, which tree holds which index);
// checkpoint.go lists them. So a checkpoint is a copy of memory:
//
//   - the database must be quiet: Checkpoint fails with ErrConsistency on
//     every rank if any rank has an open transaction, and no transaction
//     may start before it returns;
//   - a checkpoint is a generation: every rank writes its own part of
//     every window to gen-<g>/rank-<r>.ckpt (rma.Snapshotter copies it, in
//     parallel on all ranks), in sections with a name, a length and a
//     CRC-32C each, and syncs it; rank 0 syncs the generation's directory,
//     writes manifest.json (format, ranks, Params, tag, catalog, mirrors,
//     generation, and the size and SHA-256 of every rank file; sealed with
//     the SHA-256 of its own bytes) to a temporary name, syncs it, renames
//     it over the old one and syncs the directory. That rename is the one
//     step that makes the new checkpoint current; the other generations
//     are removed after it. Until then the previous checkpoint is current
//     and whole, so an error (a full disk) or a crash at any moment of
//     Checkpoint leaves a restorable directory (internal/checkpoint);
//   - a restore reads the manifest on rank 0 and broadcasts it, creates
//     the windows with the checkpoint's parameters (fields set in Params
//     must equal them, as must the number of ranks: ErrArgument), loads
//     each rank's windows from its file and checks sizes and checksums. A
//     missing file is ErrNoSuchFile, a corrupt, truncated or mismatched
//     one (the manifest included) ErrFileFormat; the message names the
//     file, and every rank gets it and frees the windows, so no
//     half-loaded database is returned. Checkpoints written before
//     generations (their files beside the manifest, which has no seal)
//     are still read.
//
// The restored database answers every query as the original did, with
// the same UIDs (the tag is kept), object numbers, free lists, counters
// and index trees, so it goes on exactly where the checkpoint was taken.
// Caveats: handles (labels, property types, indexes, constraints) of the
// original are not valid in the restored database: look them up by name,
// and find the indexes with Indexes, in creation order; constraints and
// subconstraints are not kept. Because the tag is kept, the original and
// its restore (or two restores of one checkpoint) accept each other's
// UIDs, which are erroneous there and not always detected. Files hold the
// whole windows, free blocks included, so their size is the memory per
// rank, not that of the data. Writing is synchronous (fsync).
//
// The mechanics.
//
// The whole state of a database is
//
//   - in RMA windows, per rank: the block pool (data, usage = free list,
//     system = free-list head and lock words), the control window (high
//     water, commit counter, scan gate), the DHT of the implicit index
//     (bucket slots, and the data, usage and system windows of its entry
//     heap), and the forest of the explicit indexes (directory, and the
//     data, usage and system windows of its node pool); sections below,
//     in this order;
//   - in local mirrors, alike on every rank: the Params, the store's tag
//     (part of every UID), the catalog (labels, property types with their
//     generations, the last numbers handed out, the indexes with their
//     sets L and P: catalog.State), the forest's mirror of its directory
//     (generation and liveness of each tree slot), and which tree holds
//     the entries of which index (graph.idx);
//   - not kept: the rank's transactions (a checkpoint needs none open),
//     constraints, subconstraints and handles (objects of one run; handles
//     of the restored database carry a new catalog tag), and caches.
//
// Each rank writes its windows to rank-<r>.ckpt in the directory of a new
// generation; rank 0 then makes it current with manifest.json, which holds
// the mirrors and the size and SHA-256 of every rank file (internal/checkpoint).

// checkpointFormat is the version of the files. The windows are copied
// as they are, so it must be raised whenever the layout of any window
// changes (blocks and holder images, the DHT, the index trees): a restore
// refuses versions it cannot read, those before oldestCheckpointFormat.
// Format 3 differs from 4 only in that its vertex images hold no compact
// edge references (layout/codec.go), and every reader of 4 reads the wide
// ones as well. Format 5 puts a check or a chain sum in the high half of
// a primary block's length word (store/checked.go, store/chainsum.go),
// which 3 and 4 leave zero (no check, no sum), and gives each bucket of
// the DHT two home entries; format 6 marks a home entry in use in its own
// link rather than in a state word of the bucket; format 7's DHT has the
// keys of objects without labels and of edges (idindex.go). A checkpoint
// before 7 is restored from its block data alone, and the rest derived,
// as for a fuzzy one (manifest.derived).
const (
	checkpointFormat       = 7 // 2: the control window has the log's sequence word; 3: fences, tombstones; 4: compact references; 5: checks, chain sums, DHT buckets of two home entries; 6: DHT home entries marked used in their links; 7: keys without labels and of edges in the DHT
	oldestCheckpointFormat = 3
	// derivedBeforeFormat is the first format whose windows other than
	// the block data a restore loads as they are.
	derivedBeforeFormat = 7
	// legacyLayoutFormat is the last format whose checkpoints may keep
	// their files in the directory itself (generation 0).
	legacyLayoutFormat = 4
)

// writtenCheckpointFormat is the version Checkpoint writes: a test sets
// an older one to check that a restore reads it.
var writtenCheckpointFormat = checkpointFormat

// readableCheckpointFormat reports whether a restore reads files of
// version f.
func readableCheckpointFormat(f int) bool {
	return f >= oldestCheckpointFormat && f <= checkpointFormat
}

// sectionsOf lists the windows of a rank file: all of sections, or for a
// fuzzy checkpoint (autockpt.go) the data window of the block pool alone,
// as everything else is derived from the holders on restore.
func (st *graph) sectionsOf(fuzzy bool) []checkpoint.Section {
	secs := st.sections()
	if fuzzy {
		return secs[:1]
	}
	return secs
}

// sections lists the windows of the store in the order of the rank files.
func (st *graph) sections() []checkpoint.Section {
	var out []checkpoint.Section
	add := func(prefix string, names []string, ws []rma.Window) {
		for i, w := range ws {
			out = append(out, checkpoint.Section{Name: prefix + names[i], W: w})
		}
	}
	pool := []string{"data", "usage", "system"}
	add("blocks.", pool, st.Pool().Windows())
	add("", []string{"control"}, []rma.Window{st.Control()})
	add("dht.", []string{"buckets", "heap.data", "heap.usage", "heap.system"}, st.IDs().Windows())
	add("index.", []string{"directory", "nodes.data", "nodes.usage", "nodes.system"}, st.forest.Windows())
	return out
}

// manifest is the content of manifest.json.
type manifest struct {
	Format  int
	Ranks   int
	Created string // for people; not checked
	Params  Params
	Tag     uint16
	Catalog catalog.State
	Forest  struct {
		Gens []uint64
		Live []bool
	}
	Trees []treeState
	Files []checkpoint.FileState
	// LogSeq is the last sequence number of the redo log that the
	// checkpoint covers: a restore replays the records after it.
	LogSeq uint64
	// Generation names the directory of the files (genDir).
	Generation uint64 `json:",omitempty"`
	// LogFrom is the generation of the first log segment a restore
	// replays, if not Generation (see logSegments).
	LogFrom uint64 `json:",omitempty"`
	// Fuzzy marks a checkpoint taken while commits ran (autockpt.go): its
	// rank files hold the data window of the block pool alone, and a
	// restore replays every record after LogSeq and then derives the
	// rest from the holders.
	Fuzzy bool `json:",omitempty"`
}

// derived reports whether a restore of m's checkpoint loads the block
// data alone and derives the rest of the windows from the holders (store
// rebuild): a fuzzy checkpoint holds nothing else, and one of a format
// before derivedBeforeFormat holds windows of another layout.
func (m *manifest) derived() bool { return m.Fuzzy || m.Format < derivedBeforeFormat }

// logFrom is the generation of the first log segment of m's checkpoint.
func (m *manifest) logFrom() uint64 {
	if m.LogFrom != 0 {
		return m.LogFrom
	}
	return m.Generation
}

// treeState is the tree of an index with entries (graph.idx).
type treeState struct {
	Index          uint32
	Tree           uint64
	Labels, Ptypes []uint32
}

var _ gdi.Checkpointer = (*Database)(nil)

// Checkpoint writes the database to the directory dir (collective; every
// rank passes the same dir, which all ranks must reach as the same
// directory, such as on a shared file system). The database must be
// quiet: no rank may have an open transaction (ErrConsistency), nor start
// one before Checkpoint returns. dir is created if needed. The checkpoint
// is written beside the one in dir, which stays current until the new one
// is durable, and is then removed: an error or a crash at any moment
// leaves dir holding one whole checkpoint. All ranks return the same
// outcome; file errors name the file. With the redo log on and dir its
// directory, the log starts again empty, following the new checkpoint.
func (db *Database) Checkpoint(dir string) error {
	if db.IsFreed() {
		return errFreedDB()
	}
	defer db.pauseAuto()()
	local := db.quietCheck("Checkpoint")
	if local == nil && dir == "" {
		local = gdi.Errorf(gdi.ErrArgument, "gdirma: Checkpoint: empty directory name")
	}
	if err := db.Agree("Checkpoint "+dir, local); err != nil {
		return err
	}
	// The log first holds everything until the checkpoint replaces it.
	if db.log != nil {
		local = db.log.Flush()
	}
	if err := agree.Errors(db.comm, local); err != nil {
		return err
	}
	g, err := db.agreeGeneration(dir)
	if err != nil {
		return err
	}
	gd := checkpoint.GenDir(dir, g)
	// The blocks this rank holds for its acquires go back on its list:
	// restored from the file, they would be in use and no one's.
	var fst checkpoint.FileState
	local = internal(db.st.Pool().ReturnReserve())
	if local == nil {
		fst, local = db.st.writeRankFile(filepath.Join(gd, checkpoint.RankFileName(db.rank)), false)
	}
	var seq uint64
	if local == nil {
		seq, local = db.st.LogSeq()
	}
	var next vfs.File
	follows := db.log != nil && checkpoint.SameDir(dir, db.params.LogDir)
	logPath := filepath.Join(gd, redolog.FileName(db.rank))
	if local == nil && follows {
		next, local = db.log.Prepare(logPath, seq)
	}
	if err := db.commitCheckpoint(dir, g, seq, fst, local); err != nil {
		if next != nil {
			_ = next.Close()
		}
		return err
	}
	if follows {
		db.log.Follow(logPath, next, g)
		db.log.ClearStale()
	}
	if db.rank == 0 {
		checkpoint.RemoveOldGenerations(fsys, dir, g)
	}
	return agree.Errors(db.comm, nil)
}

// agreeGeneration has rank 0 make the directory of dir's next generation,
// and gives every rank its number (collective).
func (db *Database) agreeGeneration(dir string) (uint64, error) {
	var g uint64
	var local error
	if db.rank == 0 {
		g, local = newGeneration(dir)
	}
	if err := agree.Errors(db.comm, local); err != nil {
		return 0, err
	}
	b, err := bcastBytes(db.comm, binary.LittleEndian.AppendUint64(nil, g))
	if err != nil {
		return 0, gdi.Errorf(gdi.ErrIntern, "gdirma: Checkpoint: %v", err)
	}
	return binary.LittleEndian.Uint64(b), nil
}

// commitCheckpoint gathers the ranks' file states (local is the rank's
// error so far) and has rank 0 write the manifest of generation g, with
// log sequence number seq, and make it current (collective).
func (db *Database) commitCheckpoint(dir string, g, seq uint64, fst checkpoint.FileState, local error) error {
	if err := agree.Errors(db.comm, local); err != nil {
		return err
	}
	msg, err := json.Marshal(fst)
	if err != nil {
		return gdi.Errorf(gdi.ErrIntern, "gdirma: Checkpoint: %v", err)
	}
	all, err := db.comm.Allgatherv(msg)
	if err != nil {
		return gdi.Errorf(gdi.ErrIntern, "gdirma: Checkpoint: gathering the file checksums: %v", err)
	}
	if db.rank == 0 {
		var content []byte
		if content, local = db.manifestContent(g, seq, all); local == nil {
			local = checkpoint.CommitManifest(fsys, dir, g, content)
		}
	}
	return agree.Errors(db.comm, local)
}

// writeRankFile writes the calling rank's windows (those of a fuzzy
// checkpoint if fuzzy) to path, and returns its size and SHA-256.
func (st *graph) writeRankFile(path string, fuzzy bool) (checkpoint.FileState, error) {
	return checkpoint.WriteRankFile(fsys, path, checkpoint.Header{Format: writtenCheckpointFormat, Rank: st.Rank(), Ranks: st.Size()}, st.sectionsOf(fuzzy))
}

// newManifest returns the manifest of the checkpoint of generation g with
// log sequence number seq, but for its files and mirrors: what the
// database is, and its parameters less those of where it came from and
// where it logs.
func (db *Database) newManifest(g, seq uint64) manifest {
	m := manifest{
		Format:     writtenCheckpointFormat,
		Ranks:      db.st.Size(),
		Created:    time.Now().UTC().Format(time.RFC3339),
		Params:     db.params,
		Tag:        db.st.Tag(),
		Catalog:    db.State(),
		LogSeq:     seq,
		Generation: g,
	}
	m.Params.Restore, m.Params.Log, m.Params.LogDir, m.Params.LogCheckpointSize = "", LogOff, "", 0
	return m
}

// manifestContent returns the content of the manifest of generation g
// (rank 0), with log sequence number seq, from the file states all ranks
// gathered.
func (db *Database) manifestContent(g, seq uint64, files [][]byte) ([]byte, error) {
	m := db.newManifest(g, seq)
	m.Forest.Gens, m.Forest.Live = db.st.forest.Mirror()
	db.st.idx.mu.RLock()
	for num, d := range db.st.idx.defs {
		m.Trees = append(m.Trees, treeState{Index: num, Tree: uint64(d.tree), Labels: d.labels, Ptypes: d.ptypes})
	}
	db.st.idx.mu.RUnlock()
	for r, b := range files {
		var fst checkpoint.FileState
		if err := json.Unmarshal(b, &fst); err != nil {
			return nil, gdi.Errorf(gdi.ErrIntern, "gdirma: Checkpoint: file state of rank %d: %v", r, err)
		}
		m.Files = append(m.Files, fst)
	}
	return sealManifest(&m)
}

// bcastBytes gives every rank rank 0's b.
func bcastBytes(comm rma.Comm, b []byte) ([]byte, error) {
	n := binary.LittleEndian.AppendUint64(nil, uint64(len(b)))
	if err := comm.Bcast(n, 0); err != nil {
		return nil, err
	}
	if comm.Rank() != 0 {
		b = make([]byte, binary.LittleEndian.Uint64(n))
	}
	if err := comm.Bcast(b, 0); err != nil {
		return nil, err
	}
	return b, nil
}

// fileErr turns an error of the file system into a gdi error naming path.
func fileErr(path string, err error) error { return vfs.Error("gdirma: checkpoint file", path, err) }
