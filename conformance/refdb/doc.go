// Package refdb is the reference backend of GDI: a small in-memory graph
// database, written from the specification and the interfaces of package
// gdi for clarity and obvious correctness rather than speed. It is the
// oracle that differential tests compare other backends against, so it
// shares no code with them: it uses nothing of this module but package gdi
// and the rma.Comm it is given.
//
// It implements gdi.Driver, gdi.MetadataRewriter, gdi.CSVLoader and, on
// vertex holders, gdi.IncidentEdger.
//
// # The store
//
// The ranks of a database are goroutines of one process (rma/local), and
// they share one store (store.go): the committed vertices and edges, each
// a record (record.go) with labels, properties and the rank it lives on
// (its home), and the implicit index from (label, application-level ID) to
// objects. One mutex guards the store. CreateDatabase makes the store on
// rank 0 and sends its number to the other ranks, which look it up in a
// registry of the process; ranks in different processes cannot, and every
// rank fails.
//
// Invariants of the store:
//
//   - Object numbers are handed out once and never reused; vertices and
//     edges draw from one counter. Internal UIDs are a store number and an
//     object number (uid.go).
//   - A vertex record lists its incident edges, and every edge listed
//     exists and has the vertex as origin or target; every edge's ends
//     exist and list it. A loop is listed once. The degree types are
//     counted from these lists, never stored.
//   - Labels and property types are stored by object number, which is the
//     same on every rank. A (property type, value) pair occurs at most once
//     on an object, a single-entity type at most once, and
//     PropertyTypeID at most once.
//   - Objects of one kind (vertices, or edges) that share a label have
//     different application-level IDs; objects without labels may share
//     one. The implicit index lists exactly the committed objects under
//     each of their labels (or under "no label") with their ID.
//   - A committed record is never changed: a change installs a new record.
//     So a transaction may keep a pointer to the record it read, and a
//     record that is still the installed one has not changed since.
//
// # Metadata
//
// Each rank keeps its own replica of the labels and property types
// (catalog.go) and of the explicit indexes (index.go). Only collective
// calls change them, in the same order on every rank, so object numbers
// agree; handles add the rank's gdi.DatabaseTag, so a handle of another
// database or rank is ErrObjectMismatch. Every collective call goes
// through one exchange (collective.go): the ranks compare descriptions of
// the call (ErrNotSame if they differ) and their local verdicts, and fail
// together if one rank fails. Constraints and subconstraints (condition.go)
// are rank-local; whether a condition is stale is derived from the
// catalog: its label was freed, or its property type was freed or updated
// since (each property type counts its updates).
//
// Explicit indexes store no entries: a query scans the objects and keeps
// those gdi.IndexCovers admits and the constraint (gdi.DNF) accepts, so
// every commit is visible in every index at once and the index type only
// names a wish.
//
// # Transactions
//
// A single-process transaction is optimistic (transaction.go, view.go,
// query.go). It reads a committed record into its cache on first use and
// keeps reading that one; it writes private copies. Queries over many
// objects (TranslateVertexID, index queries, the ID checks of AddLabel)
// find the committed matches under the store's lock, remember the query
// and what it found, and overlay the transaction's own view. Commit takes
// the store's lock and checks that every record read is still the
// installed one and every query still finds the same committed objects;
// if so it installs the private copies, all at once, and otherwise fails
// with ErrTransactionCommitFail and leaves no trace. Committed
// transactions are therefore serializable in the order of their commits.
// A transaction never waits. If it meets a state that no serial order can
// explain (an object whose UID it handed out is gone), it fails with a
// transaction-critical error and can only roll back.
//
// A collective read transaction reads the same way, but checks nothing
// and writes nothing: the database is quiet while it is open. Its end is
// collective, and it commits only if every rank asks to and none met a
// transaction-critical error.
//
// Vertices and edges created by a transaction live on the rank that
// created them; the local index queries return the objects of the calling
// rank, so the ranks' answers partition the global one.
//
// # Rewrites and bulk loads
//
// FreeLabel, FreePropertyType, UpdatePropertyType (rewriter.go,
// ptype_update.go) and the CSV loads (csv*.go) need a quiet database. Every
// rank changes its metadata; rank 0 alone rewrites or loads the store,
// under its lock; the exchange of rank 0's outcome is the barrier after
// which every rank sees the change. UpdatePropertyType computes every new
// record before it installs any, and a load parses the whole file before
// it stores a line, so a failure changes nothing. Loaded objects get the
// homes 0, 1, 2, ... round robin by line.
//
// # Limits
//
//   - The ranks must be goroutines of one process.
//   - Index queries scan the graph, and a commit repeats the queries of
//     its transaction: meant for graphs of test size.
package refdb
