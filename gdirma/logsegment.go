package gdirma

import (
	"path/filepath"
	"time"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/internal/vfs"
)

// prepare creates the log file path that follows the checkpoint with
// sequence number base: its header, synced. The log goes on in its
// current file until follow.
func (l *redoLog) prepare(path string, base uint64) (vfs.File, error) {
	f, err := fsys.Create(path)
	if err != nil {
		return nil, logFileErr(path, err)
	}
	_, err = f.Write(logHeader(l.rank, l.ranks, l.mode, base))
	if err == nil {
		err = f.Sync()
	}
	if err == nil {
		// Commits acknowledged in it must not lose it with its name.
		err = fsys.SyncDir(filepath.Dir(path))
	}
	if err != nil {
		_ = f.Close()
		return nil, logFileErr(path, err)
	}
	return f, nil
}

// follow makes f, made by prepare, the log's file, the segment of
// generation gen: after a quiet checkpoint once it is the current one, or
// when a checkpoint taken while commits run switches segments (roll).
// Nothing is pending: the log was flushed, and no record is appended
// meanwhile.
func (l *redoLog) follow(path string, f vfs.File, gen uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.busy {
		l.cond.Wait()
	}
	if l.f != nil {
		_ = l.f.Close()
	}
	l.path, l.f, l.size, l.gen = path, f, int64(logHeaderSize), gen
	l.cut, l.err, l.wanted = false, nil, false
	l.overBound.Store(false)
	l.pending, l.waiters = l.pending[:0], nil
}

// clearStale ends the failures of setStale, after a checkpoint to the log
// directory.
func (l *redoLog) clearStale() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stale = nil
}

// hold keeps the log from switching segments (roll) until the function it
// returns is called: a commit holds it from before its record is
// appended until its writes are published.
func (l *redoLog) hold() (release func()) {
	l.gate.RLock()
	return l.gate.RUnlock
}

// admit holds back a commit, before it holds the log (hold), while the
// rank's segment is past admitFactor times its bound and an automatic
// checkpoint is wanted: so the log stays bounded when commits outrun the
// checkpoints. It waits at most admitWait, then lets the commit go.
func (l *redoLog) admit() {
	if !l.overBound.Load() {
		return
	}
	end := time.Now().Add(admitWait)
	for l.overBound.Load() && time.Now().Before(end) {
		time.Sleep(100 * time.Microsecond)
	}
}

// How far past its bound a segment may grow before commits wait, and for
// how long at most.
const (
	admitFactor = 4
	admitWait   = time.Second
)

// roll switches the log to a new segment at path, of generation gen, once
// every commit of the rank that appended to the old one has published its
// writes. It returns the sequence number of the rank's last record in the
// old segment (every later record has a greater one) and the old
// segment's generation.
func (l *redoLog) roll(path string, gen uint64) (last, oldGen uint64, err error) {
	l.gate.Lock()
	defer l.gate.Unlock()
	if err := l.flush(); err != nil {
		return 0, 0, err
	}
	if last, err = l.ctl.AtomicGet(0, ctlLogSeq); err != nil {
		return 0, 0, internal(err)
	}
	f, err := l.prepare(path, last)
	if err != nil {
		return 0, 0, err
	}
	oldGen = l.gen
	l.follow(path, f, gen)
	return last, oldGen, nil
}

// setStale makes commits fail with err until the next checkpoint to the
// log directory.
func (l *redoLog) setStale(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stale = gdi.Errorf(gdi.ErrTransactionCommitFail, "gdirma: the redo log does not cover a change made outside transactions, whose checkpoint failed (%v): commits fail until a Checkpoint to the log directory succeeds", err)
}
