package rmatest

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"sync"

	"github.com/gdi-go/gdi/rma"
)

var windowCases = []Case{
	{"Window/size-and-zeroed", windowZeroed},
	{"Window/put-get-any-alignment", putGetAlignments},
	{"Window/visible-after-flush", visibleAfterFlush},
	{"Window/flushall-completes-every-target", flushAllCompletes},
	{"Window/disjoint-bytes-of-one-word", disjointBytes},
	{"Window/words-are-little-endian", littleEndian},
	{"Window/several-at-once", severalWindows},
}

func windowZeroed(c rma.Comm) error {
	const size = 1003 // not a multiple of 8
	return withWindow(c, size, func(w rma.Window) error {
		if w.Size() != size {
			return fmt.Errorf("Size() = %d, want %d", w.Size(), size)
		}
		for t := range c.Size() {
			got, err := getFlush(w, t, 0, size)
			if err != nil {
				return err
			}
			if !bytes.Equal(got, make([]byte, size)) {
				return fmt.Errorf("new window on rank %d is not zeroed", t)
			}
		}
		return c.Barrier()
	})
}

// putGetAlignments writes byte ranges of every alignment and many lengths to
// the next rank, then each rank reads its own memory back and compares it
// with a model of what the previous rank wrote.
func putGetAlignments(c rma.Comm) error {
	const size = 512
	return withWindow(c, size, func(w rma.Window) error {
		next := (c.Rank() + 1) % c.Size()
		prev := (c.Rank() + c.Size() - 1) % c.Size()
		writes := func(from int) [][2]int { // (offset, length) pairs, disjoint
			var ws [][2]int
			off := 0
			for i := 0; off < size; i++ {
				skip := (i + from) % 3
				n := min(1+(i*5+from)%19, size-off-skip)
				if n <= 0 {
					break
				}
				ws = append(ws, [2]int{off + skip, n})
				off += skip + n
			}
			return ws
		}
		for i, ow := range writes(c.Rank()) {
			if err := w.Put(pattern(c.Rank()*1000+i, ow[1]), next, ow[0]); err != nil {
				return fmt.Errorf("Put %v: %w", ow, err)
			}
		}
		if err := w.Flush(next); err != nil {
			return err
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		want := make([]byte, size)
		for i, ow := range writes(prev) {
			copy(want[ow[0]:], pattern(prev*1000+i, ow[1]))
		}
		got, err := getFlush(w, c.Rank(), 0, size)
		if err != nil {
			return err
		}
		if !bytes.Equal(got, want) {
			return fmt.Errorf("memory of rank %d after puts from rank %d:\n got %v\nwant %v", c.Rank(), prev, got, want)
		}
		// Read back the same ranges piecewise from the writer's side too.
		for i, ow := range writes(c.Rank()) {
			b, err := getFlush(w, next, ow[0], ow[1])
			if err != nil {
				return err
			}
			if want := pattern(c.Rank()*1000+i, ow[1]); !bytes.Equal(b, want) {
				return fmt.Errorf("range %v on rank %d: got %v, want %v", ow, next, b, want)
			}
		}
		return c.Barrier()
	})
}

// visibleAfterFlush is message passing through a window: each rank writes a
// payload to the next rank, flushes, then raises a flag with an atomic. The
// receiver waits for the flag and must then see the whole payload.
func visibleAfterFlush(c rma.Comm) error {
	const payload = 256
	const rounds = 20
	return withWindow(c, 8+payload, func(w rma.Window) error {
		next := (c.Rank() + 1) % c.Size()
		for round := 1; round <= rounds; round++ {
			if err := putFlush(w, pattern(round*c.Size()+c.Rank(), payload), next, 8); err != nil {
				return err
			}
			if err := w.AtomicPut(next, 0, uint64(round)); err != nil {
				return err
			}
			prev := (c.Rank() + c.Size() - 1) % c.Size()
			for {
				flag, err := w.AtomicGet(c.Rank(), 0)
				if err != nil {
					return err
				}
				if flag == uint64(round) {
					break
				}
			}
			got, err := getFlush(w, c.Rank(), 8, payload)
			if err != nil {
				return err
			}
			if want := pattern(round*c.Size()+prev, payload); !bytes.Equal(got, want) {
				return fmt.Errorf("round %d: payload from rank %d not visible after its flush", round, prev)
			}
			// Nobody overwrites a payload before its reader is done.
			if err := c.Barrier(); err != nil {
				return err
			}
		}
		return nil
	})
}

func flushAllCompletes(c rma.Comm) error {
	const size = 64
	return withWindow(c, size*c.Size(), func(w rma.Window) error {
		for t := range c.Size() {
			if err := w.Put(pattern(c.Rank()+t, size), t, c.Rank()*size); err != nil {
				return err
			}
		}
		if err := w.FlushAll(); err != nil {
			return err
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		bufs := make([][]byte, c.Size())
		for t := range c.Size() {
			bufs[t] = make([]byte, size)
			if err := w.Get(bufs[t], t, c.Rank()*size); err != nil {
				return err
			}
		}
		if err := w.FlushAll(); err != nil {
			return err
		}
		for t, b := range bufs {
			if want := pattern(c.Rank()+t, size); !bytes.Equal(b, want) {
				return fmt.Errorf("rank %d slot of rank %d: got %v, want %v", c.Rank(), t, b, want)
			}
		}
		return c.Barrier()
	})
}

// disjointBytes: many goroutines of all ranks write single bytes of the same
// words concurrently, each byte having exactly one writer. No write may be
// lost to another's read-modify-write of the word.
func disjointBytes(c rma.Comm) error {
	const goroutines, words, rounds = 4, 16, 50
	writers := c.Size() * goroutines
	groups := (writers + 7) / 8
	// owner is the writer of byte off: byte i of word k belongs to writer
	// (k mod groups)*8 + i, so up to eight writers share every word.
	owner := func(off int) int { return (off/8%groups)*8 + off%8 }
	return withWindow(c, 8*words, func(w rma.Window) error {
		var wg sync.WaitGroup
		errs := make([]error, goroutines)
		for g := range goroutines {
			wg.Go(func() {
				me := c.Rank()*goroutines + g
				for round := range rounds {
					for off := range 8 * words {
						if owner(off) != me {
							continue
						}
						if err := putFlush(w, []byte{byte(me + round)}, 0, off); err != nil {
							errs[g] = err
							return
						}
					}
				}
			})
		}
		wg.Wait()
		if err := firstErr(errs); err != nil {
			return err
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		got, err := getFlush(w, 0, 0, 8*words)
		if err != nil {
			return err
		}
		want := make([]byte, 8*words)
		for off := range want {
			if o := owner(off); o < writers {
				want[off] = byte(o + rounds - 1)
			}
		}
		if !bytes.Equal(got, want) {
			return fmt.Errorf("bytes lost:\n got %v\nwant %v", got, want)
		}
		return c.Barrier()
	})
}

func littleEndian(c rma.Comm) error {
	return withWindow(c, 16, func(w rma.Window) error {
		const v = 0x0102030405060708
		if c.Rank() == 0 {
			if err := w.AtomicPut(c.Size()-1, 8, v); err != nil {
				return err
			}
		}
		if err := c.Barrier(); err != nil {
			return err
		}
		got, err := getFlush(w, c.Size()-1, 8, 8)
		if err != nil {
			return err
		}
		if binary.LittleEndian.Uint64(got) != v {
			return fmt.Errorf("AtomicPut %#x reads back through Get as % x", v, got)
		}
		if c.Rank() == 0 {
			var b [8]byte
			binary.LittleEndian.PutUint64(b[:], v+1)
			if err := putFlush(w, b[:], 0, 0); err != nil {
				return err
			}
			x, err := w.AtomicGet(0, 0)
			if err != nil {
				return err
			}
			if x != v+1 {
				return fmt.Errorf("Put of % x reads back through AtomicGet as %#x", b, x)
			}
		}
		return c.Barrier()
	})
}

func severalWindows(c rma.Comm) error {
	return withWindow(c, 8, func(a rma.Window) error {
		return withWindow(c, 24, func(b rma.Window) error {
			if err := a.AtomicPut(c.Rank(), 0, 11); err != nil {
				return err
			}
			if err := b.AtomicPut(c.Rank(), 16, 22); err != nil {
				return err
			}
			x, err := a.AtomicGet(c.Rank(), 0)
			if err != nil {
				return err
			}
			y, err := b.AtomicGet(c.Rank(), 0)
			if err != nil {
				return err
			}
			if x != 11 || y != 0 {
				return fmt.Errorf("windows overlap: a[0]=%d b[0]=%d", x, y)
			}
			return c.Barrier()
		})
	})
}

func firstErr(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
