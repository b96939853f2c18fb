// Package conformance is the conformance suite of the GDI Go binding: the
// contract that every backend of package gdi must pass, in the manner of
// testing/fstest.TestFS and golang.org/x/net/nettest.TestConn.
//
// # Running it against a backend
//
// A backend's test calls Run with a Backend:
//
//	func TestConformance(t *testing.T) {
//		conformance.Run(t, conformance.Backend{
//			Name:   "mydb",
//			Driver: mydb.Driver{},
//			Launch: local.Run,       // or an rma/mpi launcher
//			Params: func() any { return mydb.Params{BlockSize: 256} },
//			Ranks:  []int{1, 2, 4}, // the default
//		})
//	}
//
// Run runs every case of Cases on every rank count, as subtests named
// "ranks=N/Area/rule", so a failure names the rule the backend broke
// (for example "ranks=4/Vertex/free-removes-incident-edges"), and
// go test -run 'Conformance/ranks=2/Index/' selects a part of the suite.
// The message of a failure gives the rank, the line of the check and the
// call that went wrong, with what was expected.
//
// # What the suite assumes
//
//   - Launch starts ranks that can all call the backend's collectives on
//     the Comm it gives them, and returns rma.ErrRanks (the subtest is
//     skipped) if it cannot start a rank count.
//   - Each case runs on every rank with a fresh database created by
//     Driver.CreateDatabase (collective) and freed after the case. A case
//     that needs a second database creates one the same way.
//   - Cases make the same collective calls in the same order on every
//     rank; single-process transactions use application-level IDs that
//     are unique to the rank, so the ranks' data never collide except
//     where a case means it to (isolation and uniqueness races).
//   - Cases that need the optional capabilities gdi.MetadataRewriter,
//     gdi.CSVLoader or gdi.Checkpointer (with Backend.Restore), a database
//     with little index memory (Backend.SmallIndexParams), or two ranks in
//     one process (to hand one rank's handles to another), are skipped,
//     with the reason, when the backend or launcher lacks them. Nothing is
//     skipped silently.
//   - CSV fixtures are mostly in-memory file systems (gdi.CSVFile.FS); one
//     case reads an operating system path in a temporary directory that
//     the ranks of one process share.
//
// # Eventual consistency
//
// Metadata (labels, property types, indexes) is only eventually
// consistent, and explicit indexes are updated at commit. The suite
// therefore only asserts on metadata created by another rank, and on the
// contents of an index, after a collective synchronisation: a Barrier on
// the Comm, a collective call with a barrier (CreateIndex, the bulk loads,
// the MetadataRewriter calls) or the start of a collective read
// transaction. A backend may hold back index updates until then, but not
// longer.
//
// # Errors
//
// Every error a backend returns must carry a gdi.Code (checked throughout:
// an error without a class fails the case). Checks use errors.Is against
// the code the specification names; where the specification lets the
// backend choose (for example ErrUID or ErrObjectMismatch for a UID of
// another database) the case accepts each allowed code. Transactions that
// may conflict with other ranks' transactions are retried when they fail
// with a transaction-critical error or ErrTransactionCommitFail, so both
// locking and optimistic backends pass.
//
// # Coverage
//
// TestCoverage parses SPEC.md at the module root and checks that every
// routine mapped to a Go method is called by some case, so coverage cannot
// silently regress.
package conformance
