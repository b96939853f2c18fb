//go:build race

package wordmem

import (
	"encoding/binary"
	"sync/atomic"
)

// storeWords stores src, a multiple of 8 bytes long, into the words of mem
// from index i on, each with an atomic store (see words.go).
func storeWords(mem []uint64, i int, src []byte) {
	for j := 0; j < len(src); j += 8 {
		atomic.StoreUint64(&mem[i+j/8], binary.LittleEndian.Uint64(src[j:]))
	}
}

// loadWords copies the words of mem from index i on into dst, a multiple
// of 8 bytes long, each with an atomic load (see words.go).
func loadWords(mem []uint64, i int, dst []byte) {
	for j := 0; j < len(dst); j += 8 {
		binary.LittleEndian.PutUint64(dst[j:], atomic.LoadUint64(&mem[i+j/8]))
	}
}
