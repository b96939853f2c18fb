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

// Idle implements rma.Idler: if other nodes reach this window through
// MPI, it runs MPI's progress engine until d has passed, yielding to other
// goroutines between calls; otherwise it returns false at once.
func (w *window) Idle(d time.Duration) bool {
	if !w.remote {
		return false
	}
	start := time.Now()
	for !w.freed.Load() {
		C.gdi_progress(w.c.c)
		if time.Since(start) >= d {
			break
		}
		runtime.Gosched()
	}
	return true
}

// pollEvery is how many atomics on mapped parts a window makes between
// two runs of MPI's progress engine, when other nodes reach it through
// MPI: a rank that spins on a word of its own, waiting for another node's
// write, must let that write in.
const pollEvery = 32

// poll counts one atomic on a mapped part, and runs MPI's progress engine
// every pollEvery of them if other nodes reach this window through MPI.
func (w *window) poll() {
	if w.remote && w.polls.Add(1)%pollEvery == 0 {
		C.gdi_progress(w.c.c)
	}
}
