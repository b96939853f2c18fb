package local_test

import (
	"encoding/binary"
	"errors"
	"runtime"
	"testing"

	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/local"
)

// TestLargeWindowOutsideHeap checks that a large window is not Go heap
// memory, that its ranks still see each other's writes, and that a freed
// handle refuses access.
func TestLargeWindowOutsideHeap(t *testing.T) {
	const size = 256 << 20
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	err := local.Run(2, func(c rma.Comm) error {
		w, err := c.NewWindow(size)
		if err != nil {
			return err
		}
		if c.Rank() == 0 {
			runtime.ReadMemStats(&after)
		}
		// Each rank writes the far end of the other's memory.
		other := 1 - c.Rank()
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], uint64(100+c.Rank()))
		if err := w.Put(b[:], other, size-8); err != nil {
			return err
		}
		if err := w.FlushAll(); err != nil {
			return err
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		got, err := w.AtomicGet(c.Rank(), size-8)
		if err != nil {
			return err
		}
		if got != uint64(100+other) {
			return errors.New("a Put of the other rank is not seen")
		}
		if err := w.Free(); err != nil {
			return err
		}
		if _, err := w.AtomicGet(other, 0); !errors.Is(err, rma.ErrFreed) {
			return errors.New("a freed handle still reads")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if grew := int64(after.HeapSys) - int64(before.HeapSys); grew >= size {
		t.Errorf("the Go heap grew by %d bytes for two windows of %d", grew, size)
	}
}
