package rma

import (
	"fmt"
	"io"
)

// Snapshotter is an optional capability of a Window: copying the calling
// rank's part of the window to a stream and back, for checkpoints. Both
// backends implement it; SaveWindow and LoadWindow fall back to Get and
// Put for windows that do not.
//
// Neither method is atomic with respect to other accesses to the same
// memory: the caller makes sure no rank reads or writes the rank's part
// meanwhile (a quiet database, with collectives before and after). Each
// word is copied with the backend's own kind of access (atomic word loads
// and stores in rma/local, MPI_Get and MPI_Put in rma/mpi), so the copies
// are as well-defined as any Get or Put.
type Snapshotter interface {
	// Snapshot writes the Size() bytes of the calling rank's part of the
	// window to w.
	Snapshot(w io.Writer) error
	// Restore reads exactly Size() bytes from r into the calling rank's
	// part of the window. A stream that ends early returns an error
	// wrapping io.ErrUnexpectedEOF; the part is then partly overwritten.
	Restore(r io.Reader) error
}

// snapshotChunk is the size of the buffer windows are copied through.
const snapshotChunk = 1 << 20

// SaveWindow writes the part of rank (the calling rank) of w to dst: with
// w's Snapshot if it is a Snapshotter, else with Get and Flush.
func SaveWindow(w Window, rank int, dst io.Writer) error {
	if s, ok := w.(Snapshotter); ok {
		return s.Snapshot(dst)
	}
	return CopyOut(w, rank, dst)
}

// LoadWindow reads the part of rank (the calling rank) of w from src: with
// w's Restore if it is a Snapshotter, else with Put and Flush.
func LoadWindow(w Window, rank int, src io.Reader) error {
	if s, ok := w.(Snapshotter); ok {
		return s.Restore(src)
	}
	return CopyIn(w, rank, src)
}

// CopyOut writes the Size() bytes of rank's part of w to dst, through Get
// and Flush in chunks. Backends may use it to implement Snapshot.
func CopyOut(w Window, rank int, dst io.Writer) error {
	buf := make([]byte, min(w.Size(), snapshotChunk))
	for off := 0; off < w.Size(); {
		n := min(len(buf), w.Size()-off)
		if err := w.Get(buf[:n], rank, off); err != nil {
			return err
		}
		if err := w.Flush(rank); err != nil {
			return err
		}
		if _, err := dst.Write(buf[:n]); err != nil {
			return err
		}
		off += n
	}
	return nil
}

// CopyIn reads Size() bytes from src into rank's part of w, through Put
// and Flush in chunks. Backends may use it to implement Restore.
func CopyIn(w Window, rank int, src io.Reader) error {
	buf := make([]byte, min(w.Size(), snapshotChunk))
	for off := 0; off < w.Size(); {
		n := min(len(buf), w.Size()-off)
		if _, err := io.ReadFull(src, buf[:n]); err != nil {
			return ReadError(err, off, w.Size())
		}
		if err := w.Put(buf[:n], rank, off); err != nil {
			return err
		}
		if err := w.Flush(rank); err != nil {
			return err
		}
		off += n
	}
	return nil
}

// ReadError describes a failed read of a window's contents at offset off
// of size bytes; an early end of the stream wraps io.ErrUnexpectedEOF.
func ReadError(err error, off, size int) error {
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return fmt.Errorf("rma: window contents end or fail at byte %d of %d: %w", off, size, err)
}
