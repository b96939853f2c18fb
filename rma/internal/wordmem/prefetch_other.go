//go:build !amd64 && !arm64

package wordmem

import "unsafe"

// prefetchLines does nothing where no prefetch instruction is wired up.
func prefetchLines(p unsafe.Pointer, lines int) {}
