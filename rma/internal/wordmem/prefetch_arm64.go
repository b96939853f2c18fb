package wordmem

import "unsafe"

// prefetchLines issues PRFM PLDL1KEEP for p and every 64th byte after
// it, lines times. The instruction never faults, so addresses past the
// end of an allocation are harmless.
//
//go:noescape
func prefetchLines(p unsafe.Pointer, lines int)
