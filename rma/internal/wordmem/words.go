//go:build !race

package wordmem

import (
	"encoding/binary"
	"unsafe"
)

// storeWords stores src, a multiple of 8 bytes long, into the words of mem
// from index i on.
//
// Each word is one aligned 8-byte store, so a concurrent AtomicGet sees
// the old or the new word, never a mix; but the stores are plain ones,
// not atomic.StoreUint64, which on amd64 is an XCHG that drains the store
// buffer: a Put of a block that misses the cache would wait for every
// line in turn. Put promises no ordering among its own words (MPI's does
// not either): Flush and the RMA synchronisation of the caller give that.
// Race-detector builds use atomic stores instead (words_race.go), so
// that the detector checks the callers' synchronisation, not these words.
func storeWords(mem []uint64, i int, src []byte) {
	words := mem[i : i+len(src)/8]
	if nativeLittle && len(words) > 0 && uintptr(unsafe.Pointer(unsafe.SliceData(src)))%8 == 0 {
		// The bytes of src read as words in place: a plain word copy,
		// without a decode and a bounds check per word.
		from := unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(src))), len(words))
		for j := range words {
			words[j] = from[j]
		}
		return
	}
	for j := range words {
		words[j] = binary.LittleEndian.Uint64(src[8*j:])
	}
}

// nativeLittle reports whether words are stored little-endian, so that the
// memory of mem reads as the bytes of the window.
var nativeLittle = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// loadWords copies the words of mem from index i on into dst, a multiple
// of 8 bytes long. On little-endian machines it is one memmove of their
// bytes. That can tear a word that a concurrent Put or atomic changes,
// which Get allows (see the rma package documentation: Get is not atomic
// with respect to concurrent writers); callers that need whole words use
// AtomicGet. Race-detector builds load each word atomically instead.
func loadWords(mem []uint64, i int, dst []byte) {
	words := mem[i : i+len(dst)/8]
	if nativeLittle && len(words) > 0 {
		copy(dst, unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), len(dst)))
		return
	}
	for j := range words {
		binary.LittleEndian.PutUint64(dst[8*j:], words[j])
	}
}
