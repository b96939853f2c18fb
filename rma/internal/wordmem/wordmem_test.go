package wordmem

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// TestLoadStoreMatchBytes stores random byte ranges, aligned or not, and
// checks every byte of the memory against a plain byte slice that had the
// same copies made.
func TestLoadStoreMatchBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	mem := make([]uint64, 64)
	want := make([]byte, len(mem)*8)
	for range 2000 {
		off := rng.IntN(len(want))
		n := rng.IntN(len(want) - off + 1)
		src := make([]byte, n)
		for i := range src {
			src[i] = byte(rng.Uint32())
		}
		Store(mem, off, src)
		copy(want[off:], src)
		got := make([]byte, len(want))
		for i, w := range mem {
			binary.LittleEndian.PutUint64(got[8*i:], w)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("after Store(%d, %d bytes) memory differs from the bytes stored", off, n)
		}
		lo := rng.IntN(len(want))
		dst := make([]byte, rng.IntN(len(want)-lo+1))
		Load(mem, lo, dst)
		if !bytes.Equal(dst, want[lo:lo+len(dst)]) {
			t.Fatalf("Load(%d, %d bytes) = %x, want %x", lo, len(dst), dst, want[lo:lo+len(dst)])
		}
	}
}
