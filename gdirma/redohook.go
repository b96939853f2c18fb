package gdirma

import (
	"github.com/gdi-go/gdi/rma"
)

// redoHook receives what each commit of the rank wrote to the data window
// of the store: the holder images, in-place head rewrites and freed
// markers, in the order written. It is called with the commit's holders
// still locked for writing, after the writes; when it returns the commit
// is acknowledged. Everything else a commit changes (the implicit index,
// the explicit indexes, the block free lists, the counters) follows from
// the holders and is rebuilt from them on restore.
type redoHook interface {
	commit(writes []dataWrite) error
}

// dataWrite is one write to the data window: bytes b at offset off of
// rank's part.
type dataWrite struct {
	rank, off int
	b         []byte
}

// recordingWindow is the data window of one commit: it passes every
// operation on and keeps a copy of each write.
type recordingWindow struct {
	rma.Window
	writes []dataWrite
}

func (w *recordingWindow) Put(src []byte, target, offset int) error {
	if err := w.Window.Put(src, target, offset); err != nil {
		return err
	}
	w.writes = append(w.writes, dataWrite{target, offset, append([]byte(nil), src...)})
	return nil
}

func (w *recordingWindow) AtomicPut(target, offset int, v uint64) error {
	if err := w.Window.AtomicPut(target, offset, v); err != nil {
		return err
	}
	var b [8]byte
	for i := range b {
		b[i] = byte(v >> (8 * i))
	}
	w.writes = append(w.writes, dataWrite{target, offset, b[:]})
	return nil
}
