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
//	bits 32-62  count of write locks taken (modulo 2^31)
//	bits 0-31   number of readers
//
// A reader adds one with FetchAndAdd; if the writer bit was set, it takes
// its increment back and has failed. A writer sets the writer bit and
// counts itself with CompareAndSwap from a word without reader or writer,
// so it only succeeds when there is none. A writer unlocks by subtracting
// the writer bit (not by storing a word), because failed readers may have
// incremented their count for a moment.
//
// # Optimistic reads
//
// A reader that can check afterwards what it read need not take the word
// (ReadBegin, ReadValid): it notes the word while no writer holds it,
// copies the data, and reads the word again. If a writer took it in
// between, the count of write locks or the writer bit differs, and the
// copy may be torn: the reader reads again. Such reads cost no atomic
// update of a shared word and never keep a writer out. They are wrong only
// if 2^31 writers take the word while one copy is made.
//
// # No waiting
//
// Locks are tried, never waited for: each attempt retries a bounded number
// of times with a short, growing pause (a word is held only while its
// holder is copied or written), then gives up with ErrBusy; so does
// ReadBegin while a writer holds the word, and a reader whose copies keep
// turning out torn. The transaction that gets
// ErrBusy fails instead of waiting, so there is no deadlock and no
// unbounded spinning. A LockSet collects the locks of one transaction and
// releases them all at once at its end (two-phase locking).
package txn
