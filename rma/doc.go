// Package rma is the communication layer under GDI-RMA: a communicator of
// ranks with collectives (Comm) and windows of remotely accessible memory
// (Window) with one-sided operations.
//
// # Model
//
// The model is MPI-3 passive-target one-sided communication in the unified
// memory model. A program runs as Size() ranks. Ranks share nothing but the
// windows they allocate together and the collectives they call together; no Go
// pointer, map or channel ever crosses ranks. Code written against this
// package therefore runs unchanged on ranks that are goroutines of one process
// (package rma/local) and on ranks that are processes on different machines
// (package rma/mpi, built with the mpi tag).
//
// # Collectives
//
// Every rank calls every collective, in the same order, with compatible
// arguments. A collective called by some ranks only never completes; the local
// backend detects a rank that returned or failed and reports the hang as an
// error instead.
//
// # Windows
//
// A window is allocated collectively with the same size on every rank and is
// open for access by all ranks from the moment it is returned until Free.
// Offsets are byte offsets into the target rank's part of the window.
//
//   - Get and Put copy byte ranges of any length and alignment. They are
//     non-blocking: the destination of a Get holds the data, and the data of a
//     Put is visible at the target, only after Flush(target) or FlushAll by
//     the same rank. The source of a Put must not be modified, and the
//     destination of a Get must not be read, before that flush.
//   - CompareAndSwap, FetchAndAdd, AtomicGet and AtomicPut act on one aligned
//     8-byte word each. They are atomic with respect to each other, and they
//     return completed results; no flush is needed.
//   - Get and Put are not atomic with respect to concurrent writers of the
//     same bytes, and they are not ordered with the atomics. Higher layers
//     order conflicting accesses with locks built from the atomics.
//
// Words are little-endian: the word written by AtomicPut(t, off, v) reads back
// through Get as binary.LittleEndian bytes at off.
//
// Windows may have optional capabilities, found by type assertion:
// Snapshotter (copying a rank's part to a stream and back, for
// checkpoints), Prefetcher (a hint to start loading a range into the
// cache ahead of a Get, where the process reaches the memory directly) and
// AtomicBatcher (atomics on distinct words completed together, one round
// trip for many; callers use Atomics, which falls back to single calls).
//
// # Errors
//
// Bad input returns an error wrapping one of the sentinel errors below and
// never panics or touches memory: a rank out of range (ErrRank), a byte range
// outside the window (ErrRange), an atomic on a misaligned offset
// (ErrAlignment), a freed window (ErrFreed), or mismatched collective buffers
// (ErrArgument). A collective whose peer ranks failed returns ErrAborted.
//
// # Concurrency
//
// Comm and Window methods may be called concurrently by many goroutines of
// the same rank, except that collectives on one Comm must be called by one
// goroutine at a time and in the same order on every rank. Flush(target)
// completes every Get and Put the calling rank issued to target, whichever
// goroutine issued it.
package rma
