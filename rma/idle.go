package rma

import "time"

// Idler is an optional capability of a Window whose one-sided operations
// need the target process to take part. Over MPI, a target's progress
// engine serves the atomics (and, over TCP, the gets and puts) that
// other ranks aim at it, and it runs only while that process is inside an
// MPI call: a rank that sleeps, or computes, stalls every rank waiting on
// its window.
//
// Idle waits about d (at least d, and not much more) while serving other
// ranks' operations on this process's windows, and reports true. If no
// other rank needs this process's help on this window (every part of it
// is reached directly, as in shared memory), it returns false at once, and
// the caller waits its own way. Code that waits for another rank, a lock
// holder for instance, calls it instead of sleeping. It is safe for
// concurrent use. Callers find it by type assertion and wait their own
// way where a window lacks it.
type Idler interface {
	Idle(d time.Duration) bool
}

// Idle waits about d: through w's Idler if it has one and needs it, by
// sleeping if not.
func Idle(w Window, d time.Duration) {
	if idl, ok := w.(Idler); ok && idl.Idle(d) {
		return
	}
	time.Sleep(d)
}
