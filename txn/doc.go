// Package txn holds the reader-writer locks of GDI-RMA transactions.
//
// # Lock words
//
// Every vertex and edge holder of gdirma is named by its primary block, and
// the bgdl pool keeps one 64-bit lock word per block in its Locks window.
// This package gives that word a reader-writer protocol built only from
// remote atomics, so any rank can lock any holder without the owning rank
// taking part:
//
//	bit 63      writer bit
//	bits 0-62   number of readers
//
// A reader adds one with FetchAndAdd; if the writer bit was set, it takes
// its increment back and has failed. A writer swaps 0 for the writer bit
// with CompareAndSwap, so it only succeeds when there is no reader and no
// writer. A writer unlocks by subtracting the writer bit (not by storing
// zero), because failed readers may have incremented the count for a moment.
//
// # No waiting
//
// Locks are tried, never waited for: each attempt retries a bounded number
// of times with a short, growing pause (readers hold a word only while they
// copy a holder), then gives up with ErrBusy. The transaction that gets
// ErrBusy fails instead of waiting, so there is no deadlock and no
// unbounded spinning. A LockSet collects the locks of one transaction and
// releases them all at once at its end (two-phase locking).
package txn
