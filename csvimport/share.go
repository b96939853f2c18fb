package csvimport

import (
	"bufio"
	"errors"
	"io"
	"os"
	"strings"

	"github.com/gdi-go/gdi/gdi"
)

// Shares. Every rank reads a share of every file: the lines that start in
// its even part of the bytes after the header. A line starts right after
// the header or after a newline, so the shares split at line boundaries
// without any rank reading another's bytes but for the end of the line
// its part cuts.

// share is the part [from, to) of a file's bytes whose lines a rank reads.
type share struct{ from, to int64 }

// shareOf returns rank r's share of n ranks of a file of size bytes whose
// lines start at body.
func shareOf(body, size int64, r, n int) share {
	at := func(r int) int64 { return body + (size-body)*int64(r)/int64(n) }
	return share{at(r), at(r + 1)}
}

// readHeader returns the first line of path and where the next begins.
func readHeader(path string) (line string, body, size int64, err error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, 0, fileErr(path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", 0, 0, fileErr(path, err)
	}
	line, err = bufio.NewReader(f).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", 0, 0, fileErr(path, err)
	}
	body = int64(len(line))
	return strings.TrimRight(line, "\r\n"), body, fi.Size(), nil
}

// readShare calls fn with each line (without its ending) that starts in
// sh of path, and its index among them.
func readShare(path string, body int64, sh share, fn func(i int, line string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fileErr(path, err)
	}
	defer f.Close()
	pos := sh.from
	if pos > body {
		pos-- // a line starts at from if the byte before ends one
	}
	if _, err := f.Seek(pos, io.SeekStart); err != nil {
		return fileErr(path, err)
	}
	r := bufio.NewReaderSize(f, 1<<16)
	if pos < sh.from {
		skipped, err := r.ReadString('\n')
		pos += int64(len(skipped))
		if err != nil {
			return nil // no line starts in the share
		}
	}
	for i := 0; pos < sh.to; i++ {
		line, err := r.ReadString('\n')
		if line == "" && err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fileErr(path, err)
		}
		pos += int64(len(line))
		if err := fn(i, strings.TrimRight(line, "\r\n")); err != nil {
			return err
		}
	}
	return nil
}

func fileErr(path string, err error) error {
	code := gdi.ErrIO
	if errors.Is(err, os.ErrNotExist) {
		code = gdi.ErrNoSuchFile
	}
	return gdi.Errorf(code, "%s: %v", path, err)
}

// lineErr is the error of line n (1 is the header) of path: of err's
// class if it has one, else ErrFileFormat.
func lineErr(path string, n int, err error) error {
	code := gdi.ErrorClass(err)
	if code == gdi.ErrErrorCode {
		code = gdi.ErrFileFormat
	}
	return gdi.Errorf(code, "%s:%d: %v", path, n, err)
}
