package local

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePageMin is the window size from which memory is advised to use
// transparent huge pages. Random one-sided access to large windows (block
// pools, hash tables) otherwise misses the TLB on nearly every access.
const hugePageMin = 4 << 20

// adviseHugePages asks the kernel to back the 2 MiB-aligned interior of mem
// with huge pages. It is only advice: errors are ignored, and the memory
// stays ordinary Go heap memory.
func adviseHugePages(mem []uint64) {
	if len(mem)*8 < hugePageMin {
		return
	}
	const huge = 2 << 20
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(mem))), len(mem)*8)
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo := int((start+huge-1)&^(huge-1) - start) // first huge-page boundary
	hi := lo + (len(b)-lo)&^(huge-1)
	if hi <= lo {
		return
	}
	_ = unix.Madvise(b[lo:hi], unix.MADV_HUGEPAGE)
}
