package rmatest

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/gdi-go/gdi/rma"
)

var snapshotCases = []Case{
	{"Snapshot/round-trip", snapshotRoundTrip},
	{"Snapshot/short-stream", snapshotShort},
}

// fill is the content rank r gives its part of a window in the
// snapshot cases.
func fill(r, size int) []byte {
	b := make([]byte, size)
	for i := range b {
		b[i] = byte(i*7 + r*13 + i>>8)
	}
	return b
}

// snapshotRoundTrip fills each rank's part, saves it, overwrites it, loads
// it back, and checks from the next rank that the part is as before. It
// does so with the backend's Snapshotter (SaveWindow, LoadWindow) and
// crosswise with the Get/Put fallback, which must give the same bytes.
func snapshotRoundTrip(c rma.Comm) error {
	const size = 1<<20 + 1005 // more than one copy chunk, not a multiple of 8
	me, next := c.Rank(), (c.Rank()+1)%c.Size()
	return withWindow(c, size, func(w rma.Window) error {
		if err := putFlush(w, fill(me, size), me, 0); err != nil {
			return err
		}
		var snap, copied bytes.Buffer
		if err := rma.SaveWindow(w, me, &snap); err != nil {
			return fmt.Errorf("SaveWindow: %w", err)
		}
		if err := rma.CopyOut(w, me, &copied); err != nil {
			return fmt.Errorf("CopyOut: %w", err)
		}
		if !bytes.Equal(snap.Bytes(), fill(me, size)) || !bytes.Equal(copied.Bytes(), snap.Bytes()) {
			return fmt.Errorf("snapshot of rank %d differs from its memory (%d and %d bytes)", me, snap.Len(), copied.Len())
		}
		if err := putFlush(w, make([]byte, size), me, 0); err != nil {
			return err
		}
		load := rma.LoadWindow
		if me%2 == 1 {
			load = rma.CopyIn
		}
		if err := load(w, me, bytes.NewReader(snap.Bytes())); err != nil {
			return fmt.Errorf("restoring rank %d: %w", me, err)
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		got, err := getFlush(w, next, 0, size)
		if err != nil {
			return err
		}
		if !bytes.Equal(got, fill(next, size)) {
			return fmt.Errorf("rank %d's part after restore differs from what it saved", next)
		}
		return c.Barrier()
	})
}

// snapshotShort loads from a stream that ends early: an error wrapping
// io.ErrUnexpectedEOF, no panic.
func snapshotShort(c rma.Comm) error {
	const size = 1000
	return withWindow(c, size, func(w rma.Window) error {
		for _, load := range []func(rma.Window, int, io.Reader) error{rma.LoadWindow, rma.CopyIn} {
			err := load(w, c.Rank(), bytes.NewReader(make([]byte, size-3)))
			if !errors.Is(err, io.ErrUnexpectedEOF) {
				return fmt.Errorf("loading %d of %d bytes: %v, want io.ErrUnexpectedEOF", size-3, size, err)
			}
		}
		return c.Barrier()
	})
}
