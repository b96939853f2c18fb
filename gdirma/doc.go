// Package gdirma is GDI-RMA: the Graph Database Interface (package gdi)
// implemented over one-sided communication (package rma). Ranks share
// nothing but RMA windows and collectives: every vertex, edge and index
// entry lives in a window, and a rank reaches another rank's data only
// with Get, Put and remote atomics (rma.Window), never through Go memory.
// So the same code runs with goroutine ranks (rma/local) and with Open MPI
// processes on many machines (rma/mpi).
//
// # Where things are
//
//   - internal/layout encodes a holder: its byte image, the edge
//     references in it and the object numbers they hold (layout.Number).
//     Pure functions of bytes, fuzzed on their own.
//   - internal/store keeps holders: blocks, their lock words, the DHT of
//     the implicit index and the control words, reached with one-sided
//     calls only. It reads a holder (store.Read, with a Mode) and installs
//     a planned change (store.Install of a store.Plan), and knows nothing
//     of records.
//   - internal/redolog and internal/checkpoint make commits durable: the
//     redo log's files and records; the checkpoint directory, its manifest
//     and the rank files of windows.
//   - this package is the rest: Driver, Database, Transaction, holders and
//     queries; the records decoded from images (record.go); the commit
//     pipeline (commit.go), which plans the changes of a transaction and
//     installs them through the store (apply.go); and the collective steps
//     of checkpoints and recovery over the durable packages (checkpoint.go,
//     restore.go, recover.go).
//
// The seams follow what changes together: an encoding change touches
// layout (and the checkpoint format number), a transport change store,
// a file format change the durable packages; the transaction logic, which
// needs records, catalog and queries at once, stays here.
//
// # The graph in windows
//
// A vertex is a vertex holder: a chain of fixed-size blocks (package bgdl)
// holding its byte image, which has its labels, its properties and a
// reference to every incident edge. The vertex's UID is the database tag
// and the DPtr of its primary block (rank, block number), so it is stable
// for the vertex's life and says where the vertex lives. Both ends of an
// edge keep a reference to it. A lightweight edge (at most one label, no
// properties) is nothing but those two references; an edge that gets
// more becomes heavyweight, with a holder of its own for its labels and
// properties. Vertices are created on the creating rank's blocks while it
// has free ones. The implicit index maps (label, application-level ID)
// to vertices in a distributed hash table (package dht), which keeps IDs
// unique per label; explicit indexes keep their entries in per-rank
// B+trees in windows (package index). Labels, property types and indexes
// (the catalog, internal/catalog) are replicated on every rank and
// changed only by collective calls, which succeed or fail alike on every
// rank. Holders name metadata by object number.
//
// The layout of images and blocks, and how reads avoid fetching more than
// they need, are described in package store; lightweight edge references in
// layout/codec.go and light.go; index entries in index.go.
//
// # How a transaction sees the graph
//
// A transaction copies every holder it touches into a private cache and
// works on the copies, so nothing it does is visible before commit and
// abort just drops them. Reads take no locks: a holder is copied while no
// writer holds its lock word and copied again if one took it meanwhile;
// the copy keeps that lock word, which every writer moves. Commit locks
// the holders it changes from the lock words they were read under (one
// compare-and-swap, which also proves them unchanged, or fails the commit
// before anything is written), validates that every other holder it read
// still has the lock word it was read under and every query still has
// the same answer, installs the new images and releases the locks (the
// steps are in transaction.go). Committed transactions are serializable. A lock
// that stays busy fails the commit at once (ErrTransactionCommitFail)
// rather than waiting, so there is no deadlock, and a transaction that
// read a state mixing two commits cannot commit.
//
// This departs from DESIGN.md and the paper, which take reader and writer
// locks as data is accessed (two-phase locking). Optimistic reads write no
// shared word, so a read costs no remote atomic on the lock and readers
// never keep writers out, which suits read-mostly OLTP; the price is work
// thrown away when validation fails, found at commit rather than at the
// first conflict.
//
// Collective transactions run on a quiet database and end with an
// agreement of all ranks. A Transaction and the holders it hands out are
// valid only while it is open; afterwards they return ErrTransaction (or
// the holder's invalid-argument code) and change nothing.
//
// # What is durable when
//
// Without a redo log a database lives in memory only: Checkpoint
// (gdi.Checkpointer, checkpoint.go) writes a consistent copy of a quiet
// database, and CreateDatabase with Params.Restore creates it again with
// the same UIDs. A checkpoint replaces the previous one atomically.
//
// With Params.Log (redolog.go), commits are logged as the block images
// they write, and metadata changes as catalog deltas. With LogSync a
// commit returns only once its record is on disk, so every acknowledged
// commit survives a crash of any process. With LogAsync a crash may lose
// the commits acknowledged in the last AsyncMaxLag, always a suffix: a
// restore gives a state the database was in. A commit the log cannot take
// fails and changes nothing. Automatic checkpoints (autockpt.go) bound the
// log while commits go on. Recovery (recover.go) loads the checkpoint,
// replays the logs in the global order of the commits, and rebuilds
// everything else from the holders.
//
// # Caveats
//
//   - Handles of labels, property types and indexes are valid only in the
//     database that made them, not in its restore; constraints are not
//     kept by checkpoints.
//   - UIDs of deleted objects may name reused blocks later; using them is
//     erroneous and not always detected, and a restored database accepts
//     the original's UIDs.
//   - A commit writes anew the image of each holder it changes (but for
//     labels and properties rewritten in place and references turned into
//     tombstones, which write only the blocks they change), so adding an
//     edge costs time in the degrees of its ends, and deleting a vertex of
//     high degree touches each neighbour.
//   - An edge numbered after a vertex that is deleted while the edge lives
//     on (after SetOrigin) changes its UID. At most 65535 edges are
//     numbered after one vertex at a time; later ones get holders of
//     their own. Heavyweight edges never become lightweight again.
//   - Lookups of IDs without labels scan all holders. CSV loads and
//     metadata rewrites run on rank 0 holder by holder; BulkLoad
//     (gdi.BulkLoader, bulk.go) loads whole graphs on all ranks at once.
package gdirma
