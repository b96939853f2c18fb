// Package gdirma is GDI-RMA: the Graph Database Interface (package gdi)
// implemented over one-sided communication (package rma), the blocked
// graph data layout (package bgdl) and the distributed hash table (package
// dht). Ranks share nothing but RMA windows and collectives: every vertex,
// edge and index entry lives in a window, and a rank reaches data of other
// ranks only with Get, Put and remote atomics.
//
// # Parameters
//
// CreateDatabase takes a Params (or *Params, or nil for the defaults):
// the block size (64 to 4096 bytes, default 256), the block memory per rank
// (default 8 MiB), and the DHT's buckets and entries per rank. All ranks
// must pass the same values (they are compared, ErrNotSame otherwise).
// Running out of blocks or DHT entries is reported as gdi.ErrNoMemory (a
// commit that needs blocks fails with ErrTransactionCommitFail and changes
// nothing); a process never crashes for it.
//
// # Holders and blocks
//
// Every vertex, and every heavyweight edge, is a holder: a chain of bgdl
// blocks. A vertex's number — and, with the database tag, its UID — is the
// DPtr of its primary block, so UIDs are stable for the vertex's life.
// Vertex UIDs are tag (16 bits) | rank (16 bits) | block number (32 bits);
// edge UIDs are {UID of the origin, slot} (see below), or {UID of the
// holder, 0} for edges numbered by their holder.
//
// Each block begins with a marker word (primary of a vertex, primary of an
// edge, continuation with its fence) and the DPtr of the next block. The primary block
// adds the version of the committed holder and the length of its byte
// image; the image follows, continued in as many blocks as needed:
//
//	labels      count, label numbers
//	properties  count, then (property type, datatype, length, raw bytes)
//	vertex      degree, in-degree, out-degree; count of incident edges,
//	            then for each, in ascending order of edge numbers, a
//	            reference written relative to the vertex (refcodec.go):
//	            direction, which ends the vertex is, the other end,
//	            label (lightweight edges) and holder (heavyweight edges
//	            numbered after their origin), each only when needed
//	edge        direction, origin and target vertex numbers
//
// A transaction reads a vertex whose whole image fits in its primary block
// at once. Of a longer one it first reads the first 128 bytes (or the
// primary block, if it is at most 256 bytes long), and if its labels,
// properties and degrees fit there, reads the edge references only when it
// needs them (Transaction.full), and then only the bytes it has not read
// yet, if the holder's lock word says that no writer came in between
// (restHint). If they go on past the primary block, it reads on block by
// block until they end when the image is longer than minFenced blocks (a
// hub with long properties), and whole otherwise (Transaction.spanning).
// A vertex needed whole from the start (an end of an edge
// being changed) is read whole at once (Transaction.getWhole). Where the
// data window can prefetch (rma.Prefetcher: rma/local, and rma/mpi on
// one node), a read asks for the primary block before it reads the lock
// word (another window), a prefix read of an image that goes on asks for
// its next block at once, and deleting a vertex asks for the primary blocks of
// all its neighbours before it reads any, so that their misses overlap
// instead of following one another. Images of 256 bytes or more are read into
// buffers the transaction gives back when it ends (imagepool.go), and so
// are the copies of what it read, with the committed record of a vertex
// read whole (objpool.go): holders are kept apart from the
// copies, and results are copied out of them, so that nothing handed to
// the caller sees a copy reused by a later transaction. The labels and
// properties of a holder read whole stay encoded until used
// (lazyhead.go): an edge query, or a neighbour a delete changes, never
// decodes them. References stay
// undecoded bytes until used: edge queries in a transaction that changed
// no edge read them in place (vertexHolder.quickEdges, and allEdges
// without a constraint), and finding or
// changing one reference walks only the sizes of the others
// (record.rawFind); once a copy has references of its own, further
// changes are made in place. A commit writes the references of a changed
// vertex from its copy as they are.
// A reference removed from a long image is overwritten by a tombstone of
// its size rather than cut out (refcodec.go), so the image keeps its
// length and the commit writes only the blocks that changed (dirty.go);
// tombstones go when the references are next spliced or re-encoded. The
// marker of each continuation block says where the first entry starting
// in it begins (its fence, fences.go), so that a search for one reference
// in a long image halves the blocks and walks only one. Deleting a vertex
// does not even read its long neighbours whole: it walks the first cache
// line of each of their blocks to find its references by the fences, and
// the commit writes the tombstones into the blocks (sparsedrop.go).
//
// Both ends of an edge keep a reference to it with its direction and ends.
// A lightweight edge (at most one label, no properties) is nothing but
// these two references, which also carry its label; it is numbered after
// its origin and a slot (see light.go). An edge that gets a property or a
// second label becomes heavyweight: it gets a holder of its own for its
// labels and properties, named in the references, and keeps its number.
// Edge and neighbour queries without a constraint, constraints on
// lightweight edges, and the degree property types are answered from the
// vertex holder alone; a heavyweight edge's holder is read only when a
// constraint needs its labels or properties. A transaction that changes
// an edge rewrites the references at both ends in the same commit, so they
// never disagree. Index queries over edges find them through the holders
// of their origins.
//
// Blocks are taken from the creating rank first and from the other ranks
// when it has none left. A rank's high-water mark of blocks handed out
// (control window) bounds the scans that index queries make.
//
// # Metadata
//
// Labels, property types and indexes are replicated on every rank and
// changed only by collective calls, which exchange a summary of their
// arguments and each rank's verdict (Allgatherv), so that they succeed or
// fail everywhere, and give ErrNotSame on different arguments. Holders
// store metadata by object number; a transaction that meets a number this
// rank does not know (freed or changed meanwhile) gets a
// transaction-critical error.
//
// # Implicit index
//
// Application-level IDs of vertices with labels are kept unique in the
// DHT, key (label, ID) → vertex number. DHT keys are limited to 32 bytes
// while IDs are not: an ID shorter than 32 bytes is its own key, a longer
// one is replaced by its SHA-256 digest (exactly 32 bytes, so it cannot
// equal a short ID). A hit is always checked against the ID stored in the
// holder. IDs of vertices without labels (which need not be unique) and of
// edges are found by scanning the holders.
//
// # Transactions and locks
//
// A transaction copies every holder it touches into a private cache, and
// remembers the version it saw. It does not lock the holder to copy it: it
// notes the holder's lock word (package txn: the bgdl lock word of the
// primary block) while no writer holds it, copies the blocks, and copies
// them again if a writer took the word meanwhile (an optimistic read, as
// with a sequence lock), so readers never keep writers out and update no
// shared word. It works on these copies, so nothing is visible to others
// before commit, and abort just drops the copies and gives back the
// primary blocks of holders it created.
//
// Commit is optimistic concurrency control with two-phase locking of the
// writes (as in Silo):
//
//  1. take the lock word of every holder the transaction changed, created
//     or deleted, for writing, in the order of their numbers; a lock that
//     stays busy fails the commit (ErrTransactionCommitFail) after a
//     bounded number of short retries;
//  2. validate: every other copied holder still has the version seen and
//     is not locked for writing by another transaction (which would
//     install a change the commit cannot see), and every query would
//     return the same holders;
//  3. install: update the implicit index (insert-if-absent decides ID
//     uniqueness; on a clash everything is undone), take the blocks the
//     new images need, draw a version, write each image (continuation
//     blocks first, primary block last);
//  4. release the locks, then return unused blocks to the pool.
//
// A read-only transaction that copied one holder commits without any of
// this: its copy was taken atomically. Versions are drawn from a counter of
// the committing rank (count<<16 | rank), so no commit touches a shared
// word. Only a writing commit with queries that scan many holders (index
// queries, lookups of IDs without labels) waits, with its write locks
// held, for the holders of its rescan that other commits hold for
// writing; such commits first take the scan gate on rank 0, so that two
// of them never wait on each other. No transaction waits for a lock
// without bound, so there is no deadlock. Committed transactions are
// serializable (TestSerializability, TestWriteSkew).
//
// Collective read transactions run on a quiet database and end with an
// Allreduce of a failure flag so that all ranks agree on commit or abort.
//
// A Transaction and the holders it hands out are valid only while it is
// open; kept afterwards they return ErrTransaction (or the holder's
// invalid-argument code) and change nothing. Each is a small handle of
// its own, never reused; what an open transaction works with (its copies,
// queries and buffers) is a state the rank takes back when it ends and
// gives to its next transaction (txstate.go), so that starting one costs
// one small allocation and no fresh cache lines.
//
// # Indexes and constraints
//
// Explicit indexes keep the entries of the vertices they cover in per-rank
// B+trees in RMA windows (package index; see index.go): an entry for the
// index, one per label in L and one per property of a type in P, on the
// rank of the vertex. A query scans, in every rank's part or in its own,
// one key range per conjunction of its constraint and checks each vertex
// found against the whole predicate (gdi.IndexCovers and gdi.DNF), so its
// cost follows the size of the ranges, not of the graph. Entries change
// in the commit of the vertex, under its write lock; changes of an index's
// sets, metadata rewrites and BulkLoad rebuild the trees collectively.
// Edges have entries too (lightweight ones on the rank of their origin).
// While a collective change rebuilds a tree, the commits of every rank
// wait for it (before they lock anything), so that the entries of each
// commit are made by the rebuild or by the commit itself, never by
// neither. The old tree of an index being changed stays until the new one
// is complete on every rank: a change whose entries do not fit
// Params.IndexMemoryPerRank (next to the old ones) fails with ErrNoMemory
// on every rank and changes nothing. After BulkLoad, a metadata rewrite
// or recovery, an index whose entries do not fit scans the holders of all
// ranks up to their high-water marks instead. Edge and neighbour filters
// evaluate the constraint on the copies of the transaction.
//
// # Checkpoints
//
// Database.Checkpoint(dir) (collective, gdi.Checkpointer) writes the
// database to a directory; CreateDatabase with Params.Restore = dir
// creates it again, on the same number of ranks. Everything a database
// stores lives in RMA windows (the block pool, the control words, the
// DHT, the index forest) plus a few mirrors that are alike on every rank
// (Params, the UID tag, the catalog of labels, property types and
// indexes, the forest's directory mirror, which tree holds which index);
// checkpoint.go lists them. So a checkpoint is a copy of memory:
//
//   - the database must be quiet: Checkpoint fails with ErrConsistency on
//     every rank if any rank has an open transaction, and no transaction
//     may start before it returns;
//   - a checkpoint is a generation: every rank writes its own part of
//     every window to gen-<g>/rank-<r>.ckpt (rma.Snapshotter copies it, in
//     parallel on all ranks), in sections with a name, a length and a
//     CRC-32C each, and syncs it; rank 0 syncs the generation's directory,
//     writes manifest.json (format, ranks, Params, tag, catalog, mirrors,
//     generation, and the size and SHA-256 of every rank file; sealed with
//     the SHA-256 of its own bytes) to a temporary name, syncs it, renames
//     it over the old one and syncs the directory. That rename is the one
//     step that makes the new checkpoint current; the other generations
//     are removed after it. Until then the previous checkpoint is current
//     and whole, so an error (a full disk) or a crash at any moment of
//     Checkpoint leaves a restorable directory (ckptdir.go);
//   - a restore reads the manifest on rank 0 and broadcasts it, creates
//     the windows with the checkpoint's parameters (fields set in Params
//     must equal them, as must the number of ranks: ErrArgument), loads
//     each rank's windows from its file and checks sizes and checksums. A
//     missing file is ErrNoSuchFile, a corrupt, truncated or mismatched
//     one (the manifest included) ErrFileFormat; the message names the
//     file, and every rank gets it and frees the windows, so no
//     half-loaded database is returned. Checkpoints written before
//     generations (their files beside the manifest, which has no seal)
//     are still read.
//
// The restored database answers every query as the original did, with
// the same UIDs (the tag is kept), object numbers, free lists, counters
// and index trees, so it goes on exactly where the checkpoint was taken.
// Caveats: handles (labels, property types, indexes, constraints) of the
// original are not valid in the restored database: look them up by name,
// and find the indexes with Indexes, in creation order; constraints and
// subconstraints are not kept. Because the tag is kept, the original and
// its restore (or two restores of one checkpoint) accept each other's
// UIDs, which are erroneous there and not always detected. Files hold the
// whole windows, free blocks included, so their size is the memory per
// rank, not that of the data. Writing is synchronous (fsync).
//
// # Redo log
//
// With Params.Log = LogSync or LogAsync, every commit is also appended to
// a redo log, so a database survives the crash of a process (or of all):
// CreateDatabase with Params.Restore and Params.LogDir loads a checkpoint
// and replays the logs written after it.
//
//   - What is logged: the commit's writes to the data window of the block
//     pool, as they are made (the redo hook, staged.go): whole holder
//     images, in-place head rewrites, the cleared markers of new and of
//     deleted holders. These are physical records (block images), not
//     logical ones (create vertex, add edge). The choice: the holders are
//     the whole state of the graph, and everything else (the implicit
//     index, the explicit index trees, the free lists, the counters) is a
//     function of them, rebuilt on recovery. Replaying images needs no
//     second implementation of the commit logic, cannot fail on a uniqueness
//     check or a full pool, and does not depend on UIDs (block numbers)
//     being handed out again in the same order, which logical replay on
//     several ranks could not promise; commits already write whole images,
//     so the log costs a copy of what is written anyway. The price is
//     size: a change to a vertex of high degree logs its whole image.
//   - Order: a record carries a global sequence number, taken with one
//     FetchAndAdd on a word of rank 0's control window, inside the hook,
//     while the commit still holds its write locks. Two commits that write
//     the same holder hold its write lock in turn, so their numbers are in
//     the order of their writes. Blocks are reused only after the freeing
//     commit has dropped its locks and given them back, so a commit that
//     writes a reused block took its number after the freeing one. A
//     commit that read another's data took its number after that one
//     released its locks. So replaying in number order writes every byte
//     in the order the live database did.
//   - Files: each rank appends to rank-<r>.log, a segment, in a
//     generation directory of LogDir: a header (rank, ranks, mode, and the
//     sequence number it starts after; for the first segment of a quiet
//     checkpoint, the manifest's exactly), then records of a length, a CRC-32C of the
//     payload and a CRC-32C of the record header. A rank numbers its
//     records under its log's lock, so they are in the file in the order
//     of their numbers, and every write ends with a seal record, which
//     holds no data. A bad record that no whole record follows is a torn
//     tail (a write a crash cut short) and ignored. A bad record with a
//     whole record after it is an error (ErrFileFormat naming the file
//     and offset): silently stopping at the damage would drop commits
//     after it that were acknowledged. The seal makes that hold for the
//     last record with data too; damage to the last seal is harmless.
//   - Write-ahead: a commit's writes to the data window are staged
//     (staged.go) and logged before they are published, all while the
//     commit holds its write locks. If the log refuses the record, apply
//     undoes its other steps (the keys of the implicit index, the blocks,
//     the explicit indexes) and the commit fails with
//     ErrTransactionCommitFail, having changed nothing.
//   - Sync: the hook returns (and the commit is published, acknowledged,
//     and its locks dropped) only after the record is written and
//     fdatasync'ed. Goroutines of a rank that commit at once share one
//     sync (group commit). If the write or the sync fails, the commits of
//     that group fail and the file is cut back to its last whole record,
//     at once or before the next write, so a failure is not permanent:
//     once the disk has room, the next commit succeeds.
//   - Async: records go to a buffer that a goroutine writes and syncs
//     every AsyncLogInterval (and Checkpoint and Free flush it); a commit
//     is acknowledged once its record is in the buffer. What a crash may
//     lose: the commits whose records were not yet synced. A commit is
//     acknowledged at once only while the oldest record in the buffer is
//     younger than AsyncMaxLag (100 ms) and the last write succeeded;
//     otherwise it first writes and syncs the buffer itself, and fails if
//     that fails (a record in the buffer stays there until written). So
//     the commits a crash loses were all acknowledged within AsyncMaxLag
//     of each other, at the end, and recovery keeps a prefix of the
//     commits in their global order.
//   - Recovery: every rank reads its log; records numbered up to the
//     checkpoint's (manifest LogSeq) are skipped. With sync logs every
//     record is replayed: a number missing from the logs belongs to a
//     commit that was never acknowledged and that no logged commit depends
//     on (it would have had to wait for its locks, taken after the sync).
//     With async logs a lost record may have successors that depend on it,
//     so replay stops before the first missing number: a prefix of the
//     commits in their order, which is a state the database was in. The
//     logs are read record by record, twice: once for the numbers and the
//     catalog changes, then in rounds of at most 4096 records per rank,
//     each bounded by the least last number of the ranks' full rounds. In
//     each round every rank gets the writes to its part of the data
//     window (Alltoallv) and applies them in number order; a rank holds
//     one round of its log in memory. Then the derived state is rebuilt
//     from the holders: the blocks of the chains of all primary blocks are
//     in use and the rest free (bgdl.Pool.Rebuild), the high-water marks
//     follow, each rank's commit counter is raised above every version in
//     use, the DHT is cleared and every (label, ID) of every vertex
//     inserted again, and every index tree is built again.
//   - Metadata: collective metadata changes (CreateLabel, UpdateLabel,
//     CreatePropertyType, index creation and changes) append the catalog
//     to rank 0's log, synced, before the call returns on any rank; replay
//     sets the last one. The collective calls that write holders outside
//     commits (BulkLoad, the CSV loaders, FreeLabel, FreePropertyType,
//     UpdatePropertyType) are quiet anyway, and end, with the log on, by a
//     checkpoint to LogDir; so do CreateDatabase (the base the log
//     follows) and a restore with the log on (which also discards a torn
//     tail and, after an async log, records beyond a gap).
//   - Segments: a restore replays the segment of the manifest's LogFrom
//     generation and of every later one, in order, as one log.
//     Checkpoint(LogDir) with the log on flushes the logs, records the
//     sequence number it covers, and starts each rank's log anew in the
//     new generation (created and synced, name included, before the commit
//     point, followed once the checkpoint is current). A checkpoint to
//     another directory leaves the log alone.
//   - Bound: once a rank's segment passes Params.LogCheckpointSize, the
//     database takes an automatic checkpoint while commits go on
//     (autockpt.go): the ranks roll to new segments, copy their data
//     windows, and rank 0 makes a fuzzy manifest current, whose restore
//     replays the records after the least number the copies hold and then
//     derives the rest from the holders. Commits wait, a second at most,
//     while a segment is past four times the bound. Calls that write
//     holders outside commits, Checkpoint and Free hold rounds off. If the checkpoint that ends a call writing
//     holders outside commits fails, the log no longer covers the
//     database: commits fail until a Checkpoint to LogDir succeeds.
//   - Restore replays the logs beside the checkpoint only when
//     Params.LogDir is the Restore directory; a restore from a directory
//     whose logs hold commits after the checkpoint, without that, fails
//     (ErrArgument naming the log) rather than silently dropping them.
//   - Caveats: LogDir must be reachable by every rank, as for
//     checkpoints. A missing log file counts as an empty log. If the
//     process dies between a failed sync and the cut of the failed write,
//     a commit that reported failure may be found after the restore.
//
// # Caveats
//
//   - A lightweight edge takes 5 bytes in the holder of each of its ends:
//     a byte more if the ends are on different ranks, a byte more if its
//     slot is above 255, and 4 more for a label (refcodec.go). An end past
//     the first 2^24 blocks of its rank, or on a rank past 255, gets the
//     wide form of up to 15 bytes instead. At most 65535 edges can
//     be numbered after one vertex at a time, later ones get holders of
//     their own.
//   - A heavyweight edge that loses its properties and extra labels keeps
//     its holder; edges are never made lightweight again.
//   - Edge UIDs survive commits, but an edge numbered after a vertex that
//     is deleted while the edge lives on (after SetOrigin) changes its UID.
//   - A commit rewrites the whole image of every holder it changes, so
//     adding an edge costs time in the degrees of its ends. Deleting a
//     vertex writes one or two blocks of each neighbour (tombstones), but
//     still walks the chain of each long neighbour, a cache line per
//     block, to find its reference: on Kronecker graphs, whose random
//     vertices mostly neighbour hubs, that makes deletion the slowest
//     OLTP operation by far.
//   - Locks are held only during commit (the read phase copies holders
//     without locking them, checks each copy against the lock word, and
//     is validated by versions), where the
//     paper locks as data is accessed; both fail fast: a busy lock aborts,
//     it is never waited for beyond a few retries.
//   - Constraints are evaluated by the rank running the transaction, on
//     the holder it fetched with RMA; no rank computes for another.
//   - Lookups of IDs without labels scan all holders. A writing
//     transaction that made such a lookup, or an index query, asks again at
//     commit if another commit happened since.
//   - CSV loads and metadata rewrites are done by rank 0 on a quiet
//     database, holder by holder. Database.BulkLoad (bulk.go) is the fast
//     path for whole graphs: all ranks build complete holders of their
//     own vertices at once, without transactions.
//   - Internal UIDs of deleted holders may name a reused block later; using
//     them is erroneous and not always detected.
package gdirma
