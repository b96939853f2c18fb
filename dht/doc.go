// Package dht is the distributed hash table that maps (label, application
// ID) keys to 64-bit values, DPtrs of vertex holders in GDI-RMA. Every
// operation uses only one-sided reads, writes and atomics, so no rank has to
// take part in another rank's insert, lookup or delete.
//
// # Layout
//
// A key's 64-bit xxhash picks a rank and a bucket on it. The table window
// holds each rank's buckets, one word each; a bucket word points to a chain
// of entries. Entries are fixed-size blocks of a bgdl.Pool on the same rank
// as their bucket, so a chain never leaves its rank:
//
//	word 0   link to the next entry: tag (32 bits) | mark (1) | entry (31)
//	word 1   value
//	word 2   hash of the key
//	word 3   label (32 bits) | key length (32 bits)
//	then     the key bytes, up to Config.MaxKey
//
// # Algorithm
//
// Chains are lock-free linked lists after Michael (2002), as the paper's
// Listing 4 sketches them: insert pushes at the head with a CAS on the
// bucket; delete first marks the entry's own link, then swings its
// predecessor's link past it. A lookup that meets a marked entry helps by
// unlinking it, so no operation waits for a stalled deleter.
//
// Deleted entries go back to the pool and are reused. That is safe because
// entries are type-stable (an entry block only ever holds entries) and every
// link carries a tag that each CAS increments, including the re-initialising
// write of a reused entry. A reader copies an entry, then re-reads the link
// it followed: if that link still holds the same tagged value, the entry was
// linked, and so unchanged, throughout the copy. Otherwise it starts over.
// A reader never trusts what it read from an entry it cannot revalidate, so
// a recycled entry can never lead it into another chain.
//
// # Caveats
//
// Keys must not exceed Config.MaxKey bytes. An inserted key is unique:
// Insert of a present key fails with ErrExists. Range and Len are exact only
// at quiescent points.
package dht
