package redolog

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/internal/vfs"
)

// Reading a redo log (the format is in redolog.go): record by record, so
// that a restore holds a bounded part of a log in memory at a time.

// Record is a record of a log.
type Record struct {
	Seq    uint64
	Type   byte
	Writes []Write // recWrites
	JS     []byte  // recCatalog, recDelta
}

// logReader reads a rank's log file record by record. The records are
// read up to the end, or to a torn tail: a bad record (one the file ends
// in the middle of, or whose checksums do not match) that no whole record
// follows, as a write cut short by a crash leaves it (the rest of the
// write missing, zeros or garbage). A bad record that a whole record
// follows is corruption: an error of class ErrFileFormat naming the file
// and the offset, since stopping there would silently drop the commits
// after it.
type logReader struct {
	path   string
	f      vfs.File
	r      *bufio.Reader
	exists bool
	base   uint64 // the sequence number of the checkpoint the log follows
	async  bool
	off    int64  // of the next record
	last   uint64 // the sequence number of the last record read
	torn   int64  // the offset of a torn tail, or -1
	done   bool
}

// openLog opens rank's log at path and reads its header. A missing file
// is an empty log.
func openLog(fsys vfs.FS, path string, rank, ranks int) (*logReader, error) {
	lr := &logReader{path: path, torn: -1, off: int64(HeaderSize)}
	f, err := fsys.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		lr.done = true
		return lr, nil
	}
	if err != nil {
		return nil, logFileErr(path, err)
	}
	lr.f, lr.r, lr.exists = f, bufio.NewReaderSize(f, 1<<20), true
	h := make([]byte, HeaderSize)
	if n, err := io.ReadFull(lr.r, h); err != nil {
		// The header is written whole before the log is used; a shorter
		// file was never a log.
		lr.close()
		return nil, lr.bad("%d bytes, shorter than a header", n)
	}
	if string(h[:len(logMagic)]) != logMagic {
		lr.close()
		return nil, lr.bad("not a gdirma redo log")
	}
	if crc32.Checksum(h[:HeaderSize-4], castagnoli) != binary.LittleEndian.Uint32(h[HeaderSize-4:]) {
		lr.close()
		return nil, lr.bad("header checksum mismatch (corrupt)")
	}
	u := func(i int) int { return int(binary.LittleEndian.Uint32(h[len(logMagic)+4*i:])) }
	if u(0) != logFormat || u(1) != rank || u(2) != ranks {
		lr.close()
		return nil, lr.bad("header says format %d, rank %d of %d; want format %d, rank %d of %d", u(0), u(1), u(2), logFormat, rank, ranks)
	}
	lr.async = u(3) == 1
	lr.base = binary.LittleEndian.Uint64(h[len(logMagic)+16:])
	return lr, nil
}

func (lr *logReader) bad(format string, args ...any) error {
	return gdi.Errorf(gdi.ErrFileFormat, "gdirma: redo log file %s: "+format, append([]any{lr.path}, args...)...)
}

func (lr *logReader) close() {
	if lr.f != nil {
		_ = lr.f.Close()
		lr.f = nil
	}
	lr.done = true
}

// next returns the next record with data, or ok false at the end of the
// log (or at a torn tail, which lr.torn then gives).
func (lr *logReader) next() (rec Record, ok bool, err error) {
	for !lr.done {
		hdr := make([]byte, RecordHeaderSize)
		n, err := io.ReadFull(lr.r, hdr)
		switch {
		case n == 0 && errors.Is(err, io.EOF):
			lr.close()
			return rec, false, nil
		case err != nil && !errors.Is(err, io.ErrUnexpectedEOF):
			return rec, false, logFileErr(lr.path, err)
		case err != nil:
			return rec, false, lr.badRecord(hdr[:n], "incomplete header")
		}
		size, why := recordSize(hdr)
		if why != "" {
			return rec, false, lr.badRecord(hdr, why)
		}
		b := append(hdr, make([]byte, size)...)
		if n, err := io.ReadFull(lr.r, b[RecordHeaderSize:]); err != nil {
			if !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
				return rec, false, logFileErr(lr.path, err)
			}
			return rec, false, lr.badRecord(b[:RecordHeaderSize+n], "incomplete payload")
		}
		payload := b[RecordHeaderSize:]
		if !payloadOK(hdr, payload) {
			return rec, false, lr.badRecord(b, "checksum mismatch")
		}
		if rec, err = decodeLogRecord(payload); err != nil {
			return rec, false, lr.bad("record at offset %d: %v", lr.off, err)
		}
		at := lr.off
		lr.off += int64(len(b))
		if rec.Type == RecSeal {
			continue
		}
		if rec.Seq <= lr.last {
			return rec, false, lr.bad("record at offset %d: sequence number %d after %d", at, rec.Seq, lr.last)
		}
		lr.last = rec.Seq
		return rec, true, nil
	}
	return rec, false, nil
}

// badRecord handles a bad record at lr.off, of which read is what was
// read: a torn tail if no whole record follows in the rest of the file,
// else corruption.
func (lr *logReader) badRecord(read []byte, why string) error {
	rest, err := io.ReadAll(lr.r)
	if err != nil {
		return logFileErr(lr.path, err)
	}
	b := append(read, rest...)
	if wholeRecordAfter(b, 0) {
		return lr.bad("record at offset %d: %s (corrupt)", lr.off, why)
	}
	lr.torn = lr.off
	lr.close()
	return nil
}

// Chain reads a rank's log segments, in order, as one log: the
// numbers of its records go up across segments too.
type Chain struct {
	fsys        vfs.FS
	paths       []string
	rank, ranks int
	cur         *logReader
	i           int
	first       *logReader // the first segment's header
	last        uint64
}

// OpenChain opens the first of the segments paths (which may be missing).
func OpenChain(fsys vfs.FS, paths []string, rank, ranks int) (*Chain, error) {
	c := &Chain{fsys: fsys, paths: paths, rank: rank, ranks: ranks, i: -1}
	if err := c.advance(); err != nil {
		return nil, err
	}
	c.first = c.cur
	return c, nil
}

// advance opens the next segment, or leaves cur nil after the last. A
// segment after the first whose header is bad, with no whole record in
// the file, was never written to (a crash came while it was made): it is
// an empty segment.
func (c *Chain) advance() error {
	if c.cur != nil {
		c.cur.close()
	}
	c.cur = nil
	if c.i++; c.i >= len(c.paths) {
		return nil
	}
	lr, err := openLog(c.fsys, c.paths[c.i], c.rank, c.ranks)
	if err != nil && c.i > 0 && gdi.ErrorClass(err) == gdi.ErrFileFormat && neverWritten(c.fsys, c.paths[c.i]) {
		return c.advance()
	}
	if err != nil {
		return err
	}
	c.cur = lr
	return nil
}

// neverWritten reports whether the log file at path holds no whole record.
func neverWritten(fsys vfs.FS, path string) bool {
	b, err := vfs.ReadFile(fsys, path)
	return err == nil && !wholeRecordAfter(b, -1)
}

// First returns the path of the first segment and the sequence number of
// the checkpoint its header says it follows; ok is false if it is missing.
func (c *Chain) First() (path string, base uint64, ok bool) {
	if f := c.first; f != nil && f.exists {
		return f.path, f.base, true
	}
	return "", 0, false
}

// Async reports whether a segment read so far was written in async mode.
func (c *Chain) Async() bool { return c.first != nil && c.first.async }

func (c *Chain) Close() {
	if c.cur != nil {
		c.cur.close()
	}
}

// Next returns the Next record with data of the chain (see logReader.Next).
func (c *Chain) Next() (Record, bool, error) {
	for c.cur != nil {
		rec, ok, err := c.cur.next()
		if err != nil {
			return rec, false, err
		}
		if ok {
			if rec.Seq <= c.last {
				return rec, false, c.cur.bad("sequence number %d after %d in an earlier segment", rec.Seq, c.last)
			}
			c.last = rec.Seq
			return rec, true, nil
		}
		if err := c.advance(); err != nil {
			return rec, false, err
		}
	}
	return Record{}, false, nil
}

// Content is what ReadLog found in a log file.
type Content struct {
	Exists  bool
	Base    uint64
	Async   bool
	Records []Record
	// Torn is the offset of a Torn tail that was ignored, or -1.
	Torn int64
}

// ReadLog reads the whole of rank's log at path (see logReader).
func ReadLog(fsys vfs.FS, path string, rank, ranks int) (Content, error) {
	lc := Content{Torn: -1}
	lr, err := openLog(fsys, path, rank, ranks)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return lc, nil
		}
		lc.Exists = true
		return lc, err
	}
	defer lr.close()
	lc.Exists, lc.Base, lc.Async = lr.exists, lr.base, lr.async
	for {
		rec, ok, err := lr.next()
		if err != nil {
			return lc, err
		}
		if !ok {
			lc.Torn = lr.torn
			return lc, nil
		}
		lc.Records = append(lc.Records, rec)
	}
}

// recordAt returns the payload of the record at offset off of the log b
// and the offset after it, or why it is no whole record.
func recordAt(b []byte, off int) (payload []byte, end int, why string) {
	rest := b[off:]
	if len(rest) < RecordHeaderSize {
		return nil, 0, "incomplete header"
	}
	n, why := recordSize(rest[:RecordHeaderSize])
	if why != "" {
		return nil, 0, why
	}
	end = off + RecordHeaderSize + n
	if end > len(b) {
		return nil, 0, "incomplete payload"
	}
	payload = b[off+RecordHeaderSize : end]
	if !payloadOK(rest, payload) {
		return nil, 0, "checksum mismatch"
	}
	return payload, end, ""
}

// recordSize checks the record header hdr (recHeaderSize bytes) and
// returns the length of the payload it announces, or why it is bad.
func recordSize(hdr []byte) (int, string) {
	if crc32.Checksum(hdr[:8], castagnoli) != binary.LittleEndian.Uint32(hdr[8:]) {
		return 0, "header checksum mismatch"
	}
	n := int(binary.LittleEndian.Uint32(hdr))
	if n > maxRecord || n < 9 {
		return 0, fmt.Sprintf("length %d", n)
	}
	return n, ""
}

// payloadOK reports whether payload matches the checksum of its record
// header hdr.
func payloadOK(hdr, payload []byte) bool {
	return crc32.Checksum(payload, castagnoli) == binary.LittleEndian.Uint32(hdr[4:])
}

// wholeRecordAfter reports whether a whole record starts anywhere in b
// after offset off.
func wholeRecordAfter(b []byte, off int) bool {
	for p := off + 1; p+RecordHeaderSize <= len(b); p++ {
		if _, _, why := recordAt(b, p); why == "" {
			return true
		}
	}
	return false
}

func decodeLogRecord(p []byte) (Record, error) {
	r := Record{Seq: binary.LittleEndian.Uint64(p), Type: p[8]}
	p = p[9:]
	switch r.Type {
	case RecCatalog, RecDelta:
		r.JS = p
		return r, nil
	case RecSeal:
		if r.Seq != 0 || len(p) != 0 {
			return r, errors.New("a seal with data")
		}
		return r, nil
	case RecWrites:
	default:
		return r, fmt.Errorf("type %d", r.Type)
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
		w := Write{Rank: int(binary.LittleEndian.Uint32(p)), Off: int(binary.LittleEndian.Uint64(p[4:]))}
		l := int(binary.LittleEndian.Uint32(p[12:]))
		if l > len(p)-16 {
			return r, errors.New("short")
		}
		w.B = p[16 : 16+l]
		p = p[16+l:]
		r.Writes = append(r.Writes, w)
	}
	if len(p) != 0 {
		return r, fmt.Errorf("%d bytes after the writes", len(p))
	}
	return r, nil
}
