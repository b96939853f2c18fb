package gdi

import "fmt"

// TransactionType tells single-process and collective read transactions
// apart.
type TransactionType uint8

// Transaction types.
const (
	// SingleProcessTransaction is started by one rank alone and may read
	// and write. Other ranks may serve its accesses without taking part.
	SingleProcessTransaction TransactionType = iota + 1
	// CollectiveReadTransaction is started by all ranks together and may
	// only read.
	CollectiveReadTransaction
)

func (t TransactionType) String() string {
	switch t {
	case SingleProcessTransaction:
		return "GDI_SINGLE_PROCESS_TRANSACTION"
	case CollectiveReadTransaction:
		return "GDI_COLLECTIVE_READ_TRANSACTION"
	}
	return fmt.Sprintf("TransactionType(%d)", uint8(t))
}

// Transaction is an ACID transaction on one database, as seen by one rank.
// All access to vertices and edges happens inside a transaction, through
// the holders it creates.
//
// Lifetime. A transaction ends with Commit or Abort. Then every holder,
// VertexUID and EdgeUID obtained in it becomes invalid, and every later
// call on the transaction returns ErrTransaction (on holders: ErrVertex or
// ErrEdge).
//
// Critical errors. When a call returns a transaction-critical error (see
// IsTransactionCritical), the transaction is doomed: Commit rolls it back
// and returns ErrTransactionCommitFail; Abort is the expected reaction. The
// outputs of the failing call are undefined. Other errors leave the
// transaction as it was.
//
// Concurrency. A rank may have several transactions open at once, also
// from several goroutines, but one Transaction and its holders must not be
// used by several goroutines at once.
//
// A single-process transaction is local: its methods involve no other
// rank's participation. A collective read transaction is started by every
// rank (Database.StartCollectiveTransaction) and ended by every rank;
// between the two, each rank uses its own Transaction value locally, may
// pass UIDs to other ranks, and gets ErrReadOnlyTransaction for any write.
//
// A Transaction is an interface value implemented by a pointer type, hence
// comparable.
type Transaction interface {
	// Type returns the transaction type.
	Type() (TransactionType, error)

	// Commit ends the transaction and makes its changes visible to all.
	// If a transaction-critical error occurred in it, or the commit cannot
	// be done, every change is rolled back and ErrTransactionCommitFail is
	// returned. For a collective read transaction Commit is collective:
	// the ranks agree, and if any rank aborts or met a critical error, all
	// abort and those that asked to commit get ErrTransactionCommitFail.
	Commit() error
	// Abort ends the transaction and rolls back every change. For a
	// collective read transaction it is collective, and is the same call as
	// Commit with the wish to abort.
	Abort() error

	// CreateVertex creates a vertex without labels and returns its holder.
	// A non-empty id is stored as the vertex's PropertyTypeID property and
	// enters the implicit index at commit; an empty id creates a vertex
	// without application-level ID.
	CreateVertex(id []byte) (VertexHolder, error)
	// AssociateVertex returns a holder of the vertex uid. ErrUID for a
	// UID that names no vertex; ErrObjectMismatch for one of another
	// database.
	AssociateVertex(uid VertexUID) (VertexHolder, error)
	// CreateEdge creates an edge of direction d from origin to target,
	// without labels or properties. ErrObjectMismatch if either holder
	// belongs to another transaction; ErrState for an invalid d.
	CreateEdge(d DirectionType, origin, target VertexHolder) (EdgeHolder, error)
	// AssociateEdge returns a holder of the edge uid.
	AssociateEdge(uid EdgeUID) (EdgeHolder, error)

	// TranslateVertexID looks up the vertex with label l and
	// application-level ID id in the implicit index. found is false if
	// there is none. With LabelNone it finds vertices without labels; if
	// several share id, it returns any one of them with WarnNonUniqueID.
	// Vertices created or changed in this transaction are found as they
	// are in this transaction.
	TranslateVertexID(l Label, id []byte) (uid VertexUID, found bool, err error)

	// VerticesOfIndex returns the UIDs of the vertices in idx that satisfy
	// c (nil: all of them), each once. ErrStale for a stale c;
	// ErrObjectMismatch if idx, c and the transaction belong to different
	// databases.
	VerticesOfIndex(idx Index, c Constraint) ([]VertexUID, error)
	// LocalVerticesOfIndex is VerticesOfIndex restricted to the vertices
	// stored on the calling rank. It is local; used on every rank of a
	// collective read transaction, the ranks' results partition the
	// result of VerticesOfIndex.
	LocalVerticesOfIndex(idx Index, c Constraint) ([]VertexUID, error)
	// EdgesOfIndex returns the UIDs of the edges in idx that satisfy c.
	EdgesOfIndex(idx Index, c Constraint) ([]EdgeUID, error)
	// LocalEdgesOfIndex is EdgesOfIndex restricted to the edges stored on
	// the calling rank.
	LocalEdgesOfIndex(idx Index, c Constraint) ([]EdgeUID, error)
}
