// Package gdi is the Go binding of the Graph Database Interface (GDI) v0.9:
// the interfaces, handles, error codes and datatypes through which programs
// use a distributed graph database of the labeled property graph model,
// and which backends implement. It contains no backend.
//
// # Model
//
// A database holds vertices and edges. Each may carry any number of labels
// (Label) and properties: pairs of a property type (PropertyType: a key
// with a Datatype, an EntityType and a size limit) and a Value. A (property
// type, value) pair occurs at most once per object. Edges are directed or
// undirected; several edges may join the same vertices and loops are
// allowed. A vertex may have an application-level ID, unique among the
// vertices that share a label; vertices without labels may share IDs.
//
// # Ranks, local and collective calls
//
// A database is spread over the ranks of an rma.Comm. A Driver creates it
// collectively; each rank gets its own Database value. Every method is
// either local (it completes without the other ranks taking part, although
// it may read or write their memory) or collective (every rank makes the
// same call, in the same order, with the same arguments, from one goroutine
// per rank). Collective calls are few: creating, changing and freeing the
// database, labels, property types and indexes, bulk loading, and starting
// and ending collective read transactions. Everything in a single-process
// transaction is local.
//
// The package example (Example) is a whole program; in outline, with
// launch.Run of package rma/launch and the gdirma backend:
//
//	err := launch.Run(ranks, func(comm rma.Comm) error {
//		db, err := gdirma.Driver{}.CreateDatabase(comm, nil) // collective
//		if err != nil {
//			return err
//		}
//		defer db.Free()                                // collective
//		person, _ := db.CreateLabel("Person")          // collective
//		name, _ := db.CreatePropertyType(gdi.PropertyTypeInfo{
//			Name: "name", Entity: gdi.SingleEntity, Datatype: gdi.Char,
//			Size: gdi.MaxSize, Count: 64})             // collective
//		comm.Barrier()                                 // metadata settles
//		tx, _ := db.StartTransaction()                 // local from here on
//		v, _ := tx.CreateVertex([]byte("p1"))
//		v.AddLabel(person)
//		v.AddProperty(name, gdi.Chars("Ada"))
//		return tx.Commit()
//	})
//
// # Consistency
//
// Graph data (vertices, edges, their labels and properties) changes only
// inside transactions, which are ACID and serializable. Metadata (labels,
// property types, indexes) is only eventually consistent: programs
// synchronise between defining metadata and using it. Calls that rewrite
// graph data because of metadata (freeing a label, updating a property
// type, bulk loading) and collective read transactions need a quiet
// database: no transaction open on any rank.
//
// # Transactions and lifetimes
//
// Database.StartTransaction starts a single-process transaction, which one
// rank runs alone and which may write. Database.StartCollectiveTransaction
// starts a collective read transaction, which all ranks run together and
// which may only read; it is meant for whole-graph queries, usually over
// Transaction.LocalVerticesOfIndex. Inside a transaction, vertices and
// edges are reached through internal UIDs (VertexUID, EdgeUID: small values
// that may be sent to other ranks) and handled through holders
// (VertexHolder, EdgeHolder: rank-local objects). UIDs and holders are
// valid only until the transaction ends, and a holder also only until it
// is freed.
//
// An error is transaction-critical (IsTransactionCritical) when the
// transaction can no longer commit; Commit then rolls back and returns
// ErrTransactionCommitFail. Other errors leave the transaction as it was.
//
// # Handles
//
// Every handle is a comparable Go value usable as a map key. Label and
// PropertyType are integers made of a DatabaseTag and an object number;
// backends never reuse a number, so a freed handle is always detected. The
// other handles (Database, Index, Constraint, Subconstraint, Transaction,
// VertexHolder, EdgeHolder) are interfaces that backends implement with
// pointer types; an object remembers that it was freed and every later
// call returns the "invalid argument" code of its kind (ErrIndex,
// ErrVertex, ...). The specification's null handles are the zero values:
// LabelNull, PropertyTypeNull, and nil for interfaces; a nil Constraint in a
// query means "no filter". Handles belong to the rank that obtained them.
//
// # Errors
//
// Errors are Go errors that wrap a Code; test them with errors.Is against
// the Code constants (ErrNoSuchFile, ErrStale, ...), or get the class with
// ErrorClass. Warnings are non-nil errors too, whose class is a warning
// code (WarnNonUniqueID, WarnNotAllDataLoaded, WarnOther): the call did
// everything it should, and its results are valid. So the usual test after
// a call is Failed(err), not err != nil.
//
// # Values and datatypes
//
// A property value is a Value: a sequence of elements of one Datatype,
// with a fixed binary encoding shared by all backends. The conversions and
// comparisons of the specification are the pure functions Convert and
// Compare; constraints (DNF, Conjunction) and the index model
// (IndexCovers) are evaluated by pure functions too, so that every backend
// gives the same answers.
//
// # Differences from the C interface
//
// Results come back as Go slices and strings, so the count/resultcount and
// length/resultlength parameters and the truncation they could cause
// (ErrTruncate) are gone. GDI_Init and GDI_Finalize have no counterpart:
// starting ranks is the job of an rma.Launcher, and each Database owns all
// its resources. Holders have a UID method, which the specification lacks.
// SPEC.md at the root of the module maps every routine of the specification
// to its Go counterpart and records every such difference.
//
// # Trade-offs
//
// Labels and property types are values, not interfaces, because they are
// stored inside graph data, appear as predefined constants, and must be
// cheap to compare and hash; the price is that their methods live on
// Database (LabelName, PropertyTypeInfo). Holders are interfaces because
// they carry the backend's cached state of a vertex or edge. Optional parts
// (CSVLoader, MetadataRewriter) are separate interfaces found by type
// assertion, as in database/sql/driver, so that a simple backend can leave
// out rare, expensive operations and still be a GDI backend.
package gdi
