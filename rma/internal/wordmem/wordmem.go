// Package wordmem copies bytes in and out of memory held as 64-bit words,
// the representation of window memory that the rma backends reach
// directly: rma/local's Go slices, and rma/mpi's shared-memory windows.
// Whole words are loaded and stored whole, so a concurrent atomic on a
// word sees it old or new, never torn; race-detector builds use atomics
// for every word (words_race.go).
package wordmem

import (
	"encoding/binary"
	"sync/atomic"
)

// Load copies len(dst) bytes at byte offset off of mem into dst: whole
// words with loadWords, the bytes of a partly covered word from one atomic
// load of it.
func Load(mem []uint64, off int, dst []byte) {
	if off&7 == 0 && len(dst) == 8 {
		binary.LittleEndian.PutUint64(dst, atomic.LoadUint64(&mem[off>>3]))
		return
	}
	for len(dst) > 0 {
		i, shift := off>>3, off&7
		if shift == 0 && len(dst) >= 8 {
			n := len(dst) &^ 7
			loadWords(mem, i, dst[:n])
			dst, off = dst[n:], off+n
			continue
		}
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], atomic.LoadUint64(&mem[i]))
		n := copy(dst, b[shift:])
		dst, off = dst[n:], off+n
	}
}

// Store copies src to byte offset off of mem. Whole words are stored
// whole (storeWords); a partly covered word is merged with a CAS loop, so
// bytes outside [off, off+len(src)) are never overwritten with stale
// values.
func Store(mem []uint64, off int, src []byte) {
	for len(src) > 0 {
		i, shift := off>>3, off&7
		if shift == 0 && len(src) >= 8 {
			n := len(src) &^ 7
			storeWords(mem, i, src[:n])
			src, off = src[n:], off+n
			continue
		}
		n := min(8-shift, len(src))
		for {
			old := atomic.LoadUint64(&mem[i])
			var b [8]byte
			binary.LittleEndian.PutUint64(b[:], old)
			copy(b[shift:shift+n], src[:n])
			if atomic.CompareAndSwapUint64(&mem[i], old, binary.LittleEndian.Uint64(b[:])) {
				break
			}
		}
		src, off = src[n:], off+n
	}
}

// CompareAndSwap replaces *p with new if it equals old, and returns the
// word it found there: old on success, as MPI_Compare_and_swap reports.
func CompareAndSwap(p *uint64, old, new uint64) uint64 {
	for {
		cur := atomic.LoadUint64(p)
		if cur != old {
			return cur
		}
		if atomic.CompareAndSwapUint64(p, old, new) {
			return old
		}
	}
}
