package gdirma

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/gdi-go/gdi/gdi"
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
//	        length (uint32) and bytes; for recCatalog the catalog as JSON
//
// all little-endian.
const (
	logMagic      = "GDIRMALG"
	logFormat     = 1
	logHeaderSize = len(logMagic) + 4*4 + 8 + 4
	recHeaderSize = 12
	recWrites     = 1
	recCatalog    = 2
	// maxRecord bounds a record's length: a larger one is corrupt.
	maxRecord = 1 << 30
)

// logFileName is the name of rank r's log in the log directory.
func logFileName(r int) string { return fmt.Sprintf("rank-%d.log", r) }

// redoLog is a rank's log: the store's redoHook when the log is on.
type redoLog struct {
	mode        LogMode
	path        string
	rank, ranks int
	ctl         rma.Window // word ctlLogSeq of rank 0 numbers the records

	mu      sync.Mutex
	cond    sync.Cond
	f       *os.File
	pending []byte // records not yet written
	spare   []byte
	queued  uint64 // records appended to pending, ever
	synced  uint64 // records written and synced
	busy    bool   // a goroutine writes and syncs
	err     error  // sticky: the log is broken
	stop    chan struct{}
	done    chan struct{}
}

// openRedoLog makes the rank's log object; the file is created by rotate.
func openRedoLog(st *store, mode LogMode, dir string) *redoLog {
	l := &redoLog{mode: mode, path: filepath.Join(dir, logFileName(st.rank)), rank: st.rank, ranks: st.size, ctl: st.ctl}
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

// logCatalog appends a record with the catalog state js (rank 0, after a
// collective metadata change), durable in either mode before it returns.
func (l *redoLog) logCatalog(js []byte) error {
	p := make([]byte, recHeaderSize+8, recHeaderSize+9+len(js))
	p = append(p, recCatalog)
	p = append(p, js...)
	if err := l.append(p); err != nil {
		return err
	}
	return l.flush()
}

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

// append numbers the record rec (see sealRecord) and queues it; in sync
// mode it waits until it is durable, writing and syncing itself if no
// other goroutine is (group commit: one sync covers every record queued
// before it started). The sequence number is taken under l.mu, so that
// the rank's records are queued, and so written, in the order of their
// numbers.
func (l *redoLog) append(rec []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return l.err
	}
	if l.f == nil {
		return gdi.Errorf(gdi.ErrIntern, "gdirma: redo log %s is closed", l.path)
	}
	seq, err := l.ctl.FetchAndAdd(0, ctlLogSeq, 1)
	if err != nil {
		return internal(err)
	}
	l.pending = append(l.pending, sealRecord(rec, seq+1)...)
	l.queued++
	if l.mode != LogSync {
		return nil
	}
	mine := l.queued
	for l.synced < mine && l.err == nil {
		if l.busy {
			l.cond.Wait()
			continue
		}
		l.writeLocked()
	}
	return l.err
}

// writeLocked writes and syncs what is pending, with l.mu released during
// the I/O. The caller holds l.mu and l.busy is false.
func (l *redoLog) writeLocked() {
	if len(l.pending) == 0 {
		l.synced = l.queued
		return
	}
	l.busy = true
	buf, upto, f := l.pending, l.queued, l.f
	l.pending, l.spare = l.spare[:0], nil
	l.mu.Unlock()
	_, err := f.Write(buf)
	if err == nil {
		err = unix.Fdatasync(int(f.Fd()))
	}
	l.mu.Lock()
	l.busy = false
	l.spare = buf[:0]
	if err != nil && l.err == nil {
		l.err = logFileErr(l.path, err)
	}
	if err == nil {
		l.synced = upto
	}
	l.cond.Broadcast()
}

// flush makes every queued record durable.
func (l *redoLog) flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.err == nil && l.synced < l.queued {
		if l.busy {
			l.cond.Wait()
			continue
		}
		l.writeLocked()
	}
	return l.err
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
		if !l.busy && l.f != nil && l.err == nil && l.synced < l.queued {
			l.writeLocked()
		}
		l.mu.Unlock()
	}
}

// rotate replaces the log by an empty one that follows the checkpoint
// with sequence number base: the new file is written under a temporary
// name, synced and renamed over the old one.
func (l *redoLog) rotate(base uint64) error {
	if err := l.flush(); err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.busy {
		l.cond.Wait()
	}
	if err := os.MkdirAll(filepath.Dir(l.path), 0o755); err != nil {
		return logFileErr(filepath.Dir(l.path), err)
	}
	tmp := l.path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return logFileErr(tmp, err)
	}
	_, err = f.Write(logHeader(l.rank, l.ranks, l.mode, base))
	if err == nil {
		err = f.Sync()
	}
	if err == nil {
		err = os.Rename(tmp, l.path)
	}
	if err != nil {
		f.Close()
		return logFileErr(l.path, err)
	}
	if d, err := os.Open(filepath.Dir(l.path)); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
	if l.f != nil {
		_ = l.f.Close()
	}
	l.f, l.err = f, nil
	l.pending, l.queued, l.synced = l.pending[:0], 0, 0
	return nil
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

// logContent is what readLog found in a log file.
type logContent struct {
	exists  bool
	base    uint64
	async   bool
	records []logRecord
	// torn is the offset of a torn tail that was ignored, or -1.
	torn int64
}

// logRecord is a record of a log.
type logRecord struct {
	seq    uint64
	typ    byte
	writes []dataWrite // recWrites
	js     []byte      // recCatalog
}

// readLog reads rank's log at path. A missing file is an empty log. The
// records are read up to the end, or to a torn tail: a record that the
// file ends in the middle of (its header or payload incomplete), or a bad
// last record, or a bad record followed only by zero bytes (a file
// extended but not written before a crash). A bad record with other data
// after it is corruption: an error of class ErrFileFormat naming the file
// and the offset, since stopping there would silently drop the commits
// after it.
func readLog(path string, rank, ranks int) (logContent, error) {
	lc := logContent{torn: -1}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return lc, nil
	}
	if err != nil {
		return lc, logFileErr(path, err)
	}
	lc.exists = true
	bad := func(format string, args ...any) error {
		return gdi.Errorf(gdi.ErrFileFormat, "gdirma: redo log file %s: "+format, append([]any{path}, args...)...)
	}
	if len(b) < logHeaderSize {
		// The header is written whole before the file is renamed into
		// place; a shorter file was never a log.
		return lc, bad("%d bytes, shorter than a header", len(b))
	}
	h := b[:logHeaderSize]
	if string(h[:len(logMagic)]) != logMagic {
		return lc, bad("not a gdirma redo log")
	}
	if crc32.Checksum(h[:logHeaderSize-4], castagnoli) != binary.LittleEndian.Uint32(h[logHeaderSize-4:]) {
		return lc, bad("header checksum mismatch (corrupt)")
	}
	u := func(i int) int { return int(binary.LittleEndian.Uint32(h[len(logMagic)+4*i:])) }
	if u(0) != logFormat || u(1) != rank || u(2) != ranks {
		return lc, bad("header says format %d, rank %d of %d; want format %d, rank %d of %d", u(0), u(1), u(2), logFormat, rank, ranks)
	}
	lc.async = u(3) == 1
	lc.base = binary.LittleEndian.Uint64(h[len(logMagic)+16:])
	off := logHeaderSize
	var last uint64
	for off < len(b) {
		rest := b[off:]
		// torn reports whether a bad record at off is a torn tail.
		torn := func(end int) bool {
			return end >= len(b) || len(bytes.TrimLeft(b[end:], "\x00")) == 0
		}
		if len(rest) < recHeaderSize {
			lc.torn = int64(off)
			break
		}
		if crc32.Checksum(rest[:8], castagnoli) != binary.LittleEndian.Uint32(rest[8:]) {
			if torn(off) {
				lc.torn = int64(off)
				break
			}
			return lc, bad("record header at offset %d: checksum mismatch (corrupt)", off)
		}
		n := int(binary.LittleEndian.Uint32(rest))
		if n > maxRecord || n < 9 {
			return lc, bad("record at offset %d: length %d", off, n)
		}
		end := off + recHeaderSize + n
		if end > len(b) {
			lc.torn = int64(off)
			break
		}
		payload := b[off+recHeaderSize : end]
		if crc32.Checksum(payload, castagnoli) != binary.LittleEndian.Uint32(rest[4:]) {
			if torn(end) {
				lc.torn = int64(off)
				break
			}
			return lc, bad("record at offset %d: checksum mismatch (corrupt)", off)
		}
		rec, err := decodeLogRecord(payload)
		if err != nil {
			return lc, bad("record at offset %d: %v", off, err)
		}
		if rec.seq <= last {
			return lc, bad("record at offset %d: sequence number %d after %d", off, rec.seq, last)
		}
		last = rec.seq
		lc.records = append(lc.records, rec)
		off = end
	}
	return lc, nil
}

func decodeLogRecord(p []byte) (logRecord, error) {
	r := logRecord{seq: binary.LittleEndian.Uint64(p), typ: p[8]}
	p = p[9:]
	switch r.typ {
	case recCatalog:
		r.js = p
		return r, nil
	case recWrites:
	default:
		return r, fmt.Errorf("type %d", r.typ)
	}
	if len(p) < 4 {
		return r, errors.New("short")
	}
	cnt := int(binary.LittleEndian.Uint32(p))
	p = p[4:]
	for range cnt {
		if len(p) < 16 {
			return r, errors.New("short")
		}
		w := dataWrite{rank: int(binary.LittleEndian.Uint32(p)), off: int(binary.LittleEndian.Uint64(p[4:]))}
		l := int(binary.LittleEndian.Uint32(p[12:]))
		if l > len(p)-16 {
			return r, errors.New("short")
		}
		w.b = p[16 : 16+l]
		p = p[16+l:]
		r.writes = append(r.writes, w)
	}
	if len(p) != 0 {
		return r, fmt.Errorf("%d bytes after the writes", len(p))
	}
	return r, nil
}
