package local

import (
	"testing"
	"unsafe"
)

// TestHeapWordsOwnLines checks that small regions start on a cache line
// and end before the next object can: two regions allocated one after the
// other never share a line.
func TestHeapWordsOwnLines(t *testing.T) {
	for _, n := range []int{0, 1, 4, 7, 8, 9, 16, 100} {
		var prevLast uintptr
		for i := range 64 {
			mem := heapWords(n)
			if len(mem) != n || cap(mem) != n {
				t.Fatalf("heapWords(%d): len %d cap %d", n, len(mem), cap(mem))
			}
			if n == 0 {
				continue
			}
			first := uintptr(unsafe.Pointer(&mem[0]))
			if first%(lineWords*8) != 0 {
				t.Fatalf("heapWords(%d) starts at %#x, inside a cache line", n, first)
			}
			last := uintptr(unsafe.Pointer(&mem[n-1])) / (lineWords * 8)
			if i > 0 && (first/(lineWords*8) == prevLast) {
				t.Fatalf("heapWords(%d): two regions share line %#x", n, prevLast)
			}
			mem[n-1] = 1 // the last word is usable
			prevLast = last
		}
	}
}
