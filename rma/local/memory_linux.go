package local

import (
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// largeWindow is the size from which a rank's part of a window is mapped
// outside the Go heap, on transparent huge pages.
//
// Random one-sided access to large windows (block pools, hash tables)
// otherwise misses the TLB on nearly every access: advised after the Go
// heap has mapped them, such windows got huge pages for a tenth of their
// memory here. Outside the heap they also cost the collector nothing (its
// goal no longer doubles a window's size, so the memory the program
// allocates stays in cache), are not zeroed when a window takes memory
// another one freed, and cost only the pages a program touches.
const largeWindow = 4 << 20

// region is a rank's part of a window. Every handle of the window keeps it
// alive; once none does, the mapping, if any, is undone.
type region struct {
	mem    []uint64
	mapped []byte // the mapping, if mem is outside the Go heap
}

func newRegion(words int) *region {
	if words*8 < largeWindow {
		return &region{mem: heapWords(words)}
	}
	b, err := unix.Mmap(-1, 0, words*8, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		return &region{mem: heapWords(words)}
	}
	_ = unix.Madvise(b, unix.MADV_HUGEPAGE) // advice only
	r := &region{mem: unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(b))), words), mapped: b}
	runtime.AddCleanup(r, func(b []byte) { _ = unix.Munmap(b) }, b)
	return r
}

// release gives the region's pages back to the system once the window is
// freed. The mapping stays until the region is unreachable, so that a
// late access by a buggy program reads zeros rather than faulting.
func (r *region) release() {
	if r.mapped != nil {
		_ = unix.Madvise(r.mapped, unix.MADV_DONTNEED)
	}
}
