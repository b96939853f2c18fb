package local

import "unsafe"

// lineWords is the words of a cache line.
const lineWords = 8

// heapWords returns Go heap memory for a region of n words that has its
// cache lines to itself: it starts on a line and no other object shares
// its last line.
//
// The ranks' parts of a small window are allocated one after another, and
// a window of a counter word per rank would otherwise have all ranks'
// counters on one line. Every update of one of them by one core then takes
// the line from the others: gdirma's per-rank commit counters did so on
// every commit.
func heapWords(n int) []uint64 {
	lines := (n + lineWords - 1) / lineWords
	buf := make([]uint64, (lines+1)*lineWords)
	skip := 0
	if a := uintptr(unsafe.Pointer(unsafe.SliceData(buf))) % (lineWords * 8); a != 0 {
		skip = int(lineWords*8-a) / 8
	}
	return buf[skip : skip+n : skip+n]
}
