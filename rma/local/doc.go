// Package local runs rma ranks as goroutines of one process. It is the
// embedded default backend: nothing to install, and race-detector clean.
//
// Each rank's part of a window is a []uint64 that every operation reads and
// writes word by word with sync/atomic, so windows behave as memory that
// other ranks reach only through the rma operations, and the race detector
// still sees races in the Go code around them. Parts of 4 MiB or more are
// mapped outside the Go heap on transparent huge pages (on Linux); Free
// gives their pages back, and the mapping goes once no handle of the
// window is left.
//
// Get and Put complete at once in normal builds. In builds with -race
// (internal/invariants), they are queued and carried out only by the Flush or
// FlushAll that completes them, so code that reads a Get buffer or reuses a
// Put buffer before flushing breaks in tests instead of working by luck.
//
// Collectives meet in a rendezvous guarded by a mutex. A rank that returns an
// error, panics, or returns while its peers wait in a collective aborts the
// run: the waiting ranks get rma.ErrAborted instead of hanging, and Run
// returns the error that caused it.
package local
