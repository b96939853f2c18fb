//go:build !race

package local

import "encoding/binary"

// storeWords stores src, a multiple of 8 bytes long, into the words of mem
// from index i on.
//
// Each word is one aligned 8-byte store, so a concurrent AtomicGet sees
// the old or the new word, never a mix; but the stores are plain ones,
// not atomic.StoreUint64, which on amd64 is an XCHG that drains the store
// buffer: a Put of a block that misses the cache would wait for every
// line in turn. Put promises no ordering among its own words (MPI's does
// not either): Flush and the RMA synchronisation of the caller give that.
// Race-detector builds use atomic stores instead (wordstore_race.go), so
// that the detector checks the callers' synchronisation, not these words.
func storeWords(mem []uint64, i int, src []byte) {
	words := mem[i : i+len(src)/8]
	for j := range words {
		words[j] = binary.LittleEndian.Uint64(src[8*j:])
	}
}
