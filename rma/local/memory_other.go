//go:build !linux

package local

// region is a rank's part of a window: Go heap memory on this system.
type region struct{ mem []uint64 }

func newRegion(words int) *region { return &region{mem: heapWords(words)} }

func (r *region) release() {}
