package redolog

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/internal/vfs"
	"github.com/gdi-go/gdi/rma"
)

// AsyncLogInterval is how often an async log is written and synced.
const AsyncLogInterval = 10 * time.Millisecond

// AsyncMaxLag bounds what an async log may lose: a commit is acknowledged
// at once only while every record queued before it is younger than this;
// past that it first waits until they are durable.
const AsyncMaxLag = 100 * time.Millisecond

// castagnoli is the table of the CRC-32C checksums of headers and records.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Log files: a header, then records.
//
//	header  "GDIRMALG", format, rank, ranks, mode (0 sync, 1 async)
//	        (uint32 each), base (uint64: the sequence number of the
//	        checkpoint the log follows), CRC-32C of all of it (uint32)
//	record  payload length, CRC-32C of the payload, CRC-32C of these
//	        two words (uint32 each), then the payload:
//	        sequence number (uint64), type (byte), and for RecWrites a
//	        count (uint32) of writes, each rank (uint32), offset (uint64),
//	        length (uint32) and bytes; for RecDelta a catalog.Delta as
//	        JSON (RecCatalog, the whole catalog, in older logs); RecSeal
//	        has nothing more
//
// Every write of records ends with a seal record, so that the last record
// with data is always followed by a whole record: damage to it is told
// from a torn write (see ReadLog).
//
// all little-endian. The record types and sizes are exported for tests
// that damage files on purpose.
const (
	logMagic         = "GDIRMALG"
	logFormat        = 1
	HeaderSize       = len(logMagic) + 4*4 + 8 + 4
	RecordHeaderSize = 12
	RecWrites        = 1
	RecCatalog       = 2 // the whole catalog (logs of older versions)
	RecDelta         = 3 // a catalog.Delta
	RecSeal          = 4 // the end of a write: no data, sequence number 0
	// maxRecord bounds a record's length: a larger one is corrupt.
	maxRecord = 1 << 30
)

// FileName is the name of rank r's log in the log directory.
func FileName(r int) string { return fmt.Sprintf("rank-%d.log", r) }

// Log is a rank's log: the store's redoHook when the log is on.
//
// Records are appended under mu, numbered there, so they reach the file
// in the order of their numbers. One goroutine at a time (busy) writes
// what is pending and syncs it, with mu released. A write that fails
// leaves the file cut back to size, the end of its last whole record, as
// soon as a truncate succeeds (cut says it has not yet): so a failed
// write is never followed by records, and an error is not permanent.
type Log struct {
	Config

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
	gate      sync.RWMutex // see Hold and Roll
	spare     []byte
	stop      chan struct{}
	done      chan struct{}
}

// logWaiter is a sync-mode appender waiting for its record's outcome.
type logWaiter struct {
	done bool
	err  error
}

// Config is what a rank's log needs to know.
type Config struct {
	Rank, Ranks int
	// Async: commits are acknowledged once their records are queued, not
	// once they are durable (see Log).
	Async bool
	// Seq is the window whose word SeqOffset of rank 0 numbers the
	// records of all ranks (FetchAndAdd).
	Seq       rma.Window
	SeqOffset int
	// FS returns the file system of the log files, at each use.
	FS func() vfs.FS
	// Interval is how often an async log is written and synced;
	// AsyncLogInterval if 0.
	Interval time.Duration
}

// Open makes the rank's log; its file comes with the first checkpoint to
// the log directory (Prepare, then Follow).
func Open(c Config) *Log {
	l := &Log{Config: c}
	l.cond.L = &l.mu
	if c.Async {
		l.stop, l.done = make(chan struct{}), make(chan struct{})
		go l.flusher()
	}
	return l
}

// Commit is gdirma's redo hook: it appends a commit's writes as a record
// numbered with the next global sequence number; in sync mode it returns
// once the record is durable.
func (l *Log) Commit(writes []Write) error {
	n := 8 + 1 + 4
	for _, w := range writes {
		n += 16 + len(w.B)
	}
	p := make([]byte, RecordHeaderSize+8, RecordHeaderSize+n)
	p = append(p, RecWrites)
	p = binary.LittleEndian.AppendUint32(p, uint32(len(writes)))
	for _, w := range writes {
		p = binary.LittleEndian.AppendUint32(p, uint32(w.Rank))
		p = binary.LittleEndian.AppendUint64(p, uint64(w.Off))
		p = binary.LittleEndian.AppendUint32(p, uint32(len(w.B)))
		p = append(p, w.B...)
	}
	return l.append(p)
}

// LogCatalog appends a record with the catalog delta js (rank 0, after a
// collective metadata change): in sync mode durable when it returns.
func (l *Log) LogCatalog(js []byte) error {
	defer l.Hold()()
	p := make([]byte, RecordHeaderSize+8, RecordHeaderSize+9+len(js))
	p = append(p, RecDelta)
	p = append(p, js...)
	return l.append(p)
}

// sealBytes is the seal record that ends every write.
var sealBytes = sealRecord(append(make([]byte, RecordHeaderSize+8), RecSeal), 0)

// sealRecord numbers the record p (recHeaderSize bytes of header, then the
// payload, which starts with room for the sequence number) with seq and
// fills in its header.
func sealRecord(p []byte, seq uint64) []byte {
	payload := p[RecordHeaderSize:]
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
func (l *Log) append(rec []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.f == nil:
		return gdi.Errorf(gdi.ErrIntern, "gdirma: redo log of rank %d is closed", l.Rank)
	case l.stale != nil:
		return l.stale
	}
	if l.Async && (l.err != nil || !l.oldest.IsZero() && time.Since(l.oldest) > AsyncMaxLag) {
		if err := l.flushLocked(); err != nil {
			return err
		}
	}
	seq, err := l.Seq.FetchAndAdd(0, l.SeqOffset, 1)
	if err != nil {
		return gdi.Errorf(gdi.ErrIntern, "gdirma: redo log: %v", err)
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
	if l.Async {
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
func (l *Log) writeLocked() error {
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
		if l.Async && queued > 0 {
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

// Flush makes every queued record durable.
func (l *Log) Flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.flushLocked()
}

func (l *Log) flushLocked() error {
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

// flusher writes an async log every Interval.
func (l *Log) flusher() {
	defer close(l.done)
	t := time.NewTicker(cmp.Or(l.Interval, AsyncLogInterval))
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

// Close makes the log durable and closes it.
func (l *Log) Close() error {
	err := l.Flush()
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

func logHeader(rank, ranks int, async bool, base uint64) []byte {
	h := []byte(logMagic)
	m := 0
	if async {
		m = 1
	}
	for _, x := range []int{logFormat, rank, ranks, m} {
		h = binary.LittleEndian.AppendUint32(h, uint32(x))
	}
	h = binary.LittleEndian.AppendUint64(h, base)
	return binary.LittleEndian.AppendUint32(h, crc32.Checksum(h, castagnoli))
}

// logFileErr names a file error of a log as a gdi error.
func logFileErr(path string, err error) error { return vfs.Error("gdirma: redo log file", path, err) }

// Write is one write of a commit to the data window: bytes B at offset
// Off of rank Rank's part.
type Write struct {
	Rank, Off int
	B         []byte
}
