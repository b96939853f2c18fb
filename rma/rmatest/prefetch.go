package rmatest

import (
	"bytes"
	"fmt"

	"github.com/gdi-go/gdi/rma"
)

var prefetchCases = []Case{
	{"Prefetch/hint-only", prefetchHintOnly},
}

// prefetchHintOnly prefetches, on a window that implements rma.Prefetcher,
// ranges of every rank inside and outside the window, and after it is
// freed: none may fail or change a byte, and Gets after them read what
// was put. Windows without the capability pass.
func prefetchHintOnly(c rma.Comm) error {
	const size = 4096 + 40
	me := c.Rank()
	w, err := c.NewWindow(size)
	if err != nil {
		return err
	}
	pf, ok := w.(rma.Prefetcher)
	if !ok {
		return w.Free()
	}
	if err := putFlush(w, fill(me, size), me, 0); err != nil {
		return err
	}
	if err := c.Barrier(); err != nil {
		return err
	}
	for t := -1; t <= c.Size(); t++ {
		for _, r := range [][2]int{{0, size}, {1, 1}, {63, 2}, {size - 1, 1}, {size, 8}, {-8, 16}, {100, -1}, {0, 1 << 40}, {size - 8, 64}} {
			pf.Prefetch(t, r[0], r[1])
		}
	}
	for t := range c.Size() {
		got, err := getFlush(w, t, 0, size)
		if err != nil {
			return err
		}
		if !bytes.Equal(got, fill(t, size)) {
			return fmt.Errorf("rank %d's part changed after prefetches", t)
		}
	}
	if err := c.Barrier(); err != nil {
		return err
	}
	if err := w.Free(); err != nil {
		return err
	}
	pf.Prefetch(me, 0, 64) // ignored once freed
	return nil
}
