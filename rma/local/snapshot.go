package local

import (
	"io"
	"runtime"

	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/internal/wordmem"
)

var _ rma.Snapshotter = (*window)(nil)

// snapshotChunk is the size of the buffer Snapshot and Restore copy
// through.
const snapshotChunk = 1 << 20

// Snapshot writes the calling rank's memory to w, one atomic word load at
// a time (see load), so that it is race-free against concurrent atomics.
func (w *window) Snapshot(dst io.Writer) error {
	if w.freed.Load() {
		return rma.ErrFreed
	}
	mem := w.mems[w.rank]
	buf := make([]byte, min(w.size, snapshotChunk))
	for off := 0; off < w.size; {
		n := min(len(buf), w.size-off)
		wordmem.Load(mem, off, buf[:n])
		if _, err := dst.Write(buf[:n]); err != nil {
			return err
		}
		off += n
	}
	runtime.KeepAlive(w)
	return nil
}

// Restore reads the calling rank's memory from src, one atomic word store
// at a time (see store).
func (w *window) Restore(src io.Reader) error {
	if w.freed.Load() {
		return rma.ErrFreed
	}
	mem := w.mems[w.rank]
	buf := make([]byte, min(w.size, snapshotChunk))
	for off := 0; off < w.size; {
		n := min(len(buf), w.size-off)
		if _, err := io.ReadFull(src, buf[:n]); err != nil {
			return rma.ReadError(err, off, w.size)
		}
		wordmem.Store(mem, off, buf[:n])
		off += n
	}
	runtime.KeepAlive(w)
	return nil
}
