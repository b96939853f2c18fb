// Package dht is the distributed hash table that maps (label, application
// ID) keys to 64-bit values, DPtrs of vertex holders in GDI-RMA. Every
// operation uses only one-sided reads, writes and atomics, so no rank has to
// take part in another rank's insert, lookup or delete.
//
// # Layout
//
// A key's 64-bit xxhash picks a rank and a bucket on it. The table window
// holds each rank's buckets as slots: the bucket's link word and the
// bucket's Homes home entries. A chain
// starts at the link word; its entries are home entries or overflow
// entries, fixed-size blocks of a bgdl.Pool on the same rank, so a chain
// never leaves its rank. An insert takes a free home entry of its bucket
// if there is one, so at loads up to a key per bucket most keys live in
// their bucket's slot, and Guess answers for them in one access (a Lookup
// reads a link, an entry and the link again for each entry it passes).
// Slots are padded to whole cache lines, and a lookup reads an entry's
// header and only as many key bytes as its key has. Each entry is
//
//	word 0   link to the next entry: tag (32 bits) | used (1) | mark (1) | entry (30)
//	word 1   value
//	word 2   hash of the key
//	word 3   label (32 bits) | key length (32 bits)
//	then     the key bytes, up to Config.MaxKey
//
// Entries are numbered per rank: 1 to Homes*Buckets are home entries, the
// rest overflow entries.
//
// # Algorithm
//
// Chains are lock-free linked lists after Michael (2002), as the paper's
// Listing 4 sketches them: insert pushes at the head with a CAS on the
// bucket; delete first marks the entry's own link, then swings its
// predecessor's link past it. A home entry is free while the used bit of
// its link is clear, so one CAS of that link both takes the entry and
// links it before the chain: an insert into a bucket whose chain lies in
// its slot reads the bucket word and the slot, swaps the entry's link,
// writes the entry and swaps the bucket word (insertHome). A lookup that
// meets a marked entry helps by unlinking it, so no operation waits for a
// stalled deleter.
//
// Deleted entries are freed and reused. That is safe because entries are
// type-stable (an entry's memory only ever holds entries) and every
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
