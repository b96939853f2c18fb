// Package vfs is the file layer under gdirma's checkpoints and redo logs:
// the few file operations durability needs, behind an interface, so that
// tests can put a file system under them that fails on demand or loses
// power (package vfstest).
//
// # Model
//
// A file's data is durable once File.Sync has returned; a name (a file
// created, renamed or removed, a directory made) is durable once SyncDir
// of its directory has returned. Until then a crash may keep it, drop it
// or, for data, keep a torn part of it. Code that needs a state to
// survive a crash writes it, syncs the file, renames it into place and
// syncs the directory, in that order.
package vfs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"syscall"

	"github.com/gdi-go/gdi/gdi"
	"golang.org/x/sys/unix"
)

// FS is a file system. Names are operating system paths.
type FS interface {
	// Create creates or truncates the file name for writing.
	Create(name string) (File, error)
	// Open opens the file name for reading.
	Open(name string) (File, error)
	// Rename renames oldname to newname, replacing newname if it exists,
	// in one step.
	Rename(oldname, newname string) error
	// Remove removes the file or empty directory name.
	Remove(name string) error
	// RemoveAll removes name and everything below it; a missing name is
	// no error.
	RemoveAll(name string) error
	// MkdirAll creates the directory name and its missing parents.
	MkdirAll(name string) error
	// ReadDir returns the names in the directory name, sorted.
	ReadDir(name string) ([]string, error)
	// SyncDir makes the names in the directory name durable.
	SyncDir(name string) error
}

// File is an open file.
type File interface {
	io.Reader
	io.Writer
	io.Closer
	// Sync makes the data written so far durable.
	Sync() error
	// Truncate cuts the file to size bytes and moves the write offset
	// there.
	Truncate(size int64) error
	// Size returns the file's length.
	Size() (int64, error)
}

// ReadFile reads the whole file name.
func ReadFile(fsys FS, name string) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// WriteFileSync writes b to name and syncs it, in place (callers that
// need the old content to survive a failure write a temporary name and
// rename it).
func WriteFileSync(fsys FS, name string, b []byte) error {
	f, err := fsys.Create(name)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	return errors.Join(err, f.Close())
}

// OS is the operating system's file system; Sync is fdatasync.
var OS FS = osFS{}

type osFS struct{}

func (osFS) Create(name string) (File, error) {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, err
	}
	return osFile{f}, nil
}

func (osFS) Open(name string) (File, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	return osFile{f}, nil
}

func (osFS) Rename(oldname, newname string) error { return os.Rename(oldname, newname) }
func (osFS) Remove(name string) error             { return os.Remove(name) }
func (osFS) RemoveAll(name string) error          { return os.RemoveAll(name) }
func (osFS) MkdirAll(name string) error           { return os.MkdirAll(name, 0o755) }

func (osFS) ReadDir(name string) ([]string, error) {
	es, err := os.ReadDir(name)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Name()
	}
	slices.Sort(out)
	return out, nil
}

func (osFS) SyncDir(name string) error {
	d, err := os.Open(name)
	if err != nil {
		return err
	}
	return errors.Join(d.Sync(), d.Close())
}

type osFile struct{ f *os.File }

func (o osFile) Read(p []byte) (int, error)  { return o.f.Read(p) }
func (o osFile) Write(p []byte) (int, error) { return o.f.Write(p) }
func (o osFile) Close() error                { return o.f.Close() }

func (o osFile) Sync() error {
	if err := unix.Fdatasync(int(o.f.Fd())); err != nil {
		return &fs.PathError{Op: "fdatasync", Path: o.f.Name(), Err: err}
	}
	return nil
}

func (o osFile) Truncate(size int64) error {
	if err := o.f.Truncate(size); err != nil {
		return err
	}
	_, err := o.f.Seek(size, io.SeekStart)
	return err
}

func (o osFile) Size() (int64, error) {
	fi, err := o.f.Stat()
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// Error turns an error of the file system into a gdi error whose message
// starts with what and names path: ErrNoSuchFile, ErrAccess, ErrNoSpace,
// ErrQuota, ErrReadOnlyFile, or else ErrIO.
func Error(what, path string, err error) error {
	c := gdi.ErrIO
	switch {
	case errors.Is(err, fs.ErrNotExist):
		c = gdi.ErrNoSuchFile
	case errors.Is(err, fs.ErrPermission):
		c = gdi.ErrAccess
	case errors.Is(err, syscall.ENOSPC):
		c = gdi.ErrNoSpace
	case errors.Is(err, syscall.EDQUOT):
		c = gdi.ErrQuota
	case errors.Is(err, syscall.EROFS):
		c = gdi.ErrReadOnlyFile
	}
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == path {
		err = fmt.Errorf("%s: %w", pe.Op, pe.Err)
	}
	return gdi.Errorf(c, "%s %s: %w", what, path, err)
}
