package wordmem

import (
	"math/rand/v2"
	"testing"
	"unsafe"
)

// TestPrefetchLines checks, for random ranges in and out of memory, that
// Prefetch asks for exactly the cache lines that hold the part of the
// range within mem, from the address of its first byte on.
func TestPrefetchLines(t *testing.T) {
	mem := make([]uint64, 100) // 800 bytes
	base := uintptr(unsafe.Pointer(&mem[0]))
	var gotP uintptr
	var gotLines, calls int
	prefetchFn = func(p unsafe.Pointer, lines int) { gotP, gotLines = uintptr(p), lines; calls++ }
	defer func() { prefetchFn = prefetchLines }()
	rng := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		off, n := rng.IntN(900)-50, rng.IntN(300)-20
		calls, gotLines = 0, 0
		Prefetch(mem, off, n)
		if off < 0 || n <= 0 || off >= len(mem)*8 {
			if calls != 0 {
				t.Fatalf("Prefetch(%d, %d) outside mem asked for %d lines", off, n, gotLines)
			}
			continue
		}
		end := min(off+n, len(mem)*8) // the last byte asked for is end-1
		wantP := base + uintptr(off&^7)
		// Lines are counted from the first byte, whatever mem's alignment.
		wantLines := (end-1)/64 - off/64 + 1
		if calls != 1 || gotP != wantP || gotLines != wantLines {
			t.Fatalf("Prefetch(%d, %d): %d calls, p=base+%d lines=%d; want 1 call, base+%d, %d lines",
				off, n, calls, gotP-base, gotLines, wantP-base, wantLines)
		}
	}
}

// TestPrefetchChangesNothing runs the real instruction over all of a
// memory and past its end, and checks that the memory is unchanged.
func TestPrefetchChangesNothing(t *testing.T) {
	mem := make([]uint64, 1000)
	for i := range mem {
		mem[i] = uint64(i) * 0x9e3779b97f4a7c15
	}
	for off := 0; off < len(mem)*8; off += 37 {
		Prefetch(mem, off, 4096)
	}
	Prefetch(mem[:0], 0, 64)
	for i, w := range mem {
		if w != uint64(i)*0x9e3779b97f4a7c15 {
			t.Fatalf("word %d changed to %x", i, w)
		}
	}
}

// BenchmarkPrefetch reads 256-byte records at random places of 256 MiB,
// each found only when the one before it is read (as a holder's next
// block is), with some work per record. Prefetching the next record
// while working on the current one hides most of the wait for memory.
func BenchmarkPrefetch(b *testing.B) {
	const rec = 256
	mem := make([]uint64, 256<<20/8)
	recs := len(mem) * 8 / rec
	rng := rand.New(rand.NewPCG(5, 6))
	next := make([]int, recs) // a random cycle through all records
	perm := rng.Perm(recs)
	for i := range perm {
		next[perm[i]] = perm[(i+1)%recs]
	}
	for i := range recs {
		mem[i*rec/8] = uint64(next[i])
	}
	for _, pf := range []bool{false, true} {
		b.Run(map[bool]string{false: "off", true: "on"}[pf], func(b *testing.B) {
			var buf [rec]byte
			cur, sum := perm[0], uint64(0)
			for b.Loop() {
				Load(mem, cur*rec, buf[:])
				nxt := int(mem[cur*rec/8])
				if pf {
					Prefetch(mem, nxt*rec, rec)
				}
				for _, c := range buf { // the work on a record
					sum = sum*31 + uint64(c)
				}
				cur = nxt
			}
			if sum == 1 {
				b.Log(sum)
			}
		})
	}
}
