package local

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/gdi-go/gdi/internal/invariants"
	"github.com/gdi-go/gdi/rma"
	"github.com/gdi-go/gdi/rma/internal/wordmem"
)

// window is one rank's handle on a window. mems holds every rank's memory,
// indexed by rank; it is only ever touched through sync/atomic. regions
// keeps that memory alive: every method that touches it ends with
// runtime.KeepAlive(w).
type window struct {
	rank    int
	size    int
	mems    [][]uint64
	regions []*region
	freed   atomic.Bool
	c       *comm

	// Pending Gets and Puts, used only when invariants are enabled: they
	// complete at the flush, not at the call.
	mu      sync.Mutex
	pending []pendingOp
}

type pendingOp struct {
	put    bool
	target int
	offset int
	buf    []byte
}

type newWindowArg struct {
	size int
	mem  *region
}

func (c *comm) NewWindow(size int) (rma.Window, error) {
	var bad error
	if size < 0 {
		bad = fmt.Errorf("%w: window size %d", rma.ErrArgument, size)
		size = 0
	}
	mem := newRegion((size + 7) / 8)
	w := &window{rank: c.rank, size: size, mems: make([][]uint64, c.w.n), regions: make([]*region, c.w.n), c: c}
	err := c.collective("NewWindow", newWindowArg{size, mem}, bad, func(vals []any) error {
		for r, v := range vals {
			a := v.(newWindowArg)
			if a.size != size {
				return fmt.Errorf("%w: window of %d bytes here, %d on rank %d", rma.ErrArgument, size, a.size, r)
			}
			w.mems[r], w.regions[r] = a.mem.mem, a.mem
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return w, nil
}

func (w *window) Size() int { return w.size }

func (w *window) Free() error {
	if w.freed.Swap(true) {
		return fmt.Errorf("%w: Free called twice", rma.ErrFreed)
	}
	w.mu.Lock()
	w.pending = nil
	w.mu.Unlock()
	if err := w.c.Barrier(); err != nil {
		return err
	}
	w.regions[w.rank].release() // every rank has freed its handle
	return nil
}

// fits reports whether [offset, offset+n) is a byte range of target in
// a window not freed; check says what is wrong if not. fits is small
// enough to be inlined into every operation.
func (w *window) fits(target, offset, n int) bool {
	// Negative numbers are huge as uints, and fail.
	return uint(target) < uint(len(w.mems)) && uint(offset) <= uint(w.size) && uint(n) <= uint(w.size-offset) && !w.freed.Load()
}

// check validates a byte range [offset, offset+n) of target.
func (w *window) check(target, offset, n int) error {
	if w.freed.Load() {
		return rma.ErrFreed
	}
	if uint(target) >= uint(len(w.mems)) {
		return fmt.Errorf("%w: rank %d of %d", rma.ErrRank, target, len(w.mems))
	}
	if offset < 0 || n < 0 || offset > w.size-n {
		return fmt.Errorf("%w: bytes [%d, %d) of a %d-byte window", rma.ErrRange, offset, offset+n, w.size)
	}
	return nil
}

// word validates an atomic at offset of target and returns its word.
func (w *window) word(target, offset int) (*uint64, error) {
	if !w.fits(target, offset, 8) {
		return nil, w.check(target, offset, 8)
	}
	if offset&7 != 0 {
		return nil, fmt.Errorf("%w: offset %d", rma.ErrAlignment, offset)
	}
	return &w.mems[target][offset>>3], nil
}

func (w *window) Get(dst []byte, target, offset int) error {
	if !w.fits(target, offset, len(dst)) {
		return w.check(target, offset, len(dst))
	}
	if invariants.Enabled {
		w.defer_(pendingOp{put: false, target: target, offset: offset, buf: dst})
		return nil
	}
	wordmem.Load(w.mems[target], offset, dst)
	runtime.KeepAlive(w)
	return nil
}

var _ rma.Prefetcher = (*window)(nil)

// Prefetch implements rma.Prefetcher: a range not wholly inside the
// window is ignored.
func (w *window) Prefetch(target, offset, n int) {
	if w.fits(target, offset, n) {
		wordmem.Prefetch(w.mems[target], offset, n)
		runtime.KeepAlive(w)
	}
}

func (w *window) Put(src []byte, target, offset int) error {
	if !w.fits(target, offset, len(src)) {
		return w.check(target, offset, len(src))
	}
	if invariants.Enabled {
		w.defer_(pendingOp{put: true, target: target, offset: offset, buf: src})
		return nil
	}
	wordmem.Store(w.mems[target], offset, src)
	runtime.KeepAlive(w)
	return nil
}

func (w *window) defer_(op pendingOp) {
	w.mu.Lock()
	w.pending = append(w.pending, op)
	w.mu.Unlock()
}

// complete carries out the pending operations to target, or to every rank
// if target is negative, in the order they were issued.
func (w *window) complete(target int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	kept := w.pending[:0]
	for _, op := range w.pending {
		if target >= 0 && op.target != target {
			kept = append(kept, op)
			continue
		}
		if op.put {
			wordmem.Store(w.mems[op.target], op.offset, op.buf)
		} else {
			wordmem.Load(w.mems[op.target], op.offset, op.buf)
		}
	}
	clear(w.pending[len(kept):])
	w.pending = kept
	runtime.KeepAlive(w)
}

func (w *window) Flush(target int) error {
	if !w.fits(target, 0, 0) {
		return w.check(target, 0, 0)
	}
	if invariants.Enabled {
		w.complete(target)
	}
	return nil
}

func (w *window) FlushAll() error {
	if w.freed.Load() {
		return rma.ErrFreed
	}
	if invariants.Enabled {
		w.complete(-1)
	}
	return nil
}

func (w *window) CompareAndSwap(target, offset int, old, new uint64) (uint64, error) {
	p, err := w.word(target, offset)
	if err != nil {
		return 0, err
	}
	prev := wordmem.CompareAndSwap(p, old, new)
	runtime.KeepAlive(w)
	return prev, nil
}

func (w *window) FetchAndAdd(target, offset int, delta uint64) (uint64, error) {
	p, err := w.word(target, offset)
	if err != nil {
		return 0, err
	}
	v := atomic.AddUint64(p, delta) - delta
	runtime.KeepAlive(w)
	return v, nil
}

func (w *window) AtomicGet(target, offset int) (uint64, error) {
	p, err := w.word(target, offset)
	if err != nil {
		return 0, err
	}
	v := atomic.LoadUint64(p)
	runtime.KeepAlive(w)
	return v, nil
}

func (w *window) AtomicPut(target, offset int, v uint64) error {
	p, err := w.word(target, offset)
	if err != nil {
		return err
	}
	atomic.StoreUint64(p, v)
	runtime.KeepAlive(w)
	return nil
}
