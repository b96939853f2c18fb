// Package store keeps the holders of a GDI-RMA database in blocks of RMA
// windows and reads and writes them with one-sided operations only.
//
// # Model
//
// A holder (a vertex, or an edge with labels or properties of its own) is
// a byte image, encoded by package layout, stored in a chain of bgdl
// blocks. The DPtr of the first, primary, block names the holder for its
// whole life. Every block starts with a marker word and the DPtr of the
// next block (Null ends the chain):
//
//	primary       marker "GDIPRIM" | kind, next, version, image length
//	              (low half) | check or chain sum (high half), then the
//	              first bytes of the image
//	continuation  marker "GDICON" | fence, next, then the image goes on
//
// A primary block that holds its image whole may be checked: its check is
// a CRC of the block, and its next word, naming no block, holds the lock
// word its writer left, so that one access reads it (checked.go). One
// whose image goes on has a sum of its chain instead, by which a reader
// that remembers the chain knows it is still the holder's (chainsum.go).
//
// The fence of a continuation block is where in it the first edge
// reference that starts there begins (NoFence if none does); only images
// of more than MinFenced blocks have fences, for readers that search one
// reference by halving the blocks.
//
// Each block has a lock word in the pool's lock window (package txn's
// reader-writer lock with a write count). Beside the blocks a Store holds
// the distributed hash table of the implicit index (application IDs) and
// a small control window per rank: the high-water mark of blocks handed
// out (scans stop there), the rank's commit counter (from which versions
// are drawn, so that versions are unique without a shared counter), the
// scan gate and the redo log's sequence number.
//
// # Invariants
//
//   - A holder's version changes with every write of it and is never 0;
//     two images with the same version are the same image.
//   - Readers take no lock. Read copies a checked block in one access, and
//     takes its stamp from it; it copies any other holder and checks the
//     copy against the holder's lock word (txn.ReadBegin, txn.ReadValid).
//     A copy a writer overlapped fails either check and is made again the
//     long way. A reader that holds the lock word itself (Request.Held)
//     reads without the check.
//   - Writers hold the holder's write lock. Install puts the continuation
//     blocks first and the primary block last, so that a reader never
//     sees a new primary block over old continuations it would then read.
//   - A block belongs to at most one holder. Release clears its marker
//     before the block goes back to the pool, so a free block is never a
//     primary block (recovery frees only blocks no chain names, and every
//     primary block is the start of its own chain).
//   - The high-water mark of a rank is at or above every block handed out
//     on it; it may be a little above (hwStep), and this rank may know it
//     to be higher than it last read (Store.hw) until recovery sets it.
//
// # Operations
//
// Read is the one read of a holder; its Mode says how much it fetches
// (the primary block only, or the whole chain) and whether it lists the
// blocks. A Read On from a prefix image read before (Mode On)
// continues it instead of starting over. Install is the one write: it
// installs the Plan of one holder's change, which is a deletion, a new
// head or a few bytes written in place, or a whole image written over a
// chain of blocks but for the blocks a Dirty span says are unchanged.
// Everything that decides what to write (records, edge references,
// indexes) lives above, in gdirma, which makes the plans.
package store
