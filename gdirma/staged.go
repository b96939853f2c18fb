package gdirma

import (
	"encoding/binary"

	"github.com/gdi-go/gdi/gdi"
	"github.com/gdi-go/gdi/gdirma/internal/redolog"
	"github.com/gdi-go/gdi/rma"
)

// Staged writes: the write-ahead step of a commit with the redo log on
// (see "The redo log" in redolog.go). While a commit installs its changes, its
// writes to the data window go to a stagedWindow instead; they become the
// commit's redo record, and only once the record is logged (durable in
// sync mode) are they published, by replaying them on the data window.
// A commit whose record cannot be logged has written nothing there.

// redoHook receives what each commit of the rank writes to the data window
// of the store: the holder images, in-place head rewrites and freed
// markers, in the order written. It is called with the commit's holders
// still locked for writing, before the writes are published; when it
// returns nil the commit may be published and acknowledged, and when it
// returns an error the commit must leave nothing behind. Everything else
// a commit changes (the implicit index, the explicit indexes, the block
// free lists, the counters) follows from the holders and is rebuilt from
// them on restore.
type redoHook interface {
	Commit(writes []redolog.Write) error
	// Hold keeps the log from switching segments until release is
	// called: from before commit until the writes are published. admit,
	// called before Hold, may Hold the commit back while the log is far
	// past its bound.
	Hold() (release func())
	Admit()
}

// stagedWindow is the data window of one commit: reads go to the window
// below, with the staged writes laid over what they return (the commit
// reads its own writes), and writes are kept, in order, with the flushes
// between them, until publish replays them.
type stagedWindow struct {
	rma.Window
	writes []redolog.Write
	ops    []stagedOp
	gets   []pendingGet
}

// stagedOp is a write (writes[i]) or a flush, in the order made.
type stagedOp struct {
	write  int // index in writes, or -1 for a flush
	atomic bool
	target int // of a flush; -1 for FlushAll
}

// pendingGet is a Get not yet completed by a flush.
type pendingGet struct {
	dst         []byte
	target, off int
}

// reset empties s and stages over w.
func (s *stagedWindow) reset(w rma.Window) {
	clear(s.writes)
	clear(s.gets)
	s.Window, s.writes, s.ops, s.gets = w, s.writes[:0], s.ops[:0], s.gets[:0]
}

func (s *stagedWindow) Put(src []byte, target, offset int) error {
	s.ops = append(s.ops, stagedOp{write: len(s.writes)})
	s.writes = append(s.writes, redolog.Write{Rank: target, Off: offset, B: append([]byte(nil), src...)})
	return nil
}

func (s *stagedWindow) AtomicPut(target, offset int, v uint64) error {
	b := binary.LittleEndian.AppendUint64(nil, v) // rma words are little-endian
	s.ops = append(s.ops, stagedOp{write: len(s.writes), atomic: true})
	s.writes = append(s.writes, redolog.Write{Rank: target, Off: offset, B: b})
	return nil
}

func (s *stagedWindow) Get(dst []byte, target, offset int) error {
	if err := s.Window.Get(dst, target, offset); err != nil {
		return err
	}
	s.gets = append(s.gets, pendingGet{dst, target, offset})
	return nil
}

func (s *stagedWindow) Flush(target int) error {
	if err := s.Window.Flush(target); err != nil {
		return err
	}
	s.ops = append(s.ops, stagedOp{write: -1, target: target})
	s.completeGets(target)
	return nil
}

func (s *stagedWindow) FlushAll() error {
	if err := s.Window.FlushAll(); err != nil {
		return err
	}
	s.ops = append(s.ops, stagedOp{write: -1, target: -1})
	s.completeGets(-1)
	return nil
}

// completeGets lays the staged writes over the gets of target (-1: all),
// which the window below has completed.
func (s *stagedWindow) completeGets(target int) {
	kept := s.gets[:0]
	for _, g := range s.gets {
		if target >= 0 && g.target != target {
			kept = append(kept, g)
			continue
		}
		s.overlay(g.dst, g.target, g.off)
	}
	clear(s.gets[len(kept):])
	s.gets = kept
}

// overlay copies the staged writes to [off, off+len(dst)) of target into
// dst, in the order they were made.
func (s *stagedWindow) overlay(dst []byte, target, off int) {
	for _, w := range s.writes {
		if w.Rank != target {
			continue
		}
		lo, hi := max(off, w.Off), min(off+len(dst), w.Off+len(w.B))
		if lo < hi {
			copy(dst[lo-off:hi-off], w.B[lo-w.Off:hi-w.Off])
		}
	}
}

func (s *stagedWindow) AtomicGet(target, offset int) (uint64, error) {
	v, err := s.Window.AtomicGet(target, offset)
	if err != nil {
		return 0, err
	}
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], v)
	s.overlay(b[:], target, offset)
	return binary.LittleEndian.Uint64(b[:]), nil
}

// CompareAndSwap and FetchAndAdd have no place in a commit's writes to the
// data window: lock words live in the system window.
func (s *stagedWindow) CompareAndSwap(target, offset int, old, new uint64) (uint64, error) {
	return 0, gdi.Errorf(gdi.ErrIntern, "gdirma: compare-and-swap on the data window during a staged commit")
}

func (s *stagedWindow) FetchAndAdd(target, offset int, delta uint64) (uint64, error) {
	return 0, gdi.Errorf(gdi.ErrIntern, "gdirma: fetch-and-add on the data window during a staged commit")
}

// publish replays the staged writes and flushes on the window below.
func (s *stagedWindow) publish() error {
	for _, op := range s.ops {
		var err error
		switch {
		case op.write < 0 && op.target < 0:
			err = s.Window.FlushAll()
		case op.write < 0:
			err = s.Window.Flush(op.target)
		case op.atomic:
			w := s.writes[op.write]
			err = s.Window.AtomicPut(w.Rank, w.Off, binary.LittleEndian.Uint64(w.B))
		default:
			w := s.writes[op.write]
			err = s.Window.Put(w.B, w.Rank, w.Off)
		}
		if err != nil {
			return internal(err)
		}
	}
	return internal(s.Window.FlushAll())
}
