package gdirma

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/internal/vfs"
	"github.com/gdi-go/gdi/rma"
)

// The redo log.
//
// With Params.Log = LogSync or LogAsync, every commit is also appended to
// a redo log, so a database survives the crash of a process (or of all):
// CreateDatabase with Params.Restore and Params.LogDir loads a checkpoint
// and replays the logs written after it.
//
//   - What is logged: the commit's writes to the data window of the block
//     pool, as they are made (the redo hook, staged.go): whole holder
//     images, in-place head rewrites, the cleared markers of new and of
//     deleted holders. These are physical records (block images), not
//     logical ones (create vertex, add edge). The choice: the holders are
//     the whole state of the graph, and everything else (the implicit
//     index, the explicit index trees, the free lists, the counters) is a
//     function of them, rebuilt on recovery. Replaying images needs no
//     second implementation of the commit logic, cannot fail on a uniqueness
//     check or a full pool, and does not depend on UIDs (block numbers)
//     being handed out again in the same order, which logical replay on
//     several ranks could not promise; commits already write whole images,
//     so the log costs a copy of what is written anyway. The price is
//     size: a change to a vertex of high degree logs its whole image.
//   - Order: a record carries a global sequence number, taken with one
//     FetchAndAdd on a word of rank 0's control window, inside the hook,
//     while the commit still holds its write locks. Two commits that write
//     the same holder hold its write lock in turn, so their numbers are in
//     the order of their writes. Blocks are reused only after the freeing
//     commit has dropped its locks and given them back, so a commit that
//     writes a reused block took its number after the freeing one. A
//     commit that read another's data took its number after that one
//     released its locks. So replaying in number order writes every byte
//     in the order the live database did.
//   - Files: each rank appends to rank-<r>.log, a segment, in a
//     generation directory of LogDir: a header (rank, ranks, mode, and the
//     sequence number it starts after; for the first segment of a quiet
//     checkpoint, the manifest's exactly), then records of a length, a CRC-32C of the
//     payload and a CRC-32C of the record header. A rank numbers its
//     records under its log's lock, so they are in the file in the order
//     of their numbers, and every write ends with a seal record, which
//     holds no data. A bad record that no whole record follows is a torn
//     tail (a write a crash cut short) and ignored. A bad record with a
//     whole record after it is an error (ErrFileFormat naming the file
//     and offset): silently stopping at the damage would drop commits
//     after it that were acknowledged. The seal makes that hold for the
//     last record with data too; damage to the last seal is harmless.
//   - Write-ahead: a commit's writes to the data window are staged
//     (staged.go) and logged before they are published, all while the
//     commit holds its write locks. If the log refuses the record, apply
//     undoes its other steps (the keys of the implicit index, the blocks,
//     the explicit indexes) and the commit fails with
//     ErrTransactionCommitFail, having changed nothing.
//   - Sync: the hook returns (and the commit is published, acknowledged,
//     and its locks dropped) only after the record is written and
//     fdatasync'ed. Goroutines of a rank that commit at once share one
//     sync (group commit). If the write or the sync fails, the commits of
//     that group fail and the file is cut back to its last whole record,
//     at once or before the next write, so a failure is not permanent:
//     once the disk has room, the next commit succeeds.
//   - Async: records go to a buffer that a goroutine writes and syncs
//     every AsyncLogInterval (and Checkpoint and Free flush it); a commit
//     is acknowledged once its record is in the buffer. What a crash may
//     lose: the commits whose records were not yet synced. A commit is
//     acknowledged at once only while the oldest record in the buffer is
//     younger than AsyncMaxLag (100 ms) and the last write succeeded;
//     otherwise it first writes and syncs the buffer itself, and fails if
//     that fails (a record in the buffer stays there until written). So
//     the commits a crash loses were all acknowledged within AsyncMaxLag
//     of each other, at the end, and recovery keeps a prefix of the
//     commits in their global order.
//   - Recovery: every rank reads its log; records numbered up to the
//     checkpoint's (manifest LogSeq) are skipped. With sync logs every
//     record is replayed: a number missing from the logs belongs to a
//     commit that was never acknowledged and that no logged commit depends
//     on (it would have had to wait for its locks, taken after the sync).
//     With async logs a lost record may have successors that depend on it,
//     so replay stops before the first missing number: a prefix of the
//     commits in their order, which is a state the database was in. The
//     logs are read record by record, twice: once for the numbers and the
//     catalog changes, then in rounds of at most 4096 records per rank,
//     each bounded by the least last number of the ranks' full rounds. In
//     each round every rank gets the writes to its part of the data
//     window (Alltoallv) and applies them in number order; a rank holds
//     one round of its log in memory. Then the derived state is rebuilt
//     from the holders: the blocks of the chains of all primary blocks are
//     in use and the rest free (bgdl.Pool.Rebuild), the high-water marks
//     follow, each rank's commit counter is raised above every version in
//     use, the DHT is cleared and every (label, ID) of every vertex
//     inserted again, and every index tree is built again.
//   - Metadata: every collective change of labels, property types and
//     indexes ends by reporting its delta to the catalog's change hook
//     (internal/catalog/change.go), which appends it to rank 0's log,
//     synced in sync mode, before the call returns on any rank; replay
//     applies the deltas to the checkpoint's catalog. The collective
//     calls that write holders outside commits (BulkLoad, the CSV
//     loaders, FreeLabel, FreePropertyType, UpdatePropertyType) are quiet
//     anyway, and end, with the log on, by a checkpoint to LogDir; so do
//     CreateDatabase (the base the log follows) and a restore with the
//     log on (which also discards a torn tail and, after an async log,
//     records beyond a gap).
//   - Segments: a restore replays the segment of the manifest's LogFrom
//     generation and of every later one, in order, as one log.
//     Checkpoint(LogDir) with the log on flushes the logs, records the
//     sequence number it covers, and starts each rank's log anew in the
//     new generation (created and synced, name included, before the commit
//     point, followed once the checkpoint is current). A checkpoint to
//     another directory leaves the log alone.
//   - Bound: once a rank's segment passes Params.LogCheckpointSize, the
//     database takes an automatic checkpoint while commits go on
//     (autockpt.go): the ranks roll to new segments, copy their data
//     windows, and rank 0 makes a fuzzy manifest current, whose restore
//     replays the records after the least number the copies hold and then
//     derives the rest from the holders. Commits wait, a second at most,
//     while a segment is past four times the bound. Calls that write
//     holders outside commits, Checkpoint and Free hold rounds off. If the checkpoint that ends a call writing
//     holders outside commits fails, the log no longer covers the
//     database: commits fail until a Checkpoint to LogDir succeeds.
//   - Restore replays the logs beside the checkpoint only when
//     Params.LogDir is the Restore directory; a restore from a directory
//     whose logs hold commits after the checkpoint, without that, fails
//     (ErrArgument naming the log) rather than silently dropping them.
//   - Caveats: LogDir must be reachable by every rank, as for
//     checkpoints. A missing log file counts as an empty log. If the
//     process dies between a failed sync and the cut of the failed write,
//     a commit that reported failure may be found after the restore.

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
// past that it first waits until they are durable (see "The redo log"
// above).
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
