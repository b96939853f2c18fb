// Package refdb is the reference backend of GDI: a deliberately simple
// in-memory graph database that implements gdi.Driver and every optional
// capability of package gdi (gdi.MetadataRewriter, gdi.CSVLoader). It is
// the oracle against which faster backends are compared, so it is written
// for clarity and obvious correctness, not speed.
//
// # One store, one mutex
//
// The ranks of a database are goroutines of one process (rma/local). They
// share one store: the committed vertices and edges, each a record with
// labels, properties and a version number, plus the implicit index that
// maps (label, application-level ID) to vertices. A single mutex guards the
// store; every read of committed data and every commit holds it briefly.
// Sharing Go memory between ranks breaks the project's rule that ranks
// share nothing but RMA windows, which is acceptable only here: refdb runs
// only on rma/local. CreateDatabase agrees on the store through the Comm
// (rank 0 registers it under a fresh number and broadcasts the number), and
// returns an error on every rank if the ranks cannot find it, as happens
// when they are separate processes (rma/mpi).
//
// # Metadata
//
// Labels, property types and indexes are replicated: every rank keeps its
// own table, changed only by collective calls, which all ranks make in the
// same order, so object numbers agree. Collective calls exchange a summary
// of their arguments and of each rank's local verdict (Allgatherv), so they
// either succeed everywhere or fail everywhere, and differing arguments give
// ErrNotSame. Handles carry the rank's DatabaseTag, so a handle of another
// database or of another rank is reported as ErrObjectMismatch.
//
// # Transactions
//
// Transactions are optimistic. A transaction copies every object it
// touches into a private cache, remembering the version it saw, and works
// only on these copies; nothing it writes is visible to others before
// commit. Queries over many objects (index queries, TranslateVertexID, the
// uniqueness checks of IDs) evaluate over the committed store overlaid with
// the cache, and remember which committed objects matched. Commit takes the
// store mutex and validates: every cached object must still have the
// version seen, and every query must still match the same committed
// objects (so phantoms are caught too). If anything changed, or a
// transaction-critical error happened, the commit fails with
// gdi.ErrTransactionCommitFail and nothing is applied; otherwise all
// changes are installed at once with a new version. Committed transactions
// are therefore serializable in commit order. A transaction may observe a
// state that mixes two commits (it never waits and takes no locks), but
// then it cannot commit.
//
// Collective read transactions run on a quiet database (no other
// transaction open), read the store directly, and end with an Allreduce of
// a failure flag so that all ranks agree on commit or abort.
//
// # Home ranks
//
// Every vertex and edge has a home rank: the rank whose transaction created
// it; bulk loads spread vertices over the ranks round robin and give edges
// the home of their origin. Local index queries (LocalVerticesOfIndex,
// LocalEdgesOfIndex) return the objects whose home is the calling rank, so
// the results of all ranks partition the global result.
//
// # Indexes
//
// Explicit indexes store no entries: a query scans all objects and keeps
// those that gdi.IndexCovers admits for the index's labels and property
// types, and that satisfy the constraint (gdi.DNF). Index types (hash,
// B-tree) therefore only differ in name.
//
// # Caveats
//
//   - Only rma/local: the ranks must share the process.
//   - Scans are linear in the size of the graph; the store is meant for test
//     sized graphs.
//   - Internal UIDs stay valid after their transaction ends (they are just
//     object numbers); using them later is erroneous but not detected.
package refdb
