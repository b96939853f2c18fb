//go:build mpi

package mpi

import (
	"io"

	"github.com/gdi-go/gdi/rma"
)

var _ rma.Snapshotter = (*window)(nil)

// Snapshot writes the calling rank's part of the window to dst. It reads it
// with MPI_Get from the rank itself, in chunks (rma.CopyOut): that is the
// access MPI defines for window memory under every osc component, where a
// plain load of the base pointer would need MPI_Win_sync and the unified
// memory model.
func (w *window) Snapshot(dst io.Writer) error {
	if w.freed.Load() {
		return rma.ErrFreed
	}
	return rma.CopyOut(w, w.c.rank, dst)
}

// Restore reads the calling rank's part of the window from src, writing it
// with MPI_Put to the rank itself and a flush per chunk (rma.CopyIn).
func (w *window) Restore(src io.Reader) error {
	if w.freed.Load() {
		return rma.ErrFreed
	}
	return rma.CopyIn(w, w.c.rank, src)
}
