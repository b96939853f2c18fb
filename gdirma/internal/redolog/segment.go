package redolog

import (
	"path/filepath"
	"time"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/internal/vfs"
)

// Prepare creates the log file path that follows the checkpoint with
// sequence number base: its header, synced. The log goes on in its
// current file until Follow.
func (l *Log) Prepare(path string, base uint64) (vfs.File, error) {
	f, err := l.FS().Create(path)
	if err != nil {
		return nil, logFileErr(path, err)
	}
	_, err = f.Write(logHeader(l.Rank, l.Ranks, l.Async, base))
	if err == nil {
		err = f.Sync()
	}
	if err == nil {
		// Commits acknowledged in it must not lose it with its name.
		err = l.FS().SyncDir(filepath.Dir(path))
	}
	if err != nil {
		_ = f.Close()
		return nil, logFileErr(path, err)
	}
	return f, nil
}

// Follow makes f, made by Prepare, the log's file, the segment of
// generation gen: after a quiet checkpoint once it is the current one, or
// when a checkpoint taken while commits run switches segments (Roll).
// Nothing is pending: the log was flushed, and no record is appended
// meanwhile.
func (l *Log) Follow(path string, f vfs.File, gen uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.busy {
		l.cond.Wait()
	}
	if l.f != nil {
		_ = l.f.Close()
	}
	l.path, l.f, l.size, l.gen = path, f, int64(HeaderSize), gen
	l.cut, l.err, l.wanted = false, nil, false
	l.overBound.Store(false)
	l.pending, l.waiters = l.pending[:0], nil
}

// ClearStale ends the failures of SetStale, after a checkpoint to the log
// directory.
func (l *Log) ClearStale() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stale = nil
}

// Hold keeps the log from switching segments (Roll) until the function it
// returns is called: a commit holds it from before its record is
// appended until its writes are published.
func (l *Log) Hold() (release func()) {
	l.gate.RLock()
	return l.gate.RUnlock
}

// Admit holds back a commit, before it holds the log (Hold), while the
// rank's segment is past admitFactor times its bound and an automatic
// checkpoint is wanted: so the log stays bounded when commits outrun the
// checkpoints. It waits at most admitWait, then lets the commit go.
func (l *Log) Admit() {
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

// Roll switches the log to a new segment at path, of generation gen, once
// every commit of the rank that appended to the old one has published its
// writes. It returns the sequence number of the rank's last record in the
// old segment (every later record has a greater one) and the old
// segment's generation.
func (l *Log) Roll(path string, gen uint64) (last, oldGen uint64, err error) {
	l.gate.Lock()
	defer l.gate.Unlock()
	if err := l.Flush(); err != nil {
		return 0, 0, err
	}
	if last, err = l.Seq.AtomicGet(0, l.SeqOffset); err != nil {
		return 0, 0, gdi.Errorf(gdi.ErrIntern, "gdirma: redo log: %v", err)
	}
	f, err := l.Prepare(path, last)
	if err != nil {
		return 0, 0, err
	}
	oldGen = l.gen
	l.Follow(path, f, gen)
	return last, oldGen, nil
}

// SetStale makes commits fail with err until the next checkpoint to the
// log directory.
func (l *Log) SetStale(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stale = gdi.Errorf(gdi.ErrTransactionCommitFail, "gdirma: the redo log does not cover a change made outside transactions, whose checkpoint failed (%v): commits fail until a Checkpoint to the log directory succeeds", err)
}

// SetLimit makes the log call full, once, when its segment passes limit
// bytes (0: never), and hold commits back past admitFactor times limit
// (Admit).
func (l *Log) SetLimit(limit int64, full func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.limit, l.full = limit, full
}
