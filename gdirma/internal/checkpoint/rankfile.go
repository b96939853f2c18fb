package checkpoint

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"path/filepath"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/internal/vfs"
	"github.com/gdi-go/gdi/rma"
)

// A rank file is
//
//	header   "GDIRMACK", then format, rank, ranks, sections (uint32 each)
//	section  name length (uint32), name, size (uint64), the window's
//	         bytes, CRC-32C of all of the section before it (uint32)
//
// all little-endian.
const rankFileMagic = "GDIRMACK"

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// RankFileName is the name of rank r's file in a generation's directory.
func RankFileName(r int) string { return fmt.Sprintf("rank-%d.ckpt", r) }

// Section is a window of a rank file, named for error messages.
type Section struct {
	Name string
	W    rma.Window
}

// Header is what a rank file says of itself: the format of its contents
// (gdirma's, which this package does not interpret), and whose it is.
type Header struct {
	Format, Rank, Ranks int
}

// FileState is what the manifest keeps of a rank file.
type FileState struct {
	Name   string
	Size   int64
	SHA256 string
}

// WriteRankFile writes the calling rank's part of the windows secs to
// path, syncs it, and returns its size and SHA-256.
func WriteRankFile(fsys vfs.FS, path string, h Header, secs []Section) (FileState, error) {
	fst := FileState{Name: filepath.Base(path)}
	f, err := fsys.Create(path)
	if err != nil {
		return fst, fileErr(path, err)
	}
	sum := sha256.New()
	bw := bufio.NewWriterSize(io.MultiWriter(f, sum), 1<<20)
	cw := &countWriter{w: bw}
	err = writeSections(cw, h, secs)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fst, fileErr(path, err)
	}
	fst.Size, fst.SHA256 = cw.n, hex.EncodeToString(sum.Sum(nil))
	return fst, nil
}

func writeSections(w io.Writer, h Header, secs []Section) error {
	hdr := []byte(rankFileMagic)
	for _, x := range []int{h.Format, h.Rank, h.Ranks, len(secs)} {
		hdr = binary.LittleEndian.AppendUint32(hdr, uint32(x))
	}
	if _, err := w.Write(hdr); err != nil {
		return err
	}
	for _, s := range secs {
		crc := crc32.New(castagnoli)
		sw := io.MultiWriter(w, crc)
		b := binary.LittleEndian.AppendUint32(nil, uint32(len(s.Name)))
		b = append(b, s.Name...)
		b = binary.LittleEndian.AppendUint64(b, uint64(s.W.Size()))
		if _, err := sw.Write(b); err != nil {
			return err
		}
		if err := rma.SaveWindow(s.W, h.Rank, sw); err != nil {
			return fmt.Errorf("section %s: %w", s.Name, err)
		}
		if _, err := w.Write(binary.LittleEndian.AppendUint32(nil, crc.Sum32())); err != nil {
			return err
		}
	}
	return nil
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// ReadRankFile loads the calling rank's part of the windows secs from
// path, checking its size and SHA-256 against fst, its header against h
// (of a format in [oldest, h.Format]) and every section's name, size and
// CRC-32C.
func ReadRankFile(fsys vfs.FS, path string, fst FileState, h Header, oldest int, secs []Section) error {
	return readRankFile(fsys, path, fst, h, oldest, secs, false)
}

// ReadRankFileFirst is ReadRankFile of the first sections of a file that
// may hold more: the others are read, for the check of the whole file,
// and dropped, whatever windows they held.
func ReadRankFileFirst(fsys vfs.FS, path string, fst FileState, h Header, oldest int, secs []Section) error {
	return readRankFile(fsys, path, fst, h, oldest, secs, true)
}

func readRankFile(fsys vfs.FS, path string, fst FileState, h Header, oldest int, secs []Section, first bool) error {
	f, err := fsys.Open(path)
	if err != nil {
		return fileErr(path, err)
	}
	defer f.Close()
	bad := func(format string, args ...any) error {
		return gdi.Errorf(gdi.ErrFileFormat, "gdirma: checkpoint file %s: "+format, append([]any{path}, args...)...)
	}
	if size, err := f.Size(); err != nil {
		return fileErr(path, err)
	} else if size != fst.Size {
		return bad("%d bytes, the manifest says %d (truncated or overwritten)", size, fst.Size)
	}
	sum := sha256.New()
	r := bufio.NewReaderSize(io.TeeReader(f, sum), 1<<20)
	if err := readSections(r, bad, h, oldest, secs, first); err != nil {
		var ge *gdi.Error
		if errors.As(err, &ge) {
			return err
		}
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return bad("truncated: %v", err)
		}
		return fileErr(path, err)
	}
	if n, _ := io.Copy(io.Discard, r); n != 0 {
		return bad("%d bytes after the last section", n)
	}
	if got := hex.EncodeToString(sum.Sum(nil)); got != fst.SHA256 {
		return bad("SHA-256 %s, the manifest says %s", got, fst.SHA256)
	}
	return nil
}

func readSections(r io.Reader, bad func(string, ...any) error, h Header, oldest int, secs []Section, first bool) error {
	hdr := make([]byte, len(rankFileMagic)+16)
	if _, err := io.ReadFull(r, hdr); err != nil {
		return err
	}
	if string(hdr[:len(rankFileMagic)]) != rankFileMagic {
		return bad("not a gdirma checkpoint file")
	}
	u := func(i int) int { return int(binary.LittleEndian.Uint32(hdr[len(rankFileMagic)+4*i:])) }
	if u(0) < oldest || u(0) > h.Format || u(1) != h.Rank || u(2) != h.Ranks || u(3) < len(secs) || !first && u(3) != len(secs) {
		return bad("header says format %d, rank %d of %d, %d sections; want format %d to %d, rank %d of %d, %d sections",
			u(0), u(1), u(2), u(3), oldest, h.Format, h.Rank, h.Ranks, len(secs))
	}
	for _, s := range secs {
		if err := readSection(r, bad, h.Rank, s); err != nil {
			return err
		}
	}
	if first {
		_, err := io.Copy(io.Discard, r)
		return err
	}
	return nil
}

func readSection(r io.Reader, bad func(string, ...any) error, rank int, s Section) error {
	crc := crc32.New(castagnoli)
	sr := io.TeeReader(r, crc)
	var n [4]byte
	if _, err := io.ReadFull(sr, n[:]); err != nil {
		return err
	}
	if l := binary.LittleEndian.Uint32(n[:]); l != uint32(len(s.Name)) {
		return bad("section %s: header names %d bytes", s.Name, l)
	}
	h := make([]byte, len(s.Name)+8)
	if _, err := io.ReadFull(sr, h); err != nil {
		return err
	}
	if string(h[:len(s.Name)]) != s.Name {
		return bad("section %q where %s belongs", h[:len(s.Name)], s.Name)
	}
	if size := binary.LittleEndian.Uint64(h[len(s.Name):]); size != uint64(s.W.Size()) {
		return bad("section %s has %d bytes, the window %d", s.Name, size, s.W.Size())
	}
	if err := rma.LoadWindow(s.W, rank, io.LimitReader(sr, int64(s.W.Size()))); err != nil {
		return fmt.Errorf("section %s: %w", s.Name, err)
	}
	want := crc.Sum32()
	if _, err := io.ReadFull(r, n[:]); err != nil {
		return err
	}
	if got := binary.LittleEndian.Uint32(n[:]); got != want {
		return bad("section %s: CRC-32C %08x, the contents give %08x (corrupt)", s.Name, got, want)
	}
	return nil
}

// SumRankFile returns the size and SHA-256 of the rank file at path, as
// the manifest keeps them.
func SumRankFile(fsys vfs.FS, path string) (FileState, error) {
	fst := FileState{Name: filepath.Base(path)}
	f, err := fsys.Open(path)
	if err != nil {
		return fst, fileErr(path, err)
	}
	defer f.Close()
	sum := sha256.New()
	if fst.Size, err = io.Copy(sum, f); err != nil {
		return fst, fileErr(path, err)
	}
	fst.SHA256 = hex.EncodeToString(sum.Sum(nil))
	return fst, nil
}

// CheckRankFile checks the size and SHA-256 of the rank file at path
// against the manifest's fst, without loading it (gdi check).
func CheckRankFile(fsys vfs.FS, path string, fst FileState) error {
	got, err := SumRankFile(fsys, path)
	if err != nil {
		return err
	}
	if got.Size != fst.Size {
		return gdi.Errorf(gdi.ErrFileFormat, "gdirma: checkpoint file %s: %d bytes, the manifest says %d (truncated or overwritten)", path, got.Size, fst.Size)
	}
	if got.SHA256 != fst.SHA256 {
		return gdi.Errorf(gdi.ErrFileFormat, "gdirma: checkpoint file %s: SHA-256 %s, the manifest says %s", path, got.SHA256, fst.SHA256)
	}
	return nil
}
