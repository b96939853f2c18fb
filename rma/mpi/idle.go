//go:build mpi

package mpi

/*
#include "shim.h"
#cgo nocallback gdi_progress
*/
import "C"

import (
	"runtime"
	"time"

	"github.com/gdi-go/gdi/rma"
)

var _ rma.Idler = (*window)(nil)

// Idle implements rma.Idler: until d has passed it runs MPI's progress
// engine, yielding to other goroutines between calls. A shared-memory
// window needs no progress and yields only.
func (w *window) Idle(d time.Duration) {
	start := time.Now()
	for {
		if w.mems == nil && !w.freed.Load() {
			C.gdi_progress(w.c.c)
		}
		if time.Since(start) >= d {
			return
		}
		runtime.Gosched()
	}
}
