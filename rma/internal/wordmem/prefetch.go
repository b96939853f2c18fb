package wordmem

import "unsafe"

// Prefetch starts loading the cache lines that hold bytes [off, off+n) of
// mem, without waiting for them (rma.Prefetcher). A range not within mem
// is cut to it, or ignored.
func Prefetch(mem []uint64, off, n int) {
	if off < 0 || n <= 0 || off >= len(mem)*8 {
		return
	}
	n = min(n, len(mem)*8-off)
	// Line i of the range holds the byte 64*i bytes after the first,
	// whatever the alignment of mem.
	lines := (off+n-1)/64 - off/64 + 1
	prefetchFn(unsafe.Pointer(&mem[off>>3]), lines)
}

// prefetchFn is prefetchLines, replaced by tests that check the lines
// asked for.
var prefetchFn = prefetchLines
