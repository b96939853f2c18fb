package gdirma

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/internal/vfs"
	"github.com/gdi-go/gdi/rma"
)

// The redo log (see "Redo log" in doc.go).

// LogMode is the mode of a database's redo log (Params.Log).
type LogMode string

// Modes of the redo log.
const (
	// LogOff keeps no log: a crash loses everything after the last
	// checkpoint. The zero value.
	LogOff LogMode = ""
	// LogAsync appends each commit's record to a buffer that a background
	// goroutine writes and syncs every AsyncLogInterval: a crash loses at
	// most the commits of the last interval, and recovery keeps a prefix
	// of the commits in their global order.
	LogAsync LogMode = "async"
	// LogSync makes each commit's record durable (written and
	// fdatasync'ed) before the commit is acknowledged; commits of several
	// goroutines of a rank share one sync (group commit).
	LogSync LogMode = "sync"
)

// AsyncLogInterval is how often an async log is written and synced.
const AsyncLogInterval = 10 * time.Millisecond

// AsyncMaxLag bounds what an async log may lose: a commit is acknowledged
// at once only while every record queued before it is younger than this;
// past that it first waits until they are durable (see "Redo log" in
// doc.go).
const AsyncMaxLag = 100 * time.Millisecond

// ParseLogMode reads a mode: "off" (or ""), "async" or "sync".
func ParseLogMode(s string) (LogMode, error) {
	switch LogMode(s) {
	case LogOff, "off":
		return LogOff, nil
	case LogAsync, LogSync:
		return LogMode(s), nil
	}
	return LogOff, gdi.Errorf(gdi.ErrArgument, "gdirma: redo log mode %q: want off, async or sync", s)
}

// Log files: a header, then records.
//
//	header  "GDIRMALG", format, rank, ranks, mode (0 sync, 1 async)
//	        (uint32 each), base (uint64: the sequence number of the
//	        checkpoint the log follows), CRC-32C of all of it (uint32)
//	record  payload length, CRC-32C of the payload, CRC-32C of these
//	        two words (uint32 each), then the payload:
//	        sequence number (uint64), type (byte), and for recWrites a
//	        count (uint32) of writes, each rank (uint32), offset (uint64),
//	        length (uint32) and bytes; for recDelta a catalog.Delta as
//	        JSON (recCatalog, the whole catalog, in older logs); recSeal
//	        has nothing more
//
// Every write of records ends with a seal record, so that the last record
// with data is always followed by a whole record: damage to it is told
// from a torn write (see readLog).
//
// all little-endian.
const (
	logMagic      = "GDIRMALG"
	logFormat     = 1
	logHeaderSize = len(logMagic) + 4*4 + 8 + 4
	recHeaderSize = 12
	recWrites     = 1
	recCatalog    = 2 // the whole catalog (logs of older versions)
	recDelta      = 3 // a catalog.Delta
	recSeal       = 4 // the end of a write: no data, sequence number 0
	// maxRecord bounds a record's length: a larger one is corrupt.
	maxRecord = 1 << 30
)

// logFileName is the name of rank r's log in the log directory.
func logFileName(r int) string { return fmt.Sprintf("rank-%d.log", r) }

// redoLog is a rank's log: the store's redoHook when the log is on.
//
// Records are appended under mu, numbered there, so they reach the file
// in the order of their numbers. One goroutine at a time (busy) writes
// what is pending and syncs it, with mu released. A write that fails
// leaves the file cut back to size, the end of its last whole record, as
// soon as a truncate succeeds (cut says it has not yet): so a failed
// write is never followed by records, and an error is not permanent.
type redoLog struct {
	mode        LogMode
	rank, ranks int
	ctl         rma.Window // word ctlLogSeq of rank 0 numbers the records

	mu      sync.Mutex
	cond    sync.Cond
	path    string
	f       vfs.File
	size    int64        // bytes of whole records written and synced
	cut     bool         // the file may hold part of a failed write past size
	pending []byte       // records not yet written
	waiters []*logWaiter // sync mode: the appenders of the records in pending
	// oldest is when the oldest record not yet synced was queued (pending
	// or in a write under way), and pendingSince the oldest pending one;
	// zero if there is none.
	oldest, pendingSince time.Time
	busy                 bool  // a goroutine writes and syncs
	err                  error // the error of the last write, until one succeeds
	// stale is set when the log no longer follows the checkpoint in the
	// log directory, because a call that wrote holders outside commits
	// could not checkpoint: commits fail until a checkpoint succeeds.
	stale error
	gen   uint64 // the generation of the current segment
	// limit is the size of a segment past which full is called, once.
	limit  int64
	full   func()
	wanted bool
	// overBound is set while the segment is past admitFactor times limit.
	overBound atomic.Bool
	gate      sync.RWMutex // see hold and roll
	spare     []byte
	stop      chan struct{}
	done      chan struct{}
}

// logWaiter is a sync-mode appender waiting for its record's outcome.
type logWaiter struct {
	done bool
	err  error
}

// openRedoLog makes the rank's log object; its file comes with the first
// checkpoint to the log directory (prepare, then follow).
func openRedoLog(st *store, mode LogMode) *redoLog {
	l := &redoLog{mode: mode, rank: st.rank, ranks: st.size, ctl: st.ctl}
	l.cond.L = &l.mu
	if mode == LogAsync {
		l.stop, l.done = make(chan struct{}), make(chan struct{})
		go l.flusher()
	}
	return l
}

// commit is the redo hook: it appends the commit's writes as a record
// numbered with the next global sequence number; in sync mode it returns
// once the record is durable.
func (l *redoLog) commit(writes []dataWrite) error {
	n := 8 + 1 + 4
	for _, w := range writes {
		n += 16 + len(w.b)
	}
	p := make([]byte, recHeaderSize+8, recHeaderSize+n)
	p = append(p, recWrites)
	p = binary.LittleEndian.AppendUint32(p, uint32(len(writes)))
	for _, w := range writes {
		p = binary.LittleEndian.AppendUint32(p, uint32(w.rank))
		p = binary.LittleEndian.AppendUint64(p, uint64(w.off))
		p = binary.LittleEndian.AppendUint32(p, uint32(len(w.b)))
		p = append(p, w.b...)
	}
	return l.append(p)
}

// logCatalog appends a record with the catalog delta js (rank 0, after a
// collective metadata change): in sync mode durable when it returns.
func (l *redoLog) logCatalog(js []byte) error {
	defer l.hold()()
	p := make([]byte, recHeaderSize+8, recHeaderSize+9+len(js))
	p = append(p, recDelta)
	p = append(p, js...)
	return l.append(p)
}

// sealBytes is the seal record that ends every write.
var sealBytes = sealRecord(append(make([]byte, recHeaderSize+8), recSeal), 0)

// sealRecord numbers the record p (recHeaderSize bytes of header, then the
// payload, which starts with room for the sequence number) with seq and
// fills in its header.
func sealRecord(p []byte, seq uint64) []byte {
	payload := p[recHeaderSize:]
	binary.LittleEndian.PutUint64(payload, seq)
	binary.LittleEndian.PutUint32(p, uint32(len(payload)))
	binary.LittleEndian.PutUint32(p[4:], crc32.Checksum(payload, castagnoli))
	binary.LittleEndian.PutUint32(p[8:], crc32.Checksum(p[:8], castagnoli))
	return p
}

// append numbers the record rec (see sealRecord) and queues it. In sync
// mode it returns once the record is durable, writing and syncing itself
// if no other goroutine is (group commit: one sync covers every record
// queued before it started), or with the write's error: the record is then
// dropped. In async mode it returns at once, but first waits for the
// records queued before if the oldest is older than AsyncMaxLag, or if the
// last write failed: a record it queues stays queued until written.
func (l *redoLog) append(rec []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.f == nil:
		return gdi.Errorf(gdi.ErrIntern, "gdirma: redo log of rank %d is closed", l.rank)
	case l.stale != nil:
		return l.stale
	}
	if l.mode == LogAsync && (l.err != nil || !l.oldest.IsZero() && time.Since(l.oldest) > AsyncMaxLag) {
		if err := l.flushLocked(); err != nil {
			return err
		}
	}
	seq, err := l.ctl.FetchAndAdd(0, ctlLogSeq, 1)
	if err != nil {
		return internal(err)
	}
	if len(l.pending) == 0 {
		l.pendingSince = time.Now()
		if l.oldest.IsZero() {
			l.oldest = l.pendingSince
		}
	}
	l.pending = append(l.pending, sealRecord(rec, seq+1)...)
	if size := l.size + int64(len(l.pending)); l.limit > 0 && size > l.limit {
		if !l.wanted {
			l.wanted = true
			l.full()
		}
		if size > admitFactor*l.limit {
			l.overBound.Store(true)
		}
	}
	if l.mode != LogSync {
		return nil
	}
	w := &logWaiter{}
	l.waiters = append(l.waiters, w)
	for !w.done {
		if l.busy {
			l.cond.Wait()
			continue
		}
		_ = l.writeLocked() // its outcome is w's
	}
	return w.err
}

// writeLocked writes and syncs what is pending, with l.mu released during
// the I/O, first cutting the file back to size if a write failed before.
// If the write fails, the file is cut back again at once where possible;
// in sync mode the records written are dropped, and their appenders get
// the error; in async mode they stay pending, for the next write. The
// caller holds l.mu, and l.busy is false.
func (l *redoLog) writeLocked() error {
	if len(l.pending) == 0 && !l.cut {
		return nil
	}
	l.busy = true
	buf, ws, f, size, cut := l.pending, l.waiters, l.f, l.size, l.cut
	l.pendingSince = time.Time{}
	queued := len(buf)
	if queued > 0 {
		buf = append(buf, sealBytes...)
	}
	l.pending, l.spare, l.waiters = l.spare[:0], nil, nil
	l.mu.Unlock()
	cut, err := writeOut(f, buf, size, cut)
	l.mu.Lock()
	l.busy, l.cut = false, cut
	if err != nil {
		l.err = logFileErr(l.path, err)
		if l.mode == LogAsync && queued > 0 {
			l.pending = append(buf[:queued], l.pending...)
			l.pendingSince = l.oldest
		}
	} else {
		l.size += int64(len(buf))
		l.err = nil
		l.spare = buf[:0]
		l.oldest = l.pendingSince
	}
	for _, w := range ws {
		w.done, w.err = true, l.err
	}
	l.cond.Broadcast()
	return l.err
}

// writeOut cuts f back to size if cut is set, then appends buf and syncs.
// If that fails, it cuts the failed write off at once, so that a crash
// before the next write finds no record of a commit that failed. It
// returns whether f may still hold bytes past size.
func writeOut(f vfs.File, buf []byte, size int64, cut bool) (bool, error) {
	if cut {
		if err := f.Truncate(size); err != nil {
			return true, err
		}
		if len(buf) == 0 {
			err := f.Sync()
			return err != nil, err
		}
	}
	_, err := f.Write(buf)
	if err == nil {
		err = f.Sync()
	}
	if err != nil {
		return f.Truncate(size) != nil || f.Sync() != nil, err
	}
	return false, nil
}

// flush makes every queued record durable.
func (l *redoLog) flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.flushLocked()
}

func (l *redoLog) flushLocked() error {
	for {
		switch {
		case l.busy:
			l.cond.Wait()
		case len(l.pending) == 0 && !l.cut:
			return nil
		default:
			if err := l.writeLocked(); err != nil {
				return err
			}
		}
	}
}

// flusher writes an async log every AsyncLogInterval.
func (l *redoLog) flusher() {
	defer close(l.done)
	t := time.NewTicker(AsyncLogInterval)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
		}
		l.mu.Lock()
		if !l.busy && l.f != nil {
			_ = l.writeLocked() // kept in l.err for the next commit
		}
		l.mu.Unlock()
	}
}

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

// close makes the log durable and closes it.
func (l *redoLog) close() error {
	err := l.flush()
	if l.stop != nil {
		close(l.stop)
		<-l.done
		l.stop = nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f != nil {
		if cerr := l.f.Close(); err == nil && cerr != nil {
			err = logFileErr(l.path, cerr)
		}
		l.f = nil
	}
	return err
}

func logHeader(rank, ranks int, mode LogMode, base uint64) []byte {
	h := []byte(logMagic)
	m := 0
	if mode == LogAsync {
		m = 1
	}
	for _, x := range []int{logFormat, rank, ranks, m} {
		h = binary.LittleEndian.AppendUint32(h, uint32(x))
	}
	h = binary.LittleEndian.AppendUint64(h, base)
	return binary.LittleEndian.AppendUint32(h, crc32.Checksum(h, castagnoli))
}

// logFileErr is fileErr for a log file.
func logFileErr(path string, err error) error {
	e := fileErr(path, err)
	var ge *gdi.Error
	if errors.As(e, &ge) {
		ge.Msg = "gdirma: redo log file " + ge.Msg[len("gdirma: checkpoint file "):]
	}
	return e
}
