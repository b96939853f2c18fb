package gdi

import "github.com/gdi-go/gdi/rma"

// Driver is a GDI backend: something that can create databases. A program
// picks a driver (for example the reference backend or GDI-RMA) and starts
// its ranks with an rma.Launcher; every rank then calls CreateDatabase with
// its own Comm.
type Driver interface {
	// CreateDatabase creates a database spread over the ranks of comm and
	// returns this rank's Database: GDI_CreateDatabase. It is collective:
	// every rank of comm calls it, in the same order relative to other
	// collectives, with equal params. params are backend specific; nil
	// asks for usable defaults. A params value of a type the backend does
	// not know returns ErrArgument.
	//
	// The Database uses comm for its collectives from now on until Free;
	// the caller must not run collectives of its own on comm concurrently
	// with collective calls of the Database.
	CreateDatabase(comm rma.Comm, params any) (Database, error)
}

// Database is one rank's part of a graph database.
//
// Local and collective calls. Methods documented as collective must be
// called by every rank of the database, in the same order on all ranks,
// with the same arguments (labels and property types are the same when
// their object numbers are), from one goroutine per rank. A backend may
// detect differing arguments and return ErrNotSame on every rank.
// Collective calls do not synchronise unless they say "barrier": then no
// rank returns before all have entered (and, for the implicit write
// transactions, finished their changes). All other methods are local: they
// complete without the participation of other ranks and are safe for
// concurrent use by several goroutines of the rank.
//
// Implicit write transactions. Some collective calls (freeing or updating
// metadata, bulk loading, starting a collective transaction) need the
// database to be quiet: on every rank, all transactions of the database
// must be closed before the call and none may start until it returns.
// Breaking this rule is erroneous; a backend that detects it on the
// calling rank returns ErrConsistency.
//
// Consistency. Vertices, edges and their labels and properties are
// serializable: they change only in transactions. Labels, property types
// and indexes (metadata) are eventually consistent: after a rank returns
// from CreateLabel, other ranks may still be inside their call. Programs
// therefore synchronise (for example with a Barrier on the Comm) between
// creating metadata and using it in transactions. A transaction that meets
// metadata the rank does not know yet fails with a transaction-critical
// error rather than misread data.
//
// Handles. Labels and property types are values with the rules of Label;
// Index, Constraint, Subconstraint, Transaction and the holders are
// interface values of pointer types. All are comparable and usable as map
// keys, belong to the rank that obtained them, and report use after free
// with the "invalid argument" code of their kind (ErrLabel, ErrIndex, ...).
// The predefined LabelNone and PropertyType* constants are valid in every
// database; they are not listed by Labels and PropertyTypes, but
// LabelFromName and PropertyTypeFromName find them by name.
//
// After Free, every method returns ErrDatabase, and every object of the
// database is invalid.
type Database interface {
	// Free frees the database and every object in it, as if each had been
	// freed: GDI_FreeDatabase. It is collective. Open transactions are
	// aborted.
	Free() error

	// CreateLabel creates a label named name (see NormalizeName for the
	// rules on names). It is collective. ErrNameExists if a label (or a
	// predefined label) of that name exists; ErrEmptyName for an empty
	// name.
	CreateLabel(name string) (Label, error)
	// UpdateLabel renames l. It is collective. Renaming to the current name
	// does nothing; ErrNameExists if another label has the name; ErrLabel
	// for a predefined label.
	UpdateLabel(l Label, name string) error
	// LabelFromName returns the label named name, or LabelNull (and no
	// error) if there is none.
	LabelFromName(name string) (Label, error)
	// LabelName returns the name of l.
	LabelName(l Label) (string, error)
	// Labels returns the labels created in the database and not freed, in
	// the order of creation, without LabelNone.
	Labels() ([]Label, error)

	// CreatePropertyType creates a property type described by info (see
	// PropertyTypeInfo.Validate). It is collective. ErrNameExists if the
	// name is taken.
	CreatePropertyType(info PropertyTypeInfo) (PropertyType, error)
	// PropertyTypeFromName returns the property type named name, or
	// PropertyTypeNull (and no error) if there is none.
	PropertyTypeFromName(name string) (PropertyType, error)
	// PropertyTypeInfo returns the name, entity type, datatype and size
	// limit of p, as normalised by Validate.
	PropertyTypeInfo(p PropertyType) (PropertyTypeInfo, error)
	// PropertyTypes returns the property types created in the database and
	// not freed, in the order of creation, without the predefined ones.
	PropertyTypes() ([]PropertyType, error)

	// CreateIndex creates an empty explicit index of type t (ErrState for
	// an invalid t). hint is the expected number of indexed objects in the
	// whole database, 0 for no hint (ErrCount if negative). It is
	// collective with a barrier.
	CreateIndex(t IndexType, hint int) (Index, error)
	// Indexes returns the indexes of the database that are not freed.
	Indexes() ([]Index, error)

	// CreateConstraint returns a new constraint without subconstraints.
	CreateConstraint() (Constraint, error)
	// CreateSubconstraint returns a new subconstraint without conditions.
	CreateSubconstraint() (Subconstraint, error)
	// Constraints returns the constraints of this rank in the database that
	// are not freed, stale or not.
	Constraints() ([]Constraint, error)
	// Subconstraints returns the subconstraints of this rank in the
	// database that are not freed, stale or not, copies returned by
	// Constraint.Subconstraints included.
	Subconstraints() ([]Subconstraint, error)

	// StartTransaction starts a single-process transaction.
	StartTransaction() (Transaction, error)
	// StartCollectiveTransaction starts a collective read transaction. It
	// is collective with a barrier and needs a quiet database.
	StartCollectiveTransaction() (Transaction, error)
	// Transactions returns the open transactions of this rank in the
	// database.
	Transactions() ([]Transaction, error)
}

// MetadataRewriter is implemented by a Database that can free labels and
// property types and change property types, which rewrites graph data. It
// is optional because these operations are rare and expensive; a Database
// without it cannot do them. Every method is collective, an implicit write
// transaction (needs a quiet database), and has a barrier that waits until
// every rank has finished its changes.
type MetadataRewriter interface {
	// FreeLabel removes l from every object, from every index (as
	// Index.RemoveLabel), and marks stale every condition on l and the
	// subconstraints and constraints holding it. ErrLabel for a predefined
	// label. WarnNonUniqueID if vertices left without labels now share an
	// application-level ID.
	FreeLabel(l Label) error
	// FreePropertyType removes every property of type p, removes p from
	// every index, and marks stale the conditions on p. ErrPropertyType for
	// a predefined property type.
	FreePropertyType(p PropertyType) error
	// UpdatePropertyType changes name, entity type, datatype and size limit
	// of p and rewrites every property of type p to match, following the
	// specification (section 6.1): surplus properties of a type that
	// becomes single entity are dropped except an arbitrary one; elements
	// are converted with Convert (ErrConversion if not allowed); values are
	// cut to the new limit, and values of a FixedSize type are padded with
	// def, a Value of one element of the new datatype (ErrArgument if
	// padding is needed and def is not such a Value). Conditions on p
	// become stale. ErrPropertyType for a predefined property type.
	UpdatePropertyType(p PropertyType, info PropertyTypeInfo, def Value) error
}
