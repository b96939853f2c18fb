package gdirma

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/gdi-go/gdi/gdirma/internal/checkpoint"
	"github.com/gdi-go/gdi/gdirma/internal/layout"
	"github.com/gdi-go/gdi/internal/vfs"

	"github.com/gdi-go/gdi/gdi"
)

// IndexEntries returns the number of entries the tree of index idx holds
// on every rank, for tests that check that commits leave none behind.
func IndexEntries(db *Database, idx gdi.Index) (int, error) {
	d := db.treeOf(idx)
	if d == nil {
		return 0, errors.New("the index has no tree")
	}
	total := 0
	for rank := range db.st.Size() {
		n, err := db.st.forest.Len(d.tree, rank)
		if err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}

// InTx runs fn in a transaction of db and commits it, or aborts it if fn
// fails.
func InTx(db gdi.Database, fn func(tx gdi.Transaction) error) error {
	tx, err := db.StartTransaction()
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		return errors.Join(err, tx.Abort())
	}
	return tx.Commit()
}

// SetDropHook makes f see every commit of sparse drops (sparsedrop.go),
// with whether they were written in place, until the returned function
// is called.
func SetDropHook(f func(inPlace bool)) (restore func()) {
	old := testHookDrops
	testHookDrops = f
	return func() { testHookDrops = old }
}

// SetHeadPatchHook makes f see every holder whose labels and properties
// a commit writes over in place, until the returned function is called.
func SetHeadPatchHook(f func()) (restore func()) {
	old := testHookHeadPatch
	testHookHeadPatch = func(layout.Number) { f() }
	return func() { testHookHeadPatch = old }
}

// SetGuessHook makes f replace the value of every guess of the DHT that
// TranslateVertexID and the ID checks take, until the returned function
// is called.
func SetGuessHook(f func(v uint64) uint64) (restore func()) {
	old := testHookGuess
	testHookGuess = f
	return func() { testHookGuess = old }
}

// SetRereadHook makes f see every plan of sparse drops that reads the
// rest of a primary block for the count, until the returned function is
// called.
func SetRereadHook(f func()) (restore func()) {
	old := testHookReread
	testHookReread = f
	return func() { testHookReread = old }
}

// CheckpointFile returns the path of the file name (a rank file or a
// redo log) of the current checkpoint in dir.
func CheckpointFile(dir, name string) (string, error) {
	m, err := readManifest(dir)
	if err != nil {
		return "", err
	}
	return filepath.Join(checkpoint.GenDir(dir, m.Generation), name), nil
}

// ResealManifest rewrites the manifest of dir with edit applied to its
// JSON, sealed again, for tests of the checks behind the checksum.
func ResealManifest(dir string, edit func(js string) string) error {
	path := filepath.Join(dir, checkpoint.ManifestName)
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	js, err := checkpoint.Open(path, raw)
	if err != nil {
		return err
	}
	var m manifest
	if err := json.Unmarshal([]byte(edit(string(js))), &m); err != nil {
		return err
	}
	b, err := sealManifest(&m)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// SetFS makes f the file system of checkpoints and logs until restore is
// called.
func SetFS(f vfs.FS) (restore func()) {
	old := fsys
	fsys = f
	return func() { fsys = old }
}

// CopyTree copies the directory from, with everything below it, to to.
func CopyTree(from, to string) error {
	return filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
}

// FreeBlocks returns the number of free blocks of the calling rank.
func FreeBlocks(db *Database) (int, error) { return db.st.Pool().FreeBlocks(db.rank) }

// FlushLog makes the rank's redo log durable.
func FlushLog(db *Database) error { return db.log.Flush() }

// LogModeOf returns the mode of db's redo log.
func LogModeOf(db *Database) LogMode { return db.params.Log }

// SetReplayRound sets the records per round of a replay until restore is
// called.
func SetReplayRound(n int) (restore func()) {
	old := replayRound
	replayRound = n
	return func() { replayRound = old }
}

// AutoCheckpointErr returns the error of the last automatic checkpoint
// round on rank 0, and whether a round is under way.
func AutoCheckpointErr(db *Database) (error, bool) {
	a := db.auto
	if a == nil {
		return nil, false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.lastErr, a.running
}

// CurrentGeneration returns the generation of the current checkpoint in
// dir.
func CurrentGeneration(dir string) (uint64, error) {
	m, err := readManifest(dir)
	if err != nil {
		return 0, err
	}
	return m.Generation, nil
}

// InjectCritical makes tx meet a transaction-critical error, for the
// conformance case of one in a collective transaction.
func InjectCritical(tx gdi.Transaction) error {
	t := tx.(*Transaction)
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.fail("injected by the test")
}

// SetAsyncLogInterval makes the async logs created from now on write
// and sync every d, until restore is called.
func SetAsyncLogInterval(d time.Duration) (restore func()) {
	old := asyncLogInterval
	asyncLogInterval = d
	return func() { asyncLogInterval = old }
}

// SetAutoCopyHook makes every rank of an automatic checkpoint round call
// hook just before (copied false) and after it copies its data window,
// until restore is called.
func SetAutoCopyHook(hook func(rank int, copied bool)) (restore func()) {
	old := testHookCopy
	testHookCopy = hook
	return func() { testHookCopy = old }
}

// WantAutoCheckpoint asks for an automatic checkpoint round, as a log
// past its bound does.
func WantAutoCheckpoint(db *Database) { db.auto.want() }

// HomeOf returns the rank of the primary block of the vertex uid names.
func HomeOf(db *Database, uid gdi.VertexUID) (int, error) {
	n, err := db.st.number(uint64(uid), vertexKind)
	return n.Holder().Rank(), err
}
